/**
 * GitHub's repositories by name (issue #73), kept by the twin's GitHub flows (twin-own.ts):
 * made by `POST /user/repos` (the authenticated user's) and `POST /orgs/{org}/repos` (a second
 * of one full name `422 Repository creation failed.`), read, listed, updated, renamed (the old
 * name answering GitHub's redirect to the new one) and deleted, and the operations below a
 * repository (`/repos/{owner}/{repo}/…`) answered only where it exists: below one never made (or
 * deleted) every request is GitHub's `404 Not Found` and nothing is kept (issue #84), unless the
 * twin's `unseen` is `"examples"`.
 *
 * @module
 */

import type {
  FlowError,
  FlowState,
  MatchedOperation,
  OwnAnswer,
  OwnOperation,
  OwnRequest,
} from '@mockpoint/core/internal';
import { githubArchives } from './archives.js';
import { githubAssets } from './assets.js';
import { githubAssignees } from './assignees.js';
import { githubBodyChecks } from './body-checks.js';
import { githubBranches } from './branches.js';
import { githubChecks } from './checks.js';
import { githubCollaborators } from './collaborators.js';
import { githubRepoComments } from './comments.js';
import { githubCommitReferences } from './commit-references.js';
import { githubCommits } from './commits.js';
import { githubContents, initialCommit } from './contents.js';
import { githubEnvironments } from './environments.js';
import { invalidField, validationFailed } from './events.js';
import { githubGitDatabase } from './git-database.js';
import { githubPullUpdateBody } from './issue-labels.js';
import { GITHUB_USER } from './issues.js';
import { githubLabelRenames } from './label-renames.js';
import { githubMerges } from './merges.js';
import { githubMilestoneIssues } from './milestone-issues.js';
import { NOT_FOUND } from './not-found.js';
import { githubRepoNotifications } from './notifications.js';
import type { RepoOperation, RepoPlace } from './pushes.js';
import { githubRefs } from './refs.js';
import { githubReleases } from './releases.js';
import {
  keyOf,
  live,
  loginOf,
  REPOS,
  type RepoRecord,
  records,
  tellEdits,
  tellRepository,
  valuesOf,
} from './repo-kept.js';
import { newRepository, ownerOf, renamed, repositoryList, updatedRepository } from './repo-object.js';
import { githubReviewComments } from './review-comments.js';
import { githubSecrets } from './secrets.js';
import { githubSingulars, repositoryLanguage, repositoryLicense } from './singulars.js';
import { githubStatuses } from './statuses.js';
import { urlPart } from './url-part.js';
import { githubWorkflows } from './workflows.js';

const REPO = '/repos/{owner}/{repo}';

/** What a repository's own state answers, asked in turn: the first that takes the operation answers it. */
const REPO_OPERATIONS: readonly RepoOperation[] = [
  githubBodyChecks,
  githubCommitReferences,
  githubReviewComments,
  githubRefs,
  githubGitDatabase,
  githubCommits,
  githubMerges,
  githubAssignees,
  githubRepoComments,
  githubLabelRenames,
  githubMilestoneIssues,
  githubContents,
  githubStatuses,
  githubChecks,
  githubCollaborators,
  githubBranches,
  githubReleases,
  githubAssets,
  githubWorkflows,
  githubEnvironments,
  githubSecrets,
  githubSingulars,
  githubArchives,
  githubRepoNotifications,
  githubPullUpdateBody,
];

/** A new repository of `login` (an organization's with `organization`), kept; or GitHub's refusal. */
async function create(
  state: FlowState,
  login: string,
  organization: boolean,
  sent: Record<string, unknown>,
): Promise<OwnAnswer> {
  const planned = await plan(state, login, organization, sent);
  if ('error' in planned) return planned;
  await state.keep(REPOS, planned.key, planned.record);
  const scope = planned.record.scope ?? planned.key;
  tellRepository(state, scope, planned.record.repository ?? {}, 'created');
  if (sent.auto_init === true) {
    const repository = planned.record.repository;
    await initialCommit(state, { scope: scope.toLowerCase(), values: valuesOf(scope), repository });
  }
  return { status: 201, body: planned.record.repository };
}

