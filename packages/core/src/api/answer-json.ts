/**
 * Queued answers as they cross the wire: their shape and limits (read by the
 * request schemas, the client and every queue), and their JSON text, `data`
 * exactly as it was sent (a {@link JsonText} keeps big integers, `1.0`, `-0` and
 * key order): on the wire (the queue routes) and in stores that keep text (the
 * Redis queue). One place, so what is listed and what is answered are the same
 * bytes.
 *
 * @module
 */

import { JsonText, jsonTextOf, scanJson, stringifyExact } from '../codec/json-text.js';
import type { GrpcAnswer } from './answer-grpc.js';
import { type AnswerStream, streamFromJson } from './answer-stream.js';
import type { RequestFilter } from './journal-json.js';
import type { SetStateInput } from './state-json.js';

/**
 * The fields a route's answer ({@link RouteAnswer}) and a queued answer share,
 * written once. At most one of `data`, `body` and `bodyBase64`.
 */
export interface AnswerContent {
  /** Text sent as is (`text/plain; charset=utf-8` unless `headers` says otherwise). */
  body?: string;
  /** Bytes, in base64 (`application/octet-stream` unless `headers` says otherwise). */
  bodyBase64?: string;
  /**
   * Events written one by one, each after its own delay, instead of a body (see
   * docs/streams.md); the headers are the answer's own.
   */
  stream?: AnswerStream;
  /** A network failure instead of an answer. @default undefined (a normal answer) */
  fault?: Fault;
  /** Render `{{…}}` placeholders in data strings, body, each stream event and header values. @default false */
  template?: boolean;
  /**
   * Move the endpoint's state when this answer is given, in the same atomic step
   * as the match (a value of the `default` scenario, or scenario → value); see
   * docs/state.md. Or later, by the app's clock: `{ after: '30s', to: 'shipped' }`
   * moves it that long after the answer (docs/clock.md).
   * @example 'paid'
   * @example { checkout: 'paid' }
   * @example { after: '30s', to: 'shipped' }
   */
  setState?: SetStateInput;
}

/**
 * A network failure instead of an answer:
 * - `reset`: the connection is reset (TCP RST); no status line is sent.
 * - `close`: the status line and headers are sent, then the connection closes
 *   partway through the body.
 * - `hang`: nothing is sent until the client gives up or the queue is cleared.
 */
export type Fault = 'reset' | 'close' | 'hang';

/** The faults, in the order the docs list them. */
export const FAULTS: readonly Fault[] = ['reset', 'close', 'hang'];

/**
 * One answer as a client queues it: the one answer shape (as a route's), plus
 * `match` and `times`. Absent fields fall back to what would answer without the
 * queue (the first matching route, else the record at the bare URL). At most
 * one of `data`, `body` and `bodyBase64`.
 */
export interface QueuedAnswerInput extends AnswerContent {
  /**
   * Which requests take this answer (the request filter routes use); a request
   * that does not match leaves it queued for a later one. @default every request
   * @example { method: 'POST', path: '/orders' }
   */
  match?: RequestFilter;
  /**
   * The answer to a gRPC, gRPC-Web or Connect call (docs/grpc.md#queued-answers):
   * only calls take it, and a call takes no answer without it. Beside it only
   * `match`, `delay`, `template`, `setState`, `fault` (`reset`) and `times`.
   */
  grpc?: GrpcAnswer;
  /** 200–599. @default the fallback's status (200 when there is none) */
  statusCode?: number;
  /**
   * Response headers; an array sends the header once per value. Hop-by-hop and
   * framing headers are refused. @default the fallback's headers
   */
  headers?: Record<string, string | string[]>;
  /** Any JSON value (`null` included), sent as its exact text. @default the fallback's body */
  data?: unknown;
  /** Milliseconds before the answer (or the fault). @default the fallback's delay */
  delay?: number;
  /** How many requests this answer serves, one after the other. @default 1 */
  times?: number;
}

/** A queued answer as the queue holds and lists it: `times` is what remains. */
export interface QueuedAnswer extends Omit<QueuedAnswerInput, 'times'> {
  times: number;
}

/** One use of a queued answer, taken off the queue by a request. */
export type TakenAnswer = Omit<QueuedAnswer, 'times'>;

