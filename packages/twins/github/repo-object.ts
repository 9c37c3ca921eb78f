/**
 * A GitHub repository as GitHub answers it (`full-repository`): made from the document's example
 * of `GET /repos/{owner}/{repo}` with what was sent, its owner (the authenticated user, or the
 * organization it was made in), its URLs at `owner/name`, its counts at nothing; changed by
 * `PATCH /repos/{owner}/{repo}` (a new `name` moves its URLs); listed as GitHub lists them.
 *
 * @module
 */

import type { FlowState, OwnAnswer } from '@mockpoint/core/internal';
import { accountId, GITHUB_USER } from './issues.js';
import { invalid } from './lists.js';
import { nodeId } from './node-ids.js';

const API = 'https://api.github.com';

/** The fields a create or an update takes as sent, when of the type the repository has. */
const TAKEN = [
  'description',
  'homepage',
  'private',
  'has_issues',
  'has_projects',
  'has_wiki',
  'has_discussions',
  'has_downloads',
  'is_template',
  'allow_squash_merge',
  'allow_merge_commit',
  'allow_rebase_merge',
  'allow_auto_merge',
  'allow_forking',
  'delete_branch_on_merge',
  'archived',
  'default_branch',
  'web_commit_signoff_required',
  'allow_update_branch',
  'use_squash_pr_title_as_default',
  'squash_merge_commit_title',
  'squash_merge_commit_message',
  'merge_commit_title',
  'merge_commit_message',
];

/** The settings of a repository just made, as GitHub answers them (its `language` told by its files: repos.ts). */
const SETTINGS = {
  language: null,
  web_commit_signoff_required: false,
  allow_update_branch: false,
  use_squash_pr_title_as_default: false,
  squash_merge_commit_title: 'COMMIT_OR_PR_TITLE',
  squash_merge_commit_message: 'COMMIT_MESSAGES',
  merge_commit_title: 'MERGE_MESSAGE',
  merge_commit_message: 'PR_TITLE',
};

/** Zero on a new repository. */
const COUNTS = [
  'forks_count',
  'forks',
  'stargazers_count',
  'watchers_count',
  'watchers',
  'size',
  'open_issues_count',
  'open_issues',
  'subscribers_count',
  'network_count',
];

/** A repository's owner: the authenticated user (`octocat`), or another account by its login. */
export function ownerOf(login: string, organization: boolean): Record<string, unknown> {
  if (login.toLowerCase() === GITHUB_USER.login) return { ...GITHUB_USER };
  return {
    ...GITHUB_USER,
    login,
    id: accountId(login),
    node_id: nodeId(organization ? 'O' : 'U', accountId(login)),
    url: `${API}/users/${login}`,
    html_url: `https://github.com/${login}`,
    type: organization ? 'Organization' : 'User',
  };
}

/** Organization `login` as its lists and the payloads show it (`organization-simple` without its `description`). */
export function orgIdentity(login: string): Record<string, unknown> {
  const api = `${API}/orgs/${login}`;
  const { id, node_id, avatar_url } = ownerOf(login, true);
  return {
    login,
    id,
    node_id,
    url: api,
    repos_url: `${api}/repos`,
    events_url: `${api}/events`,
    hooks_url: `${api}/hooks`,
    issues_url: `${api}/issues`,
    members_url: `${api}/members{/member}`,
    public_members_url: `${api}/public_members{/member}`,
    avatar_url,
  };
}

/** The fields sent that the repository takes: each of its type, `visibility` setting `private`. */
function apply(repository: Record<string, unknown>, sent: Record<string, unknown>): void {
  for (const field of TAKEN) {
    const value = sent[field];
    if (value === undefined) continue;
    const had = repository[field];
    if (had === null || had === undefined || typeof had === typeof value || value === null) repository[field] = value;
  }
  const visibility = sent.visibility;
  if (visibility === 'public' || visibility === 'private' || visibility === 'internal') {
    repository.private = visibility !== 'public';
    repository.visibility = visibility;
  } else if (typeof sent.private === 'boolean') {
    repository.visibility = sent.private ? 'private' : 'public';
  }
}

/**
 * `repository` with its own full name `from` replaced by `to` in its `full_name` and its own URLs
 * (the top-level `…url` fields), where the name stands whole in the path: its owner's and
 * organization's URLs (`…/users/octocat/repos` when `from` is `octocat/repos`) and the user's own
 * texts (`description`) stay as they are.
 */
export function renamed<T extends Record<string, unknown>>(repository: T, from: string, to: string): T {
  const out: Record<string, unknown> = { ...repository };
  for (const [key, value] of Object.entries(repository)) {
    if (typeof value !== 'string' || (key !== 'full_name' && !key.endsWith('url'))) continue;
    out[key] = replacedWhole(value, from, to);
  }
  return out as T;
}

