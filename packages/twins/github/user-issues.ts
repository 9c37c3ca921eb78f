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

import type { FlowError, FlowState, OwnOperation } from '@mockpoint/core/internal';
import { GITHUB_USER, member } from './issues.js';
import { githubList, invalid } from './lists.js';
import { NOT_FOUND } from './not-found.js';
import { organizations } from './orgs.js';
import { live, loginOf, records } from './repo-kept.js';

const ISSUES = '/repos/{owner}/{repo}/issues';
const PULLS = '/repos/{owner}/{repo}/pulls';
const TEMPLATES = new Set(['/issues', '/user/issues', '/orgs/{org}/issues']);
const FILTERS = ['assigned', 'created', 'mentioned', 'subscribed', 'repos', 'all'];

function loginIs(user: unknown, login: string): boolean {
  return String((user as { login?: unknown } | null)?.login ?? '').toLowerCase() === login;
}

/** One issue or pull request of the index a list across repositories reads. */
interface Listed {
  /** The issue as answered: with its `repository`. */
  item: Record<string, unknown>;
  /** Its owner's login, lower case (`/orgs/{org}/issues`). */
  owner: string;
  assigned: boolean;
  created: boolean;
  state: unknown;
  labels: string[];
  /** Its `created_at`, `updated_at` and `comments`, as numbers (what it sorts by). */
  made: number;
  updated: number;
  comments: number;
}

/**
 * Every issue and pull request of the live repositories, oldest made first (ties in the order
 * made), with what a list filters and sorts them by read once: built once while the twin's state
 * stays as it is ({@link FlowState.derived}), so that a request costs its filter, not a read of
 * every collection (#86 H2: 8,100 issues, health stalled 5.8-7.2 s under 20 clients).
 */
async function indexOf(state: FlowState): Promise<Index> {
  return state.derived('user-issues', async () => {
    const issuesBy = await state.objectsByScope(ISSUES);
    const pullsBy = await state.objectsByScope(PULLS);
    const login = GITHUB_USER.login.toLowerCase();
    const listed: Listed[] = [];
    for (const record of live(await records(state))) {
      if (record.scope === undefined) continue;
      const repository = record.repository;
      const owner = loginOf(record);
      const issues = issuesBy.get(record.scope) ?? [];
      const pulls = (pullsBy.get(record.scope) ?? []).map((pull) => member(PULLS, pull));
      // In the order made: a repository's issues and pull requests share one sequence.
      const made = [...issues, ...pulls].sort((a, b) => (Number(a.number) || 0) - (Number(b.number) || 0));
      for (const issue of made) {
        const assigned = Array.isArray(issue.assignees) && issue.assignees.some((user) => loginIs(user, login));
        listed.push({
          item: { ...issue, repository },
          owner,
          assigned,
          created: loginIs(issue.user, login),
          state: issue.state,
          labels: labelNames(issue),
          made: Date.parse(String(issue.created_at)) || 0,
          updated: Date.parse(String(issue.updated_at)) || 0,
          comments: Number(issue.comments) || 0,
        });
      }
    }
    // Across repositories, oldest made first (a stable sort: ties keep the order made).
    return { listed: listed.sort((a, b) => a.made - b.made), lists: new Map() };
  });
}

/** The index, and the lists asked of it lately (by their parameters), which go with it. */
interface Index {
  listed: Listed[];
  lists: Map<string, Record<string, unknown>[]>;
}

/** Lists kept with an index: a client paging through one list reads it once. */
const MAX_LISTS = 8;

/** The list `query` asks of the index, made once while the index stands. */
function listOf(index: Index, query: Record<string, unknown>, filter: string, org: string | undefined) {
  const asked = JSON.stringify([filter, org, query.state, query.labels, query.since, query.sort, query.direction]);
  let list = index.lists.get(asked);
  if (list === undefined) {
    list = listedAs(index.listed, query, filter, org);
    if (index.lists.size >= MAX_LISTS) index.lists.delete(index.lists.keys().next().value as string);
    index.lists.set(asked, list);
  }
  return list;
}