/** A repository as {@link create} would keep it, not kept yet. */
async function plan(
  state: FlowState,
  login: string,
  organization: boolean,
  sent: Record<string, unknown>,
): Promise<{ key: string; record: RepoRecord } | { error: FlowError }> {
  const name = nameOf(sent.name);
  if (name === '') {
    return { error: creationFailed({ resource: 'Repository', code: 'missing_field', field: 'name' }) };
  }
  if (name === '.' || name === '..') return { error: creationFailed(dotName()) };
  const all = await records(state);
  const key = keyOf(login, name);
  if (all.get(key)?.repository !== undefined) {
    const message = 'name already exists on this account';
    return { error: creationFailed({ resource: 'Repository', code: 'custom', field: 'name', message }) };
  }
  // GitHub never gives a deleted repository's id again.
  const ids = [...all.values()].map((record) => Number(record.repository?.id ?? record.deleted) || 0);
  const id = Math.max(0, ...ids) + 1;
  const repository = newRepository(state, ownerOf(login, organization), name, id, sent);
  // A repository renamed from this name keeps its issues, refs and files under the name it had:
  // a new one of that name gets its own.
  const taken = [...all.values()].some((one) => one.scope?.toLowerCase() === key);
  const scope = taken ? `${login}/${name}#${id}` : `${login}/${name}`;
  return { key, record: { repository, scope } };
}

/**
 * The name GitHub makes of a `name` sent: trimmed, each character but letters, digits, `.`, `-`
 * and `_` a `-`, at most 100 (`''`: none sent).
 */
function nameOf(sent: unknown): string {
  return typeof sent === 'string'
    ? sent
        .trim()
        .replace(/[^A-Za-z0-9._-]/g, '-')
        .slice(0, 100)
    : '';
}

/** GitHub's refusal of the names `.` and `..`, which no URL can name (a client resolves them away). */
function dotName(): Record<string, unknown> {
  return { resource: 'Repository', code: 'custom', field: 'name', message: 'name cannot be "." or ".."' };
}

function creationFailed(error: Record<string, unknown>): FlowError {
  return { ...validationFailed('custom', [error]), message: 'Repository creation failed.' };
}

/** `GET /user/repos`, `/orgs/{org}/repos`, `/users/{username}/repos`: the repositories of each. */
async function list(matched: MatchedOperation, sent: OwnRequest, state: FlowState): Promise<OwnAnswer | undefined> {
  const all = await records(state);
  // A list the twin never wrote, with `unseen: "examples"`: the document's example.
  if (state.examples && all.size === 0) return undefined;
  const repositories = live(all).map((record) => ({
    record,
    repository: record.repository as Record<string, unknown>,
  }));
  const { template } = matched.op;
  if (template === '/user/repos') {
    // The user's own, and those it made in organizations.
    return repositoryList(
      repositories.map((one) => one.repository),
      sent.query,
      { sort: 'full_name', type: 'all' },
    );
  }
  const login = (matched.values.org ?? matched.values.username ?? '').toLowerCase();
  const owned = repositories.filter(({ record }) => loginOf(record) === login).map((one) => one.repository);
  const defaults =
    template === '/orgs/{org}/repos' ? { sort: 'created', type: 'all' } : { sort: 'full_name', type: 'owner' };
  return repositoryList(owned, sent.query, { ...defaults, type: login === GITHUB_USER.login ? defaults.type : 'all' });
}

/** The path below the repository of the request (`/issues/1`), its values as sent. */
function pathBelow(matched: MatchedOperation): string {
  return matched.op.template
    .slice(REPO.length)
    .replace(/\{([^}]+)\}/g, (_, param: string) => urlPart(matched.values[param] ?? ''));
}

/**
 * GitHub's answer at a renamed repository's old name: `301` for a read, `307` for a write, its
 * `Location` the request's path and query at the new name, relative (so under any root).
 */
function redirect(matched: MatchedOperation, to: string, raw: string): OwnAnswer {
  const below = pathBelow(matched);
  const depth = below.split('/').length - 1;
  const name = urlPart(to.split('/')[1] ?? '');
  const location = `${'../'.repeat(depth)}${name}${below}${raw === '' ? '' : `?${raw}`}`;
  const get = matched.op.method === 'GET';
  return {
    status: get ? 301 : 307,
    headers: { location },
    body: {
      message: get ? 'Moved Permanently' : 'Temporary Redirect',
      url: `https://api.github.com/repos/${to}${below}`,
      documentation_url: 'https://docs.github.com/rest/guides/best-practices-for-using-the-rest-api#follow-redirects',
    },
  };
}

