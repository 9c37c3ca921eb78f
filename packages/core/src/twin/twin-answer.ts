/**
 * What goes in and out of a twin (twin-engine.ts): one request as the twin reads it, its answer,
 * what a request's changes carry to their events, and the refusal a room throws for the provider's
 * error a request brings.
 *
 * @module
 */
import { ExpandProblem } from './twin-expand.js';
import type { FlowError } from './twin-flows.js';
import { PageProblem } from './twin-lists.js';
import { ParamProblem } from './twin-problems.js';
import { SearchProblem } from './twin-search.js';

/** One request, as the twin reads it. */
export interface TwinRequest {
  method: string;
  /** The path below the twin's root (`/v1/customers`). */
  path: string;
  /** The query string, without `?`. */
  query: string;
  body: string;
  /** The body's bytes, when they may not be UTF-8 text (a GitHub release asset's upload). @default `body`'s */
  bytes?: Uint8Array;
  /** The twin's root as the request reached it, with scheme and host (the flows' `OwnRequest.root`). @default none */
  root?: string;
  header(name: string): string | undefined;
  /** Told each event the request's changes emit (`mockpoint trigger` reads what it made). @default none told */
  onEvent?: EventHeard;
}

/** Told one event a change emitted: its type and the event (Stripe's `event`, GitHub's payload). */
export type EventHeard = (type: string, event: Record<string, unknown>) => void;

/** What a request's changes carry to their events: who is told of them, the API version they are in. */
export interface Asked {
  onEvent?: EventHeard | undefined;
  /** The request's API version (twin-versions.ts). @default the profile's newest */
  version?: string | undefined;
  /** The twin's root as the request reached it (what the flows' `keyed` reads). */
  root?: string | undefined;
}

/** The twin's answer. */
export interface TwinAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Bytes answered in place of `body` (a GitHub release asset's download), in `headers`' `content-type`. */
  bytes?: Uint8Array;
}

/** The provider's error a request brings, thrown by a room and answered by the engine. */
export class Refusal extends Error {
  constructor(readonly error: FlowError) {
    super(error.message);
  }
}

/** The provider's error a request's failure answers (`undefined`: not one a request brings). */
export function refusalOf(error: unknown): FlowError | undefined {
  if (error instanceof Refusal) return error.error;
  if (error instanceof SearchProblem || error instanceof ExpandProblem) {
    const param = error instanceof SearchProblem ? 'query' : 'expand';
    return { status: 400, type: 'invalid_request_error', code: error.code, message: error.message, param };
  }
  if (error instanceof ParamProblem || error instanceof PageProblem) {
    const { code, param } = error;
    return {
      status: 400,
      type: 'invalid_request_error',
      message: error.message,
      ...(code === undefined ? {} : { code }),
      ...(param === undefined ? {} : { param }),
    };
  }
  return undefined;
}

/** A JSON answer of `value`. */
export function jsonAnswer(status: number, value: unknown, headers: Record<string, string> = {}): TwinAnswer {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(value) };
}

/** Whether an answer's body is JSON (a provider's flows render only those). */
export function isJson(answer: TwinAnswer): boolean {
  return answer.body !== '' && (answer.headers['content-type'] ?? '').includes('json');
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