/** The label names of an issue, as lists.ts reads them. */
function labelNames(item: Record<string, unknown>): string[] {
  const labels = Array.isArray(item.labels) ? item.labels : [];
  return labels.map((label) => (typeof label === 'string' ? label : String((label as { name?: unknown })?.name)));
}

/** Whether an issue of the index meets `filter` (`meets`, on what the index read). */
function kept(filter: string, one: Listed): boolean {
  switch (filter) {
    case 'assigned':
      return one.assigned;
    case 'created':
      return one.created;
    case 'subscribed':
      return one.created || one.assigned;
    case 'mentioned':
      return false;
    default:
      return true;
  }
}

/**
 * The index's issues as `query` lists them: `filter`, `state`, `labels`, `since`, then `sort` and
 * `direction` (as githubList orders them across repositories: by the key, then by when made, then
 * in the order made), by the numbers the index read.
 */
function listedAs(index: Listed[], query: Record<string, unknown>, filter: string, org: string | undefined) {
  const state = query.state === undefined || query.state === '' ? 'open' : String(query.state);
  const sort = query.sort === undefined || query.sort === '' ? 'created' : String(query.sort);
  const direction = query.direction === undefined || query.direction === '' ? 'desc' : String(query.direction);
  const wanted = String(query.labels ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const since = query.since === undefined || query.since === '' ? undefined : Date.parse(String(query.since));
  const picked = index.filter(
    (one) =>
      (org === undefined || one.owner === org) &&
      kept(filter, one) &&
      (state === 'all' || one.state === state) &&
      wanted.every((name) => one.labels.includes(name)) &&
      (since === undefined || one.updated >= since),
  );
  const key = (one: Listed) => (sort === 'updated' ? one.updated : sort === 'comments' ? one.comments : one.made);
  // The index is in the order made: a stable sort by the key, then by when made, keeps it for ties.
  if (sort !== 'created') picked.sort((a, b) => key(a) - key(b) || a.made - b.made);
  if (direction === 'desc') picked.reverse();
  return picked.map((one) => one.item);
}

/**
 * GitHub's refusal of the list parameters of `GET /issues` (and the user's and an org's): a
 * `filter`, `state`, `sort`, `direction` or `since` it does not take (`422`).
 */
export function userIssuesRefused(query: Record<string, unknown>): FlowError | undefined {
  const filter = query.filter === undefined || query.filter === '' ? 'assigned' : String(query.filter);
  if (!FILTERS.includes(filter)) return invalid('Issue', 'filter', filter).error;
  // The list's parameters checked as a repository's are (GitHub's 422 for a value it does not take).
  const checked = githubList(ISSUES, [], query, true);
  return checked !== undefined && 'error' in checked ? checked.error : undefined;
}

/** Whether `template` is one of the user's issue lists (`GET /issues`, `/user/issues`, `/orgs/{org}/issues`). */
export function isUserIssues(template: string): boolean {
  return TEMPLATES.has(template);
}

/** `GET /issues`, `/user/issues` and `/orgs/{org}/issues` of what the twin holds; `undefined`: another operation. */
export const githubUserIssues: OwnOperation = async (matched, sent, state) => {
  const { method, template } = matched.op;
  if (method !== 'GET' || !TEMPLATES.has(template)) return undefined;
  const all = await records(state);
  if (state.examples && live(all).length === 0) return undefined;
  const org = matched.values.org?.toLowerCase();
  if (org !== undefined && !(await organizations(state)).has(org)) {
    return { error: NOT_FOUND };
  }
  const { query } = sent;
  const refused = userIssuesRefused(query);
  if (refused !== undefined) return { error: refused };
  const filter = query.filter === undefined || query.filter === '' ? 'assigned' : String(query.filter);
  const type = query.type === undefined || query.type === '' ? undefined : String(query.type).toLowerCase();
  // Issue types: the twin keeps none, so each issue is of none.
  if (template === '/orgs/{org}/issues' && type !== undefined && type !== 'none') return { list: [] };
  return { list: listOf(await indexOf(state), query, filter, org) };
};
