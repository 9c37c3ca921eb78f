/**
 * The authenticated user's issues across repositories, as GitHub's REST reference describes them
 * (issue #73): `GET /issues` ("List issues assigned to the authenticated user"), `GET
 * /user/issues` and `GET /orgs/{org}/issues` list the issues and pull requests (these as issues,
 * their `pull_request` key) of the repositories the twin keeps (every one the user, every token's
 * `octocat`, writes to; an organization's alone for `/orgs/{org}/issues`, GitHub's 404 for a login
 * the twin holds no organization of), each with its `repository`, by GitHub's parameters:
 *
 * - `filter`: `assigned` (default) those assigned to the user, `created` those it made (every one
 *   the twin holds: each token is its user), `mentioned` those mentioning it (the twin reads no
 *   mentions: none), `subscribed` those it made or is assigned, `repos` and `all` every one;
 * - `state`, `labels`, `sort`, `direction`, `since` as a repository's issues (lists.ts), newest made
 *   first by default; `/orgs/{org}/issues`' `type` (an issue type: the twin keeps none, so `none`
 *   lists every one and another type none);
 * - paged by the engine (`per_page`, `page`, a `Link` keeping every parameter).
 *
 * With `unseen: "examples"` and no repository kept, the document's example, as before.
 *
 * @module
 */

import type { OwnOperation } from '@mockpoint/core/internal';
import { GITHUB_USER, member } from './issues.js';
import { githubList, invalid } from './lists.js';
import { organizations } from './orgs.js';
import { live, loginOf, records } from './repo-kept.js';

const ISSUES = '/repos/{owner}/{repo}/issues';
const PULLS = '/repos/{owner}/{repo}/pulls';
const TEMPLATES = new Set(['/issues', '/user/issues', '/orgs/{org}/issues']);
const FILTERS = ['assigned', 'created', 'mentioned', 'subscribed', 'repos', 'all'];

function loginIs(user: unknown, login: string): boolean {
  return String((user as { login?: unknown } | null)?.login ?? '').toLowerCase() === login;
}

/** Whether the issue meets `filter`, for the user of `login` (lower case). */
function meets(filter: string, issue: Record<string, unknown>, login: string): boolean {
  const assigned = Array.isArray(issue.assignees) && issue.assignees.some((user) => loginIs(user, login));
  const created = loginIs(issue.user, login);
  switch (filter) {
    case 'assigned':
      return assigned;
    case 'created':
      return created;
    case 'subscribed':
      return created || assigned;
    case 'mentioned':
      return false;
    default:
      return true;
  }
}

/** `GET /issues`, `/user/issues` and `/orgs/{org}/issues` of what the twin holds; `undefined`: another operation. */
export const githubUserIssues: OwnOperation = async (matched, sent, state) => {
  const { method, template } = matched.op;
  if (method !== 'GET' || !TEMPLATES.has(template)) return undefined;
  const all = await records(state);
  if (state.examples && live(all).length === 0) return undefined;
  const org = matched.values.org?.toLowerCase();
  if (org !== undefined && !(await organizations(state)).has(org)) {
    return { error: { status: 404, type: 'invalid_request_error', message: 'Not Found' } };
  }
  const { query } = sent;
  const filter = query.filter === undefined || query.filter === '' ? 'assigned' : String(query.filter);
  if (!FILTERS.includes(filter)) return invalid('Issue', 'filter', filter);
  const type = query.type === undefined || query.type === '' ? undefined : String(query.type).toLowerCase();
  const issuesBy = await state.objectsByScope(ISSUES);
  const pullsBy = await state.objectsByScope(PULLS);
  const login = GITHUB_USER.login.toLowerCase();
  const items: Record<string, unknown>[] = [];
  for (const record of live(all)) {
    if (record.scope === undefined || (org !== undefined && loginOf(record) !== org)) continue;
    const repository = record.repository;
    const issues = issuesBy.get(record.scope) ?? [];
    const pulls = (pullsBy.get(record.scope) ?? []).map((pull) => member(PULLS, pull));
    // In the order made: a repository's issues and pull requests share one sequence.
    const made = [...issues, ...pulls].sort((a, b) => (Number(a.number) || 0) - (Number(b.number) || 0));
    for (const issue of made) if (meets(filter, issue, login)) items.push({ ...issue, repository });
  }
  // Issue types: the twin keeps none, so each issue is of none.
  const typed = template === '/orgs/{org}/issues' && type !== undefined && type !== 'none' ? [] : items;
  // Across repositories, oldest made first (the list orders them as asked).
  const byMade = (item: Record<string, unknown>) => Date.parse(String(item.created_at)) || 0;
  const oldest = typed.map((item, at) => ({ item, at })).sort((a, b) => byMade(a.item) - byMade(b.item) || a.at - b.at);
  const listed = githubList(
    ISSUES,
    oldest.map((one) => one.item),
    query,
    true,
  );
  if (listed === undefined) return undefined;
  return 'error' in listed ? listed : { list: listed.items };
};
