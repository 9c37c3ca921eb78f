/**
 * A repository's issue comments as GitHub lists them ("List issue comments for a repository"):
 * `GET …/issues/comments` (`issues.listCommentsForRepo`) lists the comments of every issue and
 * pull request of the repository (each issue's are kept apart, at `…/issues/{n}/comments`);
 * `sort` `created` (default) or `updated`, `direction` `asc` or `desc` (read only with a `sort`:
 * ascending without one), `since` (updated at or after); another value is GitHub's `422`.
 * Paged as the other lists (`per_page`, `page`, `Link`).
 *
 * @module
 */

import type { FlowError } from '@mockpoint/core/internal';
import { invalid } from './lists.js';
import type { RepoOperation } from './pushes.js';

const COMMENTS = '/repos/{owner}/{repo}/issues/comments';

function text(value: unknown): string | undefined {
  return value === undefined || value === '' ? undefined : String(value);
}

function time(value: unknown): number {
  return Date.parse(String(value)) || 0;
}

/** GitHub's `422` of the repository's issue comments listed by a `sort`, `direction` or `since` it does not take. */
export function commentsListRefused(
  template: string,
  method: string,
  query: Record<string, unknown>,
): FlowError | undefined {
  if (template !== COMMENTS || method !== 'GET') return undefined;
  const sort = text(query.sort);
  if (sort !== undefined && sort !== 'created' && sort !== 'updated')
    return invalid('IssueComment', 'sort', sort).error;
  const direction = text(query.direction);
  if (direction !== undefined && direction !== 'asc' && direction !== 'desc') {
    return invalid('IssueComment', 'direction', direction).error;
  }
  const since = text(query.since);
  if (since !== undefined && Number.isNaN(Date.parse(since))) return invalid('IssueComment', 'since', since).error;
  return undefined;
}

/** The repository's issue comments; `undefined`: not this list. */
export const githubRepoComments: RepoOperation = async (matched, request, state, place) => {
  if (matched.op.template !== COMMENTS || matched.op.method !== 'GET') return undefined;
  const { query } = request;
  const refused = commentsListRefused(COMMENTS, 'GET', query);
  if (refused !== undefined) return { error: refused };
  const sort = text(query.sort);
  const direction = text(query.direction);
  const since = text(query.since);
  // Each issue's comments are kept under its own scope (`owner/repo/{n}`).
  const prefix = `${place.values.owner}/${place.values.repo}/`;
  let comments: Record<string, unknown>[] = [];
  for (const [scope, list] of await state.objectsByScope(COMMENTS)) {
    if (scope.startsWith(prefix) && !scope.slice(prefix.length).includes('/')) comments.push(...list);
  }
  // A repository the twin never wrote below, with `unseen: "examples"`: the document's example.
  if (comments.length === 0 && state.examples) return undefined;
  if (since !== undefined) comments = comments.filter((one) => time(one.updated_at) >= Date.parse(since));
  const field = sort === 'updated' ? 'updated_at' : 'created_at';
  const sign = sort !== undefined && direction === 'desc' ? -1 : 1;
  // Ids count in the order made: the tie of two made in one millisecond.
  const order = (a: Record<string, unknown>, b: Record<string, unknown>) =>
    sign * (time(a[field]) - time(b[field]) || (Number(a.id) || 0) - (Number(b.id) || 0));
  return { list: comments.sort(order) };
};
