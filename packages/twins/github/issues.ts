/**
 * GitHub's issues and pull requests as GitHub answers them (docs/design.md#twins-as-the-provider-answers): made
 * by the authenticated user, their URLs (`html_url` on github.com, `url` at
 * api.github.com), `closed_at` and `state_reason` moved by a close
 * and a reopen, a pull request listed among the issues with its
 * `pull_request` key, and the labels of an issue read, added, set and removed
 * at `…/issues/{issue_number}/labels` as one list.
 *
 * @module
 */

import type { ActionOutcome, FlowError, FlowTools, MatchedOperation } from '@mockpoint/core/internal';
import { invalidField } from './events.js';
import { nodeId } from './node-ids.js';
import { shownRepo } from './repo-kept.js';
import { urlPart } from './url-part.js';

/**
 * The authenticated user of every token: the twin keeps no users (`GET /user` answers this), so each
 * token is GitHub's `octocat`, the `user` of what it makes and the `sender` of every event.
 */
export const GITHUB_USER = {
  login: 'octocat',
  id: 1,
  node_id: 'MDQ6VXNlcjE=',
  avatar_url: 'https://github.com/images/error/octocat_happy.gif',
  gravatar_id: '',
  url: 'https://api.github.com/users/octocat',
  html_url: 'https://github.com/octocat',
  type: 'User',
  site_admin: false,
};

/**
 * The base of the API URLs an object carries (`url`): GitHub's own, as its examples have it (the
 * twin cannot tell the root of a `--serve` port from its `/endpoint/{name}` path; a client builds
 * its requests from its own `baseUrl`, not from these).
 */
const API = 'https://api.github.com';

const ISSUE_LABELS = '/repos/{owner}/{repo}/issues/{issue_number}/labels';
const ISSUE_LABEL = `${ISSUE_LABELS}/{name}`;
const ISSUE_LOCK = '/repos/{owner}/{repo}/issues/{issue_number}/lock';

/** The reasons GitHub takes for a lock (`lock_reason`). */
const LOCK_REASONS = new Set(['off-topic', 'too heated', 'resolved', 'spam']);

/**
 * The event of a change made through `…/issues/{issue_number}`: a pull request's (it has a `head`)
 * is `pull_request`'s, as GitHub sends it of a pull request labeled or locked as an issue.
 */
function eventOf(object: Record<string, unknown>): 'issues' | 'pull_request' {
  return 'head' in object ? 'pull_request' : 'issues';
}

/**
 * The `id` of an account the twin does not keep, by its login (case aside): one number a login,
 * whatever shows it (an assignee, a collaborator, an owner).
 */
export function accountId(login: string): number {
  let hash = 7;
  for (const char of login.toLowerCase()) hash = (hash * 31 + (char.codePointAt(0) as number)) >>> 0;
  return 1000 + (hash % 1_000_000);
}

/** A user as an issue's `assignees` show one: the authenticated user's shape, by login, its id {@link accountId}. */
export function userOf(login: string): Record<string, unknown> {
  if (login.toLowerCase() === GITHUB_USER.login) return GITHUB_USER;
  return {
    ...GITHUB_USER,
    login,
    id: accountId(login),
    node_id: nodeId('U', accountId(login)),
    url: `https://api.github.com/users/${login}`,
    html_url: `https://github.com/${login}`,
  };
}

/**
 * An issue's or pull request's `labels` and `assignees` as GitHub answers them, of what a create or
 * an update sent as names (`["bug"]`, `["octocat"]`): label objects (one it had kept as it was) and
 * user objects, `assignee` the first of them.
 */
export function namedMembers(object: Record<string, unknown>, sent: Record<string, unknown>): void {
  if (Array.isArray(sent.labels)) {
    const had = Array.isArray(object.labels) ? (object.labels as unknown[]).filter(isObject) : [];
    object.labels = labelsOf(sent).map((label) => had.find((old) => old.name === label.name) ?? label);
  }
  const logins = Array.isArray(sent.assignees)
    ? sent.assignees
    : typeof sent.assignee === 'string'
      ? [sent.assignee]
      : sent.assignee === null
        ? []
        : undefined;
  if (logins === undefined) return;
  const users = [...new Set(logins.filter((login): login is string => typeof login === 'string'))]
    .slice(0, 10)
    .map((login) => userOf(login.slice(0, 39)));
  object.assignees = users;
  object.assignee = users[0] ?? null;
}

