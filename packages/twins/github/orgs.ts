/**
 * GitHub's organizations (issue #73), as far as the twin knows them: an organization is made on
 * github.com, through no API, so the twin holds one from the first repository made in it through
 * `POST /orgs/{org}/repos` (a create refused makes none; a login no account can have is GitHub's
 * `404`), and keeps it when its repositories are deleted; the twin's user (`octocat`, every
 * token's) is its only member and owner. `GET /orgs/{org}` reads it (GitHub's `404` for a login
 * that is none), its counts (`public_repos`, `total_private_repos`, `owned_private_repos`) from the
 * repositories kept and its settings those of a new organization on the free plan; `PATCH
 * /orgs/{org}` changes the fields GitHub's reference names (each of its type, else `422 Validation
 * Failed`); `GET /user/orgs` lists them (the user's memberships) and `GET /organizations` all of
 * them by `id` after `since`, its `Link` naming the next `since`, as `organization-simple` items.
 * (`GET /users/{username}/orgs` lists public memberships, and a membership is private until made
 * public, so it lists none.) With `unseen: "examples"` and no organization kept, each answers the
 * document's example, as before. Below an organization the twin does not hold (`/orgs/{org}/…`:
 * its teams, hooks, secrets, members …) every request is GitHub's `404` and nothing is kept, but the
 * repository create that makes it.
 *
 * @module
 */
import type { FlowError, FlowState, OwnAnswer, OwnOperation, OwnRequest } from '@mockpoint/core/internal';
import { invalidField } from './events.js';
import { LOGIN } from './logins.js';
import { NOT_FOUND } from './not-found.js';
import { live, loginOf, type RepoRecord, records } from './repo-kept.js';
import { orgIdentity } from './repo-object.js';
import { deleteRepository, githubRepos } from './repos.js';

const ORG = '/orgs/{org}';
/** What `PATCH /orgs/{org}` changed, by login in lower case. */
const KIND = 'orgs';

/** The fields `PATCH /orgs/{org}` takes that are text (or `null`), at most 1,024 characters each. */
const TEXT = [
  'billing_email',
  'company',
  'email',
  'twitter_username',
  'location',
  'name',
  'description',
  'blog',
  'secret_scanning_push_protection_custom_link',
];
/** The fields it takes that are `true` or `false`. */
const FLAGS = [
  'has_organization_projects',
  'has_repository_projects',
  'members_can_create_repositories',
  'members_can_create_internal_repositories',
  'members_can_create_private_repositories',
  'members_can_create_public_repositories',
  'members_can_create_pages',
  'members_can_create_public_pages',
  'members_can_create_private_pages',
  'members_can_fork_private_repositories',
  'web_commit_signoff_required',
  'advanced_security_enabled_for_new_repositories',
  'dependabot_alerts_enabled_for_new_repositories',
  'dependabot_security_updates_enabled_for_new_repositories',
  'dependency_graph_enabled_for_new_repositories',
  'secret_scanning_enabled_for_new_repositories',
  'secret_scanning_push_protection_enabled_for_new_repositories',
  'secret_scanning_push_protection_custom_link_enabled',
  'deploy_keys_enabled_for_repositories',
];
/** The fields it takes from a list of words. */
const CHOICES: Record<string, readonly string[]> = {
  default_repository_permission: ['read', 'write', 'admin', 'none'],
  members_allowed_repository_creation_type: ['all', 'private', 'none'],
};
const MAX_TEXT = 1024;