/** Deletes the live repository kept under `key` (`owner/name` in lower case), with its `repository.deleted` event. */
export async function deleteRepository(state: FlowState, key: string, record: RepoRecord): Promise<void> {
  const repository = record.repository as Record<string, unknown>;
  const scope = record.scope ?? key;
  await state.keep(REPOS, key, undefined);
  // Its issues, hooks, refs and files stay under its scope, which no later repository of the
  // name takes (GitHub's new one starts empty), and its id is not given again: one record per
  // name keeps both (the name's first scope once used, which later ones never take, else this).
  const gone = `${key}#deleted`;
  const was = (await records(state)).get(gone);
  const first = was?.scope !== undefined && !was.scope.includes('#') ? was.scope : scope;
  const deleted = Math.max(Number(was?.deleted) || 0, Number(repository.id) || 0);
  await state.keep(REPOS, gone, { scope: first, deleted } satisfies RepoRecord);
  tellRepository(state, scope, repository, 'deleted');
}

/** `GET`, `PATCH` (a new `name` moves it) and `DELETE /repos/{owner}/{repo}` of a repository kept. */
async function own(
  matched: MatchedOperation,
  sent: OwnRequest,
  state: FlowState,
  key: string,
  record: RepoRecord,
): Promise<OwnAnswer | undefined> {
  const repository = record.repository as Record<string, unknown>;
  if (matched.op.method === 'GET') return { status: 200, body: repository };
  const scope = record.scope ?? key;
  if (matched.op.method === 'DELETE') {
    await deleteRepository(state, key, record);
    return { status: 204 };
  }
  if (matched.op.method !== 'PATCH') return undefined;
  let changed = updatedRepository(state, repository, sent.body);
  const name = nameOf(sent.body.name);
  if (name === '.' || name === '..') return { error: validationFailed('custom', [dotName()]) };
  const login = String((repository.owner as { login?: unknown }).login);
  if (name === '' || name === repository.name) {
    await state.keep(REPOS, key, { ...record, repository: changed });
    tellEdits(state, scope, repository, changed);
    return { status: 200, body: changed };
  }
  const to = keyOf(login, name);
  if (to !== key && (await records(state)).get(to)?.repository !== undefined) {
    const message = 'name already exists on this account';
    return { error: validationFailed('custom', [{ resource: 'Repository', code: 'custom', field: 'name', message }]) };
  }
  changed = renamed(changed, String(repository.full_name), `${login}/${name}`);
  changed.name = name;
  await state.keep(REPOS, to, { ...record, repository: changed });
  if (to !== key) await state.keep(REPOS, key, { moved: `${login}/${name}` } satisfies RepoRecord);
  tellRepository(state, scope, changed, 'renamed', { repository: { name: { from: repository.name } } });
  tellEdits(state, scope, repository, changed);
  return { status: 200, body: changed };
}

/** A topic GitHub takes: lower-case letters, digits and hyphens (upper case none: GitHub's note), not leading with a hyphen, at most 50. */
const TOPIC = /^[a-z0-9][a-z0-9-]{0,49}$/;

/**
 * `PUT /repos/{owner}/{repo}/topics` (`repos.replaceAllTopics`): the repository's `topics` are the
 * `names` sent (a name sent twice kept once), at most 20, each one GitHub takes; else `422`.
 */
async function replaceTopics(
  body: Record<string, unknown>,
  state: FlowState,
  key: string,
  record: RepoRecord,
): Promise<OwnAnswer> {
  const { names } = body;
  if (!Array.isArray(names)) {
    return {
      error: validationFailed('missing_field', [{ resource: 'Repository', code: 'missing_field', field: 'names' }]),
    };
  }
  const topics = [...new Set(names.map((name) => (typeof name === 'string' ? name : '')))];
  const bad = topics.find((topic) => !TOPIC.test(topic));
  if (bad !== undefined || topics.length > 20) {
    const message =
      bad === undefined
        ? 'A repository cannot have more than 20 topics.'
        : 'Topics must start with a lowercase letter or number, consist of 50 characters or less, and can include hyphens.';
    return {
      error: invalidField('Repository', 'topics', { message }),
    };
  }
  await state.keep(REPOS, key, { ...record, repository: { ...record.repository, topics } });
  return { status: 200, body: { names: topics } };
}