/** `text` with each `from` that starts it or follows a `/`, and ends it or comes before `/`, `{`, `.`, `?`, `#`, replaced. */
function replacedWhole(text: string, from: string, to: string): string {
  let result = '';
  let at = 0;
  for (let found = text.indexOf(from); found !== -1; found = text.indexOf(from, found + 1)) {
    if (found < at) continue;
    const before = found === 0 ? '/' : text[found - 1];
    const after = text[found + from.length] ?? '/';
    if (before !== '/' || !'/{.?#'.includes(after)) continue;
    result += text.slice(at, found) + to;
    at = found + from.length;
  }
  return result + text.slice(at);
}

/** A new repository `name` of `owner`, numbered `id`, from what was sent. */
export function newRepository(
  state: FlowState,
  owner: Record<string, unknown>,
  name: string,
  id: number,
  sent: Record<string, unknown>,
): Record<string, unknown> {
  const example = state.example('GET', '/repos/{owner}/{repo}');
  for (const field of ['parent', 'source', 'template_repository', 'organization', 'security_and_analysis']) {
    delete example[field];
  }
  const full = `${String(owner.login)}/${name}`;
  const repository = renamed(example, String(example.full_name ?? 'octocat/Hello-World'), full);
  const now = new Date(state.now()).toISOString();
  Object.assign(repository, {
    ...SETTINGS,
    id,
    node_id: nodeId('R', id),
    name,
    full_name: full,
    owner,
    private: false,
    visibility: 'public',
    html_url: `https://github.com/${full}`,
    url: `${API}/repos/${full}`,
    description: null,
    homepage: null,
    fork: false,
    default_branch: 'main',
    mirror_url: null,
    license: null,
    topics: [],
    archived: false,
    disabled: false,
    created_at: now,
    updated_at: now,
    pushed_at: now,
  });
  for (const field of COUNTS) repository[field] = 0;
  if (owner.type === 'Organization') repository.organization = owner;
  apply(repository, sent);
  return repository;
}

/** `repository` changed by what an update sent, but its `name` (a move, the caller's). */
export function updatedRepository(
  state: FlowState,
  repository: Record<string, unknown>,
  sent: Record<string, unknown>,
): Record<string, unknown> {
  const changed = structuredClone(repository);
  apply(changed, sent);
  changed.updated_at = new Date(state.now()).toISOString();
  return changed;
}

const SORTS = ['created', 'updated', 'pushed', 'full_name'];

/** What a list of repositories keeps by its `type` (`owner`: the authenticated user's). */
function byType(type: string, repository: Record<string, unknown>): boolean {
  const mine = (repository.owner as { login?: unknown } | undefined)?.login === GITHUB_USER.login;
  switch (type) {
    case 'public':
      return repository.private !== true;
    case 'private':
      return repository.private === true;
    case 'owner':
      return mine;
    case 'member':
      return !mine;
    case 'forks':
      return repository.fork === true;
    case 'sources':
      return repository.fork !== true;
    default:
      return true;
  }
}

/**
 * Repositories as GitHub lists them: `type` (`all`, `owner`, `public`, `private`, `member`,
 * `forks`, `sources`) and `visibility`, `sort` (`created`, `updated`, `pushed`, `full_name`; the
 * list's default), `direction` (`asc` for `full_name`, else `desc`, by default).
 */
export function repositoryList(
  repositories: Record<string, unknown>[],
  query: Record<string, unknown>,
  defaults: { sort: string; type: string },
): OwnAnswer {
  const text = (value: unknown, fallback: string) => (value === undefined || value === '' ? fallback : String(value));
  const sort = text(query.sort, defaults.sort);
  if (!SORTS.includes(sort)) return invalid('Repository', 'sort', sort);
  const direction = text(query.direction, sort === 'full_name' ? 'asc' : 'desc');
  if (direction !== 'asc' && direction !== 'desc') return invalid('Repository', 'direction', direction);
  const type = text(query.type, defaults.type);
  const visibility = text(query.visibility, 'all');
  const kept = repositories.filter(
    (repository) => byType(type, repository) && (visibility === 'all' || byType(visibility, repository)),
  );
  const key = (repository: Record<string, unknown>) =>
    sort === 'full_name' ? String(repository.full_name).toLowerCase() : String(repository[`${sort}_at`]);
  const sign = direction === 'asc' ? 1 : -1;
  // Ties (two made in one millisecond) keep the order they were made in, either way.
  const order = (a: Record<string, unknown>, b: Record<string, unknown>) =>
    sign * (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : Number(a.id) - Number(b.id));
  return { list: kept.sort(order) };
}