/** A new organization's settings on the free plan, over the document's example of it. */
const NEW_ORG: Record<string, unknown> = {
  description: null,
  name: null,
  company: null,
  blog: null,
  location: null,
  email: null,
  twitter_username: null,
  is_verified: false,
  has_organization_projects: true,
  has_repository_projects: true,
  public_gists: 0,
  followers: 0,
  following: 0,
  private_gists: 0,
  disk_usage: 0,
  collaborators: 0,
  billing_email: null,
  plan: { name: 'free', space: 976562499, private_repos: 10000, filled_seats: 1, seats: 1 },
  default_repository_permission: 'read',
  default_repository_branch: 'main',
  members_can_create_repositories: true,
  two_factor_requirement_enabled: false,
  members_allowed_repository_creation_type: 'all',
  members_can_create_public_repositories: true,
  members_can_create_private_repositories: true,
  members_can_create_internal_repositories: false,
  members_can_create_pages: true,
  members_can_create_public_pages: true,
  members_can_create_private_pages: true,
  members_can_delete_repositories: true,
  members_can_change_repo_visibility: true,
  members_can_invite_outside_collaborators: true,
  members_can_delete_issues: false,
  display_commenter_full_name_setting_enabled: false,
  readers_can_create_discussions: true,
  members_can_create_teams: true,
  members_can_view_dependency_insights: true,
  members_can_fork_private_repositories: false,
  web_commit_signoff_required: false,
  deploy_keys_enabled_for_repositories: false,
  dependency_graph_enabled_for_new_repositories: false,
  dependabot_alerts_enabled_for_new_repositories: false,
  dependabot_security_updates_enabled_for_new_repositories: false,
  advanced_security_enabled_for_new_repositories: false,
  secret_scanning_enabled_for_new_repositories: false,
  secret_scanning_push_protection_enabled_for_new_repositories: false,
  secret_scanning_push_protection_custom_link: null,
  secret_scanning_push_protection_custom_link_enabled: false,
  archived_at: null,
};

/** An organization kept: its login as first written, when the twin first saw it, and what was changed of it. */
interface OrgRecord {
  login: string;
  created_at: string;
  changed?: Record<string, unknown>;
}

/**
 * The organizations the twin holds, by login in lower case: each kept (from its first
 * `POST /orgs/{org}/repos`), and each owning a live repository (one kept before organizations were).
 */
export async function organizations(
  state: FlowState,
  repositories?: readonly RepoRecord[],
): Promise<Map<string, OrgRecord>> {
  const held = new Map(await state.read<OrgRecord>(KIND));
  for (const record of repositories ?? live(await records(state))) {
    const repository = record.repository as Record<string, unknown>;
    const owner = repository.owner as { login?: unknown; type?: unknown } | undefined;
    if (owner?.type !== 'Organization' || typeof owner.login !== 'string') continue;
    const key = owner.login.toLowerCase();
    if (!held.has(key)) held.set(key, { login: owner.login, created_at: String(repository.created_at) });
  }
  return held;
}

/** The organization `org` as `GET /orgs/{org}` answers it, its counts from the live `repositories` it owns. */
function organization(state: FlowState, org: OrgRecord, repositories: readonly RepoRecord[]): Record<string, unknown> {
  const { login } = org;
  const owned = repositories.filter((record) => loginOf(record) === login.toLowerCase());
  const hidden = owned.filter((record) => record.repository?.private === true).length;
  return {
    ...state.example('GET', ORG),
    ...NEW_ORG,
    ...orgIdentity(login),
    html_url: `https://github.com/${login}`,
    type: 'Organization',
    public_repos: owned.length - hidden,
    total_private_repos: hidden,
    owned_private_repos: hidden,
    created_at: org.created_at,
    updated_at: org.created_at,
    ...org.changed,
  };
}

/** Organization `org` as a list shows it (`organization-simple`). */
function simple(org: OrgRecord): Record<string, unknown> {
  return { ...orgIdentity(org.login), description: org.changed?.description ?? null };
}

/** What `sent` changes of an organization, or GitHub's `422` naming the first field it cannot take. */
function changes(sent: Record<string, unknown>): { changed: Record<string, unknown> } | { error: FlowError } {
  const changed: Record<string, unknown> = {};
  const refused = (field: string) => ({
    error: invalidField('Organization', field.slice(0, 200)),
  });
  for (const [field, value] of Object.entries(sent)) {
    if (TEXT.includes(field)) {
      if (value !== null && (typeof value !== 'string' || value.length > MAX_TEXT)) return refused(field);
    } else if (FLAGS.includes(field)) {
      if (typeof value !== 'boolean') return refused(field);
    } else if (field in CHOICES) {
      if (!CHOICES[field]?.includes(value as string)) return refused(field);
    } else continue;
    changed[field] = value;
  }
  return { changed };
}

/** GitHub's `422` of an organization's change naming the first field it cannot take, if any. */
export function orgChangeRefused(sent: Record<string, unknown>): FlowError | undefined {
  const changed = changes(sent);
  return 'error' in changed ? changed.error : undefined;
}

