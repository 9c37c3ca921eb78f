/**
 * What one kind of route answer is, at the wire: the member that marks it,
 * its schema, how its JSON is read, what may stand beside it and its checks.
 * Each kind is one file in `kinds/`, listed once in `answer-kinds.ts`; the
 * answer and engine layers key their parts by the same name (see
 * docs/development.md, "Adding a kind of answer").
 *
 * @module
 */

import type { z } from 'zod';
import type { ErrorCode } from '../registry/errors.js';
import type { AnswerLimits, RouteAnswer } from './route.js';

/** The record schemas a route reuses. */
export interface RouteSchemaParts {
  name: z.ZodString;
  data: z.ZodUnknown;
  statusCode: z.ZodNumber;
  delay: z.ZodNumber;
  fault: z.ZodType;
  requestFilter: z.ZodType;
}

/** What a kind's check is given: where the answer sits, the limits, and the shared refusals. */
export interface KindCheck {
  /** The answer's index in its list. */
  readonly at: number;
  /** The list it is in. */
  readonly list: 'routes' | 'answers';
  readonly limits: AnswerLimits;
  /** Whether the answer has `template: true`. */
  readonly template: boolean;
  /** Refuses the answer: `routes[i]: message` with this code. */
  fail(code: ErrorCode, message: string): never;
  /** Refuses `{{item…}}` in a templated answer (`INVALID_TEMPLATE`): only a resource answers an item. */
  refuseItem(): void;
}

/** One kind of route answer, named by the member that marks it. */
export interface AnswerKind<K extends string = string> {
  /** The answer member that marks the kind (and its name everywhere). */
  readonly key: K;
  /** How messages name it: `an llm answer`. */
  readonly noun: string;
  /** The code of a value the schema refuses under its member; absent: `INVALID_ROUTE`. */
  readonly code?: ErrorCode;
  /** The schema of its member (one instance per `parts`: the OpenAPI document names it once). */
  readonly schema: (parts: RouteSchemaParts) => z.ZodType;
  /** The member's description in the RouteAnswer schema; absent: the schema's own. */
  readonly describe?: string;
  /** Reads its member from JSON text, keeping exact texts; absent: `JSON.parse`. */
  readonly fromJson?: (text: string) => unknown;
  /**
   * A form of the plain answer (stream, fault): its member sits among the plain
   * fields and is checked and compiled with them. Otherwise the kind owns the
   * answer: its member sits after `template`, it is checked by {@link check}.
   */
  readonly plain?: true;
  /** The fields allowed beside its member (headers among them are checked), and what the answer is, for the refusal. */
  readonly beside?: { readonly fields: readonly string[]; readonly says: string };
  /** Refused in a queued answer (`… is for routes only`). */
  readonly routesOnly?: true;
  /** Where its check comes among the kinds' (lower first): an answer with two kinds' members is refused by the first. */
  readonly checkOrder?: number;
  /** Answering it reads the request's whole body (the adapter keeps it past `request.body`). */
  readonly readsBody?: true;
  /** Its checks beyond the schema, after {@link beside} and {@link routesOnly}. */
  readonly check?: (answer: RouteAnswer, check: KindCheck) => void;
  /** Whether the exports can write it: a WireMock mapping, a Mockoon route. */
  readonly forms: { readonly wiremock: boolean; readonly mockoon: boolean };
}

/** A kind, its name kept as a literal type. */
export function answerKind<K extends string>(kind: AnswerKind<K>): AnswerKind<K> {
  return kind;
}