/**
 * What an update applied as names made objects: the `labels` and `assignees` an operation that
 * takes them (`issues.update`, of a pull request too) put on the object as sent; an operation
 * that does not take them (`pulls.update`) applied none, and nothing changes.
 */
export function namedApplied(object: Record<string, unknown>): void {
  const raw = (value: unknown) => Array.isArray(value) && value.some((one) => typeof one === 'string');
  const applied: Record<string, unknown> = {};
  if (raw(object.labels)) applied.labels = object.labels;
  if (raw(object.assignees)) applied.assignees = object.assignees;
  else if (typeof object.assignee === 'string') applied.assignee = object.assignee;
  namedMembers(object, applied);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The label objects of names (GitHub answers the issue's labels whole). */
export function labelsOf(sent: Record<string, unknown>): Record<string, unknown>[] {
  const given = Array.isArray(sent.labels) ? sent.labels : [];
  const names = given.map((label) =>
    (typeof label === 'string' ? label : String((label as { name?: unknown })?.name ?? '')).slice(0, 100),
  );
  return [...new Set(names)].slice(0, 100).map((name) => ({
    id: 0,
    node_id: '',
    url: '',
    name,
    color: 'ededed',
    default: false,
    description: null,
  }));
}

/** A new issue's, pull request's or comment's URLs, once its number (or id) is taken. */
export function keyed(template: string, object: Record<string, unknown>, values: Record<string, string>): void {
  const { owner = 'octocat', issue_number: issue } = values;
  const repo = shownRepo(values.repo ?? 'hello-world');
  const api = `${API}/repos/${owner}/${repo}`;
  const web = `https://github.com/${owner}/${repo}`;
  const last = template.split('/').at(-1);
  if (last === 'issues' || last === 'pulls') {
    const n = object.number;
    const urls: Record<string, string> = {
      url: `${api}/${last}/${n}`,
      repository_url: api,
      labels_url: `${api}/issues/${n}/labels{/name}`,
      comments_url: `${api}/issues/${n}/comments`,
      events_url: `${api}/issues/${n}/events`,
      html_url: `${web}/${last === 'pulls' ? 'pull' : 'issues'}/${n}`,
      timeline_url: `${api}/issues/${n}/timeline`,
      issue_url: `${api}/issues/${n}`,
      commits_url: `${api}/pulls/${n}/commits`,
      review_comments_url: `${api}/pulls/${n}/comments`,
      diff_url: `${web}/pull/${n}.diff`,
      patch_url: `${web}/pull/${n}.patch`,
    };
    for (const [field, url] of Object.entries(urls)) if (field in object) object[field] = url;
    // An issue's reactions (a pull request's are its issue's: `member`); the twin keeps none.
    if (last === 'issues') object.reactions = noReactions(`${api}/issues/${n}/reactions`);
  } else if (last === 'milestones' && template === `${REPO_PATH}/milestones`) {
    Object.assign(object, {
      url: `${api}/milestones/${object.number}`,
      html_url: `${web}/milestone/${object.number}`,
      labels_url: `${api}/milestones/${object.number}/labels`,
    });
  } else if (last === 'labels' && template === `${REPO_PATH}/labels`) {
    object.url = labelUrl(api, object.name);
  } else if (last === 'comments' && issue !== undefined) {
    object.url = `${api}/issues/comments/${object.id}`;
    object.issue_url = `${api}/issues/${issue}`;
    object.html_url = `${web}/issues/${issue}#issuecomment-${object.id}`;
    object.reactions = noReactions(`${api}/issues/comments/${object.id}/reactions`);
  }
}

/** The `reactions` rollup of an issue or a comment at `url`, as GitHub answers one nobody reacted to. */
function noReactions(url: string): Record<string, unknown> {
  const counts = ['+1', '-1', 'laugh', 'hooray', 'confused', 'heart', 'rocket', 'eyes'];
  return { url, total_count: 0, ...Object.fromEntries(counts.map((reaction) => [reaction, 0])) };
}

/** What a close or a reopen moves: `closed_at`, `closed_by`, `state_reason`. */
const REPO_PATH = '/repos/{owner}/{repo}';

/** A label's `url`: at its name, encoded (`…/labels/needs%20triage`). */
function labelUrl(api: string, name: unknown): string {
  return `${api}/labels/${urlPart(String(name))}`;
}

/** A new label as GitHub makes it: its `description` the one sent (else `null`), not one of GitHub's defaults. */
export function labelCreated(object: Record<string, unknown>, sent: Record<string, unknown>): void {
  object.description = typeof sent.description === 'string' ? sent.description : null;
  object.default = false;
}

/** A new milestone as GitHub makes it: `open` unless sent `closed`, by the authenticated user, none of the example's text or counts. */
export function milestoneCreated(object: Record<string, unknown>, sent: Record<string, unknown>): void {
  object.state = sent.state === 'closed' ? 'closed' : 'open';
  object.description = typeof sent.description === 'string' ? sent.description : null;
  object.due_on = typeof sent.due_on === 'string' ? sent.due_on : null;
  object.creator = GITHUB_USER;
  object.open_issues = 0;
  object.closed_issues = 0;
  object.closed_at = null;
}

/**
 * A label renamed by `new_name` (`issues.updateLabel`): its `name`, and its `url` at the new name
 * (the engine moves it to its new key, so the old name is GitHub's 404 from now on).
 */
export function labelRenamed(object: Record<string, unknown>, sent: Record<string, unknown>): void {
  if (typeof sent.new_name !== 'string' || sent.new_name === '') return;
  object.name = sent.new_name;
  const url = String(object.url ?? '');
  const at = url.lastIndexOf('/labels/');
  if (at >= 0) object.url = labelUrl(url.slice(0, at), sent.new_name);
}

export function updating(template: string, object: Record<string, unknown>, was: unknown, tools: FlowTools): void {
  const last = template.split('/').at(-1);
  if (last === 'milestones' && template === `${REPO_PATH}/milestones` && object.state !== was) {
    object.closed_at = object.state === 'closed' ? new Date(tools.now()).toISOString() : null;
  }
  if ((last !== 'issues' && last !== 'pulls') || object.state === was) return;
  const closed = object.state === 'closed';
  object.closed_at = closed ? new Date(tools.now()).toISOString() : null;
  if ('closed_by' in object) object.closed_by = closed ? GITHUB_USER : null;
  if (last === 'issues') {
    const reason = object.state_reason;
    object.state_reason = closed
      ? reason === 'not_planned' || reason === 'duplicate'
        ? reason
        : 'completed'
      : 'reopened';
  }
}

/** The fields of an issue that a pull request has as GitHub lists it among the issues. */
const ISSUE_FIELDS = [
  'id',
  'node_id',
  'repository_url',
  'labels_url',
  'comments_url',
  'events_url',
  'html_url',
  'number',
  'state',
  'title',
  'body',
  'user',
  'labels',
  'assignee',
  'assignees',
  'milestone',
  'locked',
  'active_lock_reason',
  'comments',
  'closed_at',
  'created_at',
  'updated_at',
  'draft',
  'author_association',
];

/** A pull request as GitHub lists it among the issues: an issue with its `pull_request` key. */
export function member(template: string, object: Record<string, unknown>): Record<string, unknown> {
  if (!template.endsWith('/pulls')) return object;
  const issue: Record<string, unknown> = {};
  for (const field of ISSUE_FIELDS) issue[field] = object[field] ?? null;
  issue.url = object.issue_url ?? null;
  // A pull request has no `repository_url`; its issue's is the repository's, where its `issue_url` is.
  if (issue.repository_url === null && typeof object.issue_url === 'string')
    issue.repository_url = object.issue_url.replace(/\/issues\/[^/]*$/, '');
  issue.comments = Number(object.comments) || 0;
  if (typeof object.issue_url === 'string') issue.reactions = noReactions(`${object.issue_url}/reactions`);
  issue.labels = Array.isArray(object.labels) ? object.labels : [];
  issue.state_reason = null;
  issue.closed_by = null;
  issue.pull_request = {
    url: object.url ?? null,
    html_url: object.html_url ?? null,
    diff_url: object.diff_url ?? null,
    patch_url: object.patch_url ?? null,
    merged_at: object.merged_at ?? null,
  };
  return issue;
}

function labelNotOnIssue(): ActionOutcome {
  return { error: { status: 404, type: 'invalid_request_error', code: 'not_found', message: 'Label does not exist' } };
}

/**
 * The labels of an issue at `…/issues/{issue_number}/labels`: `GET` reads them, `POST` adds,
 * `PUT` sets, `DELETE` removes them all (`204`, no body), and `DELETE …/labels/{name}` one (`404
 * Label does not exist` when the issue lacks it); each other answers the issue's labels as they now are.
 */
export function issueLabels(
  matched: MatchedOperation,
  issue: Record<string, unknown> | undefined,
  sent: Record<string, unknown>,
  named: Record<string, unknown>[] = labelsOf(sent),
): ActionOutcome | undefined {
  const { method, template } = matched.op;
  if ((template !== ISSUE_LABELS && template !== ISSUE_LABEL) || issue === undefined) return undefined;
  const had = Array.isArray(issue.labels) ? (issue.labels as Record<string, unknown>[]) : [];
  if (method === 'GET' && template === ISSUE_LABELS) return { answer: had };
  let labels: Record<string, unknown>[];
  if (template === ISSUE_LABEL) {
    if (method !== 'DELETE') return undefined;
    const name = matched.values.name;
    if (!had.some((label) => label.name === name)) return labelNotOnIssue();
    labels = had.filter((label) => label.name !== name);
  } else if (method === 'POST') {
    labels = [...had, ...named.filter((label) => !had.some((old) => old.name === label.name))];
  } else if (method === 'PUT') {
    labels = named.map((label) => had.find((old) => old.name === label.name) ?? label);
  } else if (method === 'DELETE') {
    labels = [];
  } else {
    return undefined;
  }
  const added = labels.find((label) => !had.some((old) => old.name === label.name));
  const removed = had.find((old) => !labels.some((label) => label.name === old.name));
  // GitHub sends one event a label; the twin sends the first: `labeled`, else `unlabeled`.
  const label = added ?? removed;
  // Removing them all is GitHub's `204 No Content`; every other change answers the labels.
  const all = method === 'DELETE' && template === ISSUE_LABELS;
  return {
    object: { ...issue, labels },
    ...(all ? { status: 204 as const } : { answer: labels }),
    events: label === undefined ? [] : [`${eventOf(issue)}.${added ? 'labeled' : 'unlabeled'}`],
    ...(label === undefined ? {} : { event: { label } }),
  };
}

/** GitHub's `422` of a lock whose `lock_reason` is none it takes (`PUT …/issues/{n}/lock`). */
export function lockRefused(template: string, method: string, sent: Record<string, unknown>): FlowError | undefined {
  const reason = sent.lock_reason;
  if (template !== ISSUE_LOCK || method !== 'PUT' || reason === undefined || reason === null) return undefined;
  if (LOCK_REASONS.has(String(reason))) return undefined;
  const message = `${String(reason).slice(0, 100)} is not a valid lock_reason (off-topic, too heated, resolved or spam)`;
  return invalidField('Issue', 'lock_reason', { message });
}

/**
 * An issue's or pull request's lock at `…/issues/{issue_number}/lock`: `PUT` locks it (`locked`,
 * `active_lock_reason` one of GitHub's four reasons, else `422`), `DELETE` unlocks it; each answers
 * `204` and sends `issues.locked` or `.unlocked` (`pull_request.…` of a pull request) when it
 * changed the lock.
 */
export function issueLock(
  matched: MatchedOperation,
  issue: Record<string, unknown> | undefined,
  sent: Record<string, unknown>,
): ActionOutcome | undefined {
  const { method, template } = matched.op;
  if (template !== ISSUE_LOCK || issue === undefined || (method !== 'PUT' && method !== 'DELETE')) return undefined;
  const reason = sent.lock_reason;
  const refused = lockRefused(template, method, sent);
  if (refused !== undefined) return { error: refused };
  const locked = method === 'PUT';
  const object = { ...issue, locked, active_lock_reason: locked ? ((reason as string | undefined) ?? null) : null };
  const changed = issue.locked !== locked;
  return { object, status: 204, events: changed ? [`${eventOf(issue)}.${locked ? 'locked' : 'unlocked'}`] : [] };
}
