/**
 * The server's request filter: {@link firstMismatch} of journal/request-filter.ts
 * with the `graphql` field read from the request itself (its document parsed,
 * once per subject) rather than from a journal entry's mark. Routes, queued
 * answers, socket scripts, journal reads and `@mockpoint/core` use it.
 *
 * @module
 */

import type { RequestFilter } from '../api/journal-json.js';
import { graphqlRequestOf } from '../graphql/graphql-request.js';
import {
  type FilterSubject,
  type GraphqlReader,
  type MismatchOptions,
  firstMismatch as markMismatch,
} from './request-filter.js';

/** The operations of `subject` read as a GraphQL request. */
const parsedOperations: GraphqlReader = (subject) => graphqlRequestOf(subject)?.operations;

/**
 * The first field of `filter` that `subject` does not match, in words with
 * `explain` (see journal/request-filter.ts), or `undefined` when every given
 * field matches; `graphql` is read from the request's parsed document.
 */
export function firstMismatch(
  subject: FilterSubject,
  filter: RequestFilter,
  options: MismatchOptions = {},
): string | undefined {
  if (filter.graphql === undefined || options.graphql !== undefined) return markMismatch(subject, filter, options);
  return markMismatch(subject, filter, { ...options, graphql: parsedOperations });
}

/** True when `entry` matches every field of `filter`. */
export function matchesRequest(entry: FilterSubject, filter: RequestFilter): boolean {
  return firstMismatch(entry, filter) === undefined;
}