/** The most organizations a page of `GET /organizations` holds, and how many without `per_page`. */
const MAX_PAGE = 100;
const DEFAULT_PAGE = 30;

/**
 * `GET /organizations`: those of an `id` after `since`, by `id`, `per_page` at a time, its `Link`
 * naming the next page by `since` (GitHub pages this list by id, not by page number).
 */
function byId(held: Map<string, OrgRecord>, sent: OwnRequest): OwnAnswer {
  const since = Number(sent.query.since);
  const asked = Math.trunc(Number(sent.query.per_page));
  const size = Number.isFinite(asked) && asked >= 1 ? Math.min(asked, MAX_PAGE) : DEFAULT_PAGE;
  const after = [...held.values()]
    .map(simple)
    .filter((org) => !Number.isFinite(since) || Number(org.id) > since)
    .sort((a, b) => Number(a.id) - Number(b.id));
  const page = after.slice(0, size);
  if (after.length <= size) return { status: 200, body: page };
  const next = `${sent.root ?? ''}/organizations?per_page=${size}&since=${String(page.at(-1)?.id)}`;
  return { status: 200, body: page, headers: { link: `<${next}>; rel="next"` } };
}

/**
 * `DELETE /orgs/{org}`: GitHub's `202 Accepted` (`{}`), the organization and its repositories
 * gone (each with its `repository.deleted`); GitHub's 404 for one the twin does not hold.
 */
async function deleted(state: FlowState, key: string): Promise<OwnAnswer | undefined> {
  const all = await records(state);
  const held = await organizations(state, live(all));
  if (!held.has(key)) return state.examples ? undefined : { error: NOT_FOUND };
  for (const [repoKey, record] of all)
    if (record.repository !== undefined && loginOf(record) === key) await deleteRepository(state, repoKey, record);
  await state.keep(KIND, key, undefined);
  return { status: 202, body: {} };
}

/** GitHub's organizations, as {@link TwinFlows.own} answers them. */
export const githubOrgs: OwnOperation = async (matched, sent, state) => {
  const { method, template } = matched.op;
  const key = String(matched.values.org ?? '').toLowerCase();
  if (template === '/orgs/{org}/repos' && method === 'POST') {
    // GitHub's 404 for a login no account can have.
    if (!LOGIN.test(String(matched.values.org))) return { error: NOT_FOUND };
    // A repository made in it: the organization is the twin's from now on (a refused create makes none).
    const answered = await githubRepos(matched, sent, state);
    const kept = await state.read<OrgRecord>(KIND);
    if (answered !== undefined && 'status' in answered && answered.status === 201 && !kept.has(key)) {
      await state.keep(KIND, key, { login: matched.values.org, created_at: new Date(state.now()).toISOString() });
    }
    return answered;
  }
  // Below an organization the twin does not hold: GitHub's 404, nothing read or kept (with
  // `unseen: "examples"`, the document's example as before).
  if (template.startsWith(`${ORG}/`)) {
    if (state.examples || (await organizations(state)).has(key)) return undefined;
    return { error: NOT_FOUND };
  }
  const lists = template === '/user/orgs' || template === '/organizations';
  if (template !== ORG && !lists) return undefined;
  if (method === 'DELETE' && template === ORG) return deleted(state, key);
  if (method !== 'GET' && method !== 'PATCH') return undefined;
  // The repositories read once: the organizations they own, and their counts.
  const repositories = live(await records(state));
  const held = await organizations(state, repositories);
  // None held, with `unseen: "examples"`: the document's example, as before.
  if (state.examples && held.size === 0) return undefined;
  if (lists) {
    if (method !== 'GET') return undefined;
    return template === '/organizations' ? byId(held, sent) : { list: [...held.values()].map(simple) };
  }
  const org = held.get(key);
  if (org === undefined) return { error: NOT_FOUND };
  if (method === 'GET') return { status: 200, body: organization(state, org, repositories) };
  const asked = changes(sent.body);
  if ('error' in asked) return asked;
  const now: OrgRecord = {
    ...org,
    changed: { ...org.changed, ...asked.changed, updated_at: new Date(state.now()).toISOString() },
  };
  await state.keep(KIND, key, now);
  return { status: 200, body: organization(state, now, repositories) };
};
