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
import { JsonText, jsonTextOf, scanJson } from './json-text.js';

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

/** One answer as a client queues it; absent fields fall back to the stored record. */
export interface QueuedAnswerInput {
  /** 200–599. @default the record's statusCode */
  statusCode?: number;
  /** Any JSON value (`null` included). @default the record's data */
  data?: unknown;
  /** Milliseconds before the answer (or the fault). @default the record's delay */
  delay?: number;
  /** A network failure instead of an answer. @default undefined (a normal answer) */
  fault?: Fault;
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
 * An answer as JSON text, its fields in a fixed order (statusCode, data, delay,
 * fault, then times when the answer has it); absent fields are left out.
 */
export function answerJson(answer: TakenAnswer | QueuedAnswer): string {
  const parts: string[] = [];
  if (answer.statusCode !== undefined) parts.push(`"statusCode":${answer.statusCode}`);
  if (Object.hasOwn(answer, 'data')) parts.push(`"data":${jsonTextOf(answer.data)}`);
  if (answer.delay !== undefined) parts.push(`"delay":${answer.delay}`);
  if (answer.fault !== undefined) parts.push(`"fault":${JSON.stringify(answer.fault)}`);
  const { times } = answer as Partial<QueuedAnswer>;
  if (times !== undefined) parts.push(`"times":${times}`);
  return `{${parts.join(',')}}`;
}

/** `{"answers":[…]}`: a queue as the routes list it. */
export function queuePageJson(answers: readonly QueuedAnswer[]): string {
  return `{"answers":[${answers.map(answerJson).join(',')}]}`;
}

/** An answer back from {@link answerJson}'s text (without `times`), `data` as a {@link JsonText}. */
export function parseAnswerJson(text: string): TakenAnswer {
  const members = scanJson(text).members;
  if (members === undefined) throw new SyntaxError('a queued answer is not a JSON object');
  const answer: TakenAnswer = {};
  const statusCode = members.get('statusCode');
  if (statusCode !== undefined) answer.statusCode = Number(statusCode);
  const data = members.get('data');
  if (data !== undefined) answer.data = new JsonText(data);
  const delay = members.get('delay');
  if (delay !== undefined) answer.delay = Number(delay);
  const fault = members.get('fault');
  if (fault !== undefined) answer.fault = JSON.parse(fault) as Fault;
  return answer;
}
