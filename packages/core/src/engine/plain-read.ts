/**
 * A plain read: a request at the bare URL of a name that nothing but its
 * stored record answers (no signature check, chaos of its own or of the
 * namespace, routes, queued answers, twin or GraphQL schema) is answered with
 * the record's prepared answer and journaled, without the answer pipeline's
 * steps. Whether a name is plain is decided once per generation of the
 * endpoints' changes (any change of any name starts a new one) and kept on its
 * cached record, so a cached read asks two questions instead of ten steps; the
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

/**
 * Whether only the record of `name` can answer at its bare URL, by what this
 * process knows now: every other source of an answer known (cached) to be
 * absent. Something not known yet (a first request, a cache that let it go)
 * is not plain: the pipeline looks it up.
 */
export function answersAlone(parts: PipelineParts, name: string): boolean {
  const { endpoints, twins } = parts;
  return (
    isValidName(name) &&
    name.length <= JOURNAL_NAME_LIMIT &&
    endpoints.signatureChecks.get(name) === null &&
    endpoints.chaosPlans.get(name) === null &&
    endpoints.chaosPlans.get(NAMESPACE_CHAOS_KEY) === null &&
    endpoints.routeTables.get(name) === null &&
    endpoints.graphqlMocks.get(name) === null &&
    (twins === undefined || twins.peek(name) === null)
  );
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
    if (!answersAlone(parts, name)) return undefined;
    entry.plainAt = generation;
  }
  if (endpoints.queue.pending(name)) return undefined;
  const answer = request.method === 'HEAD' ? entry.answers.head : entry.answers.full;
  answered(request, answer);
  parts.journal.record(name, request, entry.statusCode, BY_RECORD);
  return answer;
}