/** Answers queued per name at most (a `times` of 10 counts once). */
export const MAX_QUEUED_ANSWERS = 100;

/** Largest `times` of one answer. */
export const MAX_ANSWER_TIMES = 10_000;

/**
 * An answer as JSON text, its fields in a fixed order (match first, then grpc,
 * statusCode, headers, data, body, bodyBase64, stream, delay, fault, template,
 * setState, then times when the answer has it); absent fields are left out. A text starting
 * with `{"match":` is an answer with a match, one starting with `{"grpc":` a
 * gRPC answer without one (the Redis queue's take relies on both).
 */
export function answerJson(answer: TakenAnswer | QueuedAnswer): string {
  const parts: string[] = [];
  if (answer.match !== undefined) parts.push(`"match":${JSON.stringify(answer.match)}`);
  if (answer.grpc !== undefined) parts.push(`"grpc":${JSON.stringify(answer.grpc)}`);
  if (answer.statusCode !== undefined) parts.push(`"statusCode":${answer.statusCode}`);
  if (answer.headers !== undefined) parts.push(`"headers":${JSON.stringify(answer.headers)}`);
  if (Object.hasOwn(answer, 'data')) parts.push(`"data":${jsonTextOf(answer.data)}`);
  if (answer.body !== undefined) parts.push(`"body":${JSON.stringify(answer.body)}`);
  if (answer.bodyBase64 !== undefined) parts.push(`"bodyBase64":${JSON.stringify(answer.bodyBase64)}`);
  if (answer.stream !== undefined) parts.push(`"stream":${stringifyExact(answer.stream)}`);
  if (answer.delay !== undefined) parts.push(`"delay":${answer.delay}`);
  if (answer.fault !== undefined) parts.push(`"fault":${JSON.stringify(answer.fault)}`);
  if (answer.template !== undefined) parts.push(`"template":${answer.template}`);
  if (answer.setState !== undefined) parts.push(`"setState":${JSON.stringify(answer.setState)}`);
  const { times } = answer as Partial<QueuedAnswer>;
  if (times !== undefined) parts.push(`"times":${times}`);
  return `{${parts.join(',')}}`;
}

/** The start of {@link answerJson}'s text for an answer with a `match`. */
export const MATCH_PREFIX = '{"match":';

/** `{"answers":[…]}`: a queue as the routes list it. */
export function queuePageJson(answers: readonly QueuedAnswer[]): string {
  return `{"answers":[${answers.map(answerJson).join(',')}]}`;
}

/** An answer back from {@link answerJson}'s text (without `times`), `data` as a {@link JsonText}. */
export function parseAnswerJson(text: string): TakenAnswer {
  const members = scanJson(text).members;
  if (members === undefined) throw new SyntaxError('a queued answer is not a JSON object');
  const answer: TakenAnswer = {};
  const match = members.get('match');
  if (match !== undefined) answer.match = JSON.parse(match) as RequestFilter;
  const grpc = members.get('grpc');
  if (grpc !== undefined) answer.grpc = JSON.parse(grpc) as GrpcAnswer;
  const statusCode = members.get('statusCode');
  if (statusCode !== undefined) answer.statusCode = Number(statusCode);
  const headers = members.get('headers');
  if (headers !== undefined) answer.headers = JSON.parse(headers) as Record<string, string | string[]>;
  const data = members.get('data');
  if (data !== undefined) answer.data = new JsonText(data);
  const body = members.get('body');
  if (body !== undefined) answer.body = JSON.parse(body) as string;
  const bodyBase64 = members.get('bodyBase64');
  if (bodyBase64 !== undefined) answer.bodyBase64 = JSON.parse(bodyBase64) as string;
  const stream = members.get('stream');
  if (stream !== undefined) answer.stream = streamFromJson(stream) as AnswerStream;
  const delay = members.get('delay');
  if (delay !== undefined) answer.delay = Number(delay);
  const fault = members.get('fault');
  if (fault !== undefined) answer.fault = JSON.parse(fault) as Fault;
  const template = members.get('template');
  if (template !== undefined) answer.template = template === 'true';
  const setState = members.get('setState');
  if (setState !== undefined) answer.setState = JSON.parse(setState) as SetStateInput;
  return answer;
}
