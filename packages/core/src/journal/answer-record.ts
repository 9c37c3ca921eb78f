/**
 * What a request was answered with, as the journal keeps it beside the request:
 * a reference to the very answer the sink sends (nothing copied on the read
 * path), plus the times the sink measured and a relayed body's first chunks.
 * The journal does not read the answer's kinds (they are the answer layer's,
 * above it): `answer/answer-journal.ts` cuts a long body when a journal records
 * the request ({@link KeptAnswer}) and turns it into the entry's `response`;
 * {@link timingsOf} gives the entry's `timings`.
 *
 * @module
 */

import type { AnswerTimings } from '../api/journal-json.js';
import { JOURNAL_BODY_LIMIT } from '../registry/limits.js';
import type { RecordedRequest } from './journal-entry.js';

/** Response headers as answers carry them: lower-case names, an array for a header sent once per value. */
export type AnswerHeaderMap = Readonly<Record<string, string | readonly string[]>>;

/**
 * The answer a journal entry keeps, as the journal sees it: its kind (the answer
 * layer's `EndpointAnswer` kinds, or `cut` for one whose body was cut to the
 * journal's limit), status and headers. `answer/answer-journal.ts` reads the rest.
 */
export interface KeptAnswer {
  readonly kind: string;
  readonly status: number;
  readonly headers: AnswerHeaderMap;
}

/**
 * Marks `request` as answered with `answer`; the journal that records it keeps
 * it (its body cut to the journal's limit: `keep` of `answer/answer-journal.ts`).
 */
export function answered(request: RecordedRequest, answer: KeptAnswer): void {
  request.answer = answer;
}

/**
 * Keeps a reference to a chunk of a relayed (proxied) answer's body as it is
 * passed on, until the journal's limit is reached; counts every byte.
 */
export function relayedChunk(request: RecordedRequest, chunk: Uint8Array): void {
  const seen = request.relayedBytes ?? 0;
  request.relayedBytes = seen + chunk.byteLength;
  if (seen >= JOURNAL_BODY_LIMIT) return;
  if (request.relayed === undefined) request.relayed = [chunk];
  else request.relayed.push(chunk);
}

/** Milliseconds with microseconds kept (as devtools give them). */
function ms(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** The entry's `timings`, when the answer's first byte was sent: wait until it, and the whole answer. */
export function timingsOf(request: RecordedRequest): AnswerTimings | undefined {
  const { startedAt, firstByteAt, doneAt } = request;
  if (startedAt === undefined || firstByteAt === undefined) return undefined;
  const timings: AnswerTimings = { wait: ms(Math.max(0, firstByteAt - startedAt)) };
  if (doneAt !== undefined) timings.total = ms(Math.max(timings.wait, doneAt - startedAt));
  return timings;
}
