/**
 * A plain read: a request at the bare URL of a name that nothing but its
 * stored record answers (no signature check, chaos of its own or of the
 * namespace, routes, queued answers, twin or GraphQL schema) is answered with
 * the record's prepared answer and journaled, without the answer pipeline's
 * steps. Whether a name is plain is decided once per generation of the
 * endpoints' changes (any change of any name starts a new one) and kept on its
 * cached record (so is a name that is not: one with routes, say, pays one
 * comparison for it), so a cached read asks two questions instead of ten steps; the
 * queue is asked on every request, as its pending names also move with a
 * shared queue's connection. The answer and the journal entry are the ones the
 * pipeline gives (record-step.ts): the same object, the same mark and status.
 *
 * @module
 */

import type { RespondAnswer } from '../answer/endpoint-answer.js';
import { NAMESPACE_CHAOS_KEY } from '../api/chaos.js';
import { answered } from '../journal/answer-record.js';
import { BY_RECORD, type RecordedRequest } from '../journal/journal-entry.js';
import { JOURNAL_NAME_LIMIT } from '../registry/limits.js';
import { isValidName } from '../registry/rules.js';
import type { PipelineParts } from './pipeline/exchange.js';

/** What a lookup of one other source of answers says: absent (`null`), there, or not known yet (`undefined`). */
function absent(looked: unknown): boolean | undefined {
  return looked === undefined ? undefined : looked === null;
}

/**
 * Whether only the record of `name` can answer at its bare URL, by what this
 * process knows now: `true` when every other source of an answer is known
 * (cached) to be absent, `false` when one is known to be there, `undefined`
 * when one is not known yet (a first request, a cache that let it go): the
 * pipeline looks it up, and the next read asks again.
 */
export function answersAlone(parts: PipelineParts, name: string): boolean | undefined {
  if (!isValidName(name) || name.length > JOURNAL_NAME_LIMIT) return false;
  const { endpoints, twins } = parts;
  let known = true;
  for (const looked of [
    endpoints.signatureChecks.get(name),
    endpoints.chaosPlans.get(name),
    endpoints.chaosPlans.get(NAMESPACE_CHAOS_KEY),
    endpoints.routeTables.get(name),
    endpoints.graphqlMocks.get(name),
    twins === undefined ? null : twins.peek(name),
  ]) {
    const alone = absent(looked);
    if (alone === false) return false;
    if (alone === undefined) known = false;
  }
  return known ? true : undefined;
}

/**
 * The record's answer to `request` (a read method at `name`'s bare URL), journaled
 * as the record step journals it, when the name is plain and its record cached;
 * `undefined` otherwise (the pipeline answers, nothing was done).
 */
export function plainRead(
  parts: PipelineParts,
  name: string,
  subpath: string,
  request: RecordedRequest,
): RespondAnswer | undefined {
  if (subpath !== '/') return undefined;
  const { endpoints } = parts;
  const entry = endpoints.cache.get(name);
  if (entry === undefined) return undefined;
  const generation = endpoints.changes.generation;
  if (entry.plainAt !== generation) {
    const alone = answersAlone(parts, name);
    if (alone === undefined) return undefined;
    entry.plain = alone;
    entry.plainAt = generation;
  }
  if (!entry.plain || endpoints.queue.pending(name)) return undefined;
  const answer = request.method === 'HEAD' ? entry.answers.head : entry.answers.full;
  answered(request, answer);
  parts.journal.record(name, request, entry.statusCode, BY_RECORD);
  return answer;
}
