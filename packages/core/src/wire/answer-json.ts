/**
 * Queued answers as JSON text, `data` exactly as it was sent (a {@link JsonText}
 * keeps big integers, `1.0`, `-0` and key order): on the wire (the queue routes)
 * and in stores that keep text (the Redis queue). One place, so what is listed
 * and what is answered are the same bytes.
 *
 * @module
 */

import type { Fault, QueuedAnswer, TakenAnswer } from '../answer/queue/answer-queue.js';
import { JsonText, jsonTextOf, scanJson } from './json-text.js';

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