/**
 * A file written or deleted through the contents API: the repository's `license` made what
 * `GET …/license` tells of its root's license file and its `language` the one most of its bytes
 * are in (GitHub detects both on each push), kept when they changed, so `repos.get`, its lists and
 * search answer them.
 */
async function licenseKept(matched: MatchedOperation, state: FlowState, key: string, place: RepoPlace): Promise<void> {
  const { method, template } = matched.op;
  if (template !== `${REPO}/contents/{path}` || (method !== 'PUT' && method !== 'DELETE')) return;
  const record = (await records(state)).get(key);
  if (record?.repository === undefined) return;
  const license = await repositoryLicense(state, place.scope);
  const language = await repositoryLanguage(state, place.scope);
  const was = record.repository;
  if (JSON.stringify(license) === JSON.stringify(was.license ?? null) && language === (was.language ?? null)) return;
  await state.keep(REPOS, key, { ...record, repository: { ...was, license, language } });
}

/**
 * An operation at or below `/repos/{owner}/{repo}`: the repository's own, a redirect from a name
 * it had, GitHub's 404 where it does not exist, else the refs, contents or collections below it.
 */
async function below(matched: MatchedOperation, sent: OwnRequest, state: FlowState): Promise<OwnAnswer | undefined> {
  const { owner = '', repo = '' } = matched.values;
  const key = keyOf(owner, repo);
  const all = await records(state);
  const record = all.get(key);
  if (record?.moved !== undefined) return redirect(matched, record.moved, sent.raw);
  // GitHub's 404 below a repository never made (or deleted): nothing below it is read or kept.
  // With `unseen: "examples"`, the document's example answers instead.
  if (record?.repository === undefined) return state.examples ? undefined : { error: NOT_FOUND };
  const self = matched.op.template === REPO;
  if (self) return own(matched, sent, state, key, record);
  if (matched.op.template === `${REPO}/topics` && matched.op.method === 'PUT') {
    return replaceTopics(sent.body, state, key, record);
  }
  const scope = record.scope ?? `${owner}/${repo}`;
  // The collections keep a renamed repository's items under its first name.
  const values = valuesOf(scope);
  const place: RepoPlace = { scope: scope.toLowerCase(), values, repository: record.repository };
  let answered: OwnAnswer | undefined;
  for (const operation of REPO_OPERATIONS) {
    answered = await operation(matched, sent, state, place);
    if (answered !== undefined) break;
  }
  if (answered === undefined) return scope === `${owner}/${repo}` ? undefined : { values, ...shownAt(record) };
  if ('values' in answered) return { ...answered, ...shownAt(record) };
  if (!('error' in answered)) await licenseKept(matched, state, key, place);
  return answered;
}

/**
 * The parameters the URLs of what a write below a repository makes name: its current owner and
 * name (a renamed one's, not the first its items are kept under), as GitHub's URLs say them.
 */
function shownAt(record: RepoRecord | undefined): { shown?: Record<string, string> } {
  const repository = record?.repository;
  if (repository === undefined) return {};
  const login = (repository.owner as { login?: unknown } | undefined)?.login;
  if (typeof login !== 'string' || typeof repository.name !== 'string') return {};
  return { shown: { owner: login, repo: repository.name } };
}

/** GitHub's repositories, and what is kept below them, as {@link TwinFlows.own} answers them. */
export const githubRepos: OwnOperation = async (matched, sent, state) => {
  const { method, template } = matched.op;
  if (template === '/user/repos' || template === '/orgs/{org}/repos') {
    if (method === 'GET') return list(matched, sent, state);
    if (method !== 'POST') return undefined;
    const org = matched.values.org;
    return create(state, org ?? GITHUB_USER.login, org !== undefined, sent.body);
  }
  if (template === '/users/{username}/repos' && method === 'GET') return list(matched, sent, state);
  if (template === REPO || template.startsWith(`${REPO}/`)) return below(matched, sent, state);
  return undefined;
};
