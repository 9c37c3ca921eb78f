/**
 * GitHub's flows beside the generic engine (docs/design.md#twins): issues and pull
 * requests as GitHub answers and lists them (issues.ts, lists.ts),
 * the labels of an issue at `…/issues/{issue_number}/labels` (adding one emits
 * `issues.labeled`, removing one `issues.unlabeled`), releases and reviews (releases.ts),
 * and every change emits GitHub's webhook event (payloads.ts) to the repository's hooks
 * (events.ts), a new hook its `ping`; a hook's `config.secret` is answered masked
 * (`********`), as GitHub answers it; `GET /user` is the authenticated user; repositories by name,
 * their git refs and contents, kept by repos.ts, each change of them its `repository`,
 * `push`, `create` or `delete` event (repo-kept.ts, pushes.ts).
 *
 * @module
 */

import type { FlowError, FlowKit, MatchedOperation, TwinFlows } from '@mockpoint/core/internal';
import { checkRunRefused } from './checks.js';
import { githubInvitations } from './collaborators.js';
import { commentsListRefused } from './comments.js';
import { contentsRootPaths } from './contents.js';
import {
  githubHeaders,
  githubSubscribes,
  githubTarget,
  hookEventsEdited,
  hookLimit,
  hookUrlRefused,
  invalidField,
  maskedHook,
  validationFailed,
} from './events.js';
import { githubInstallations } from './installations.js';
import { repoLabels } from './issue-labels.js';
import { issueMilestone } from './issue-milestones.js';
import {
  GITHUB_USER,
  issueLabels,
  issueLock,
  keyed,
  labelCreated,
  labelRenamed,
  lockRefused,
  member,
  milestoneCreated,
  namedApplied,
  namedMembers,
  updating,
} from './issues.js';
import { labelColorKept, labelColorRefused, labelNameTaken } from './label-checks.js';
import { githubList } from './lists.js';
import { mergeMethodRefused } from './merges.js';
import { nodeIdOf } from './node-ids.js';
import { NOT_FOUND } from './not-found.js';
import { githubNotifications } from './notifications.js';
import { githubOrgs, orgChangeRefused } from './orgs.js';
import { githubPathObjects } from './path-objects.js';
import { GITHUB_KEPT, githubContext, githubEvent, githubEventTypes } from './payloads.js';
import { pullCreating, pullUpdateRefused } from './pulls.js';
import { notSupplied, refsListPaths } from './refs.js';
import { releaseCreated, releaseKeyed, releaseUpdating } from './releases.js';
import { githubRepos } from './repos.js';
import { githubSearch } from './search.js';
import { githubOwnerSecrets } from './secrets.js';
import { githubTeams, teamKeyed, teamNameTaken } from './teams.js';
import { githubUserIssues, isUserIssues, userIssuesRefused } from './user-issues.js';

const ISSUES = '/repos/{owner}/{repo}/issues';
const PULLS = '/repos/{owner}/{repo}/pulls';
const ISSUE_LABELS = `${ISSUES}/{issue_number}/labels`;
const LABELS = '/repos/{owner}/{repo}/labels';

/** The fields a create needs, by the collection's last path segment, and GitHub's resource name. */
const REQUIRED: Record<string, { resource: string; fields: string[] }> = {
  issues: { resource: 'Issue', fields: ['title'] },
  pulls: { resource: 'PullRequest', fields: ['head', 'base'] },
  labels: { resource: 'Label', fields: ['name'] },
  comments: { resource: 'IssueComment', fields: ['body'] },
  hooks: { resource: 'Hook', fields: ['config'] },
  releases: { resource: 'Release', fields: ['tag_name'] },
};

/** GitHub's `422 Validation Failed`, with an `errors` entry for each field missing or empty. */
function check(template: string, sent: Record<string, unknown>): FlowError | undefined {
  if (!GITHUB_KEPT.has(template)) return undefined;
  const color = labelColorRefused(template, sent);
  if (color !== undefined) return color;
  const wanted = REQUIRED[template.split('/').at(-1) ?? ''];
  if (wanted === undefined) return undefined;
  const missing = wanted.fields.filter(
    (field) => sent[field] === undefined || sent[field] === null || sent[field] === '',
  );
  if (missing.length === 0) return undefined;
  return validationFailed(
    'missing_field',
    missing.map((field) => ({ resource: wanted.resource, code: 'missing_field', field })),
  );
}

/** GitHub's name of the resource an operation of `template` makes or changes (`…/campaigns` → `Campaign`). */
function resourceOf(template: string): string {
  const last = template
    .split('/')
    .filter((segment) => segment !== '' && !segment.startsWith('{'))
    .at(-1);
  const known = REQUIRED[last ?? ''];
  if (known !== undefined) return known.resource;
  if (last === 'repos') return 'Repository';
  const singular = (last ?? '').replace(/ies$/, 'y').replace(/s$/, '');
  return singular.replace(/(^|[-_])([a-z])/g, (_, _sep: string, letter: string) => letter.toUpperCase());
}

/**
 * GitHub's refusal of a string past its `maxLength`: `422 Validation Failed`, the field named with
 * Rails' words (`name is too long (maximum is 50 characters)`).
 */
function tooLong(template: string, param: string, max: number): FlowError {
  const field = param.slice(0, 200);
  const message = `${field} is too long (maximum is ${max} characters)`;
  return validationFailed('custom', [{ resource: resourceOf(template), code: 'custom', field, message }]);
}

/**
 * GitHub's refusal of a value its schema refuses (an `enum`, `pattern`, `minimum`, a type):
 * `422 Validation Failed`, `code: invalid` on the field. A required one missing is the answer of
 * GitHub's request schema, as its own operations give it (refs.ts): `422 Invalid request.\n\n"ref"
 * wasn't supplied.`, no `errors`.
 */
function invalidValue(template: string, param: string, keyword: string, message: string): FlowError {
  const field = param.slice(0, 200);
  if (keyword === 'required') return notSupplied([field.replace(/^.*\[([^\]]*)\]$/, '$1')]).error;
  return invalidField(resourceOf(template), field, { message });
}

/**
 * GitHub's own refusal of a request the document's constraints refuse too, answered in its words
 * first: a create missing what its resource needs (`check`: `Validation Failed`, `missing_field`),
 * a check run's `status` or `conclusion` (`Invalid request.\n\nFor 'properties/status', …`), a
 * lock's `lock_reason`, a merge's `merge_method`, the `sort`, `direction` or `since` of a
 * repository's issue comments, an organization's change it cannot take (`Validation Failed`, `invalid` on `Organization`), a list
 * parameter it does not take (`filter`, `state`, `sort`: `422` naming the value).
 */
function refusesFirst(
  template: string,
  method: string,
  params: { body: Record<string, unknown>; query: Record<string, unknown> },
): FlowError | undefined {
  const own =
    checkRunRefused(template, params.body) ??
    lockRefused(template, method, params.body) ??
    mergeMethodRefused(template, method, params.body) ??
    commentsListRefused(template, method, params.query);
  if (own !== undefined) return own;
  if (method === 'POST') return check(template, params.body);
  if (method === 'PATCH' && template === '/orgs/{org}') return orgChangeRefused(params.body);
  if (method !== 'GET') return undefined;
  if (isUserIssues(template)) return userIssuesRefused(params.query);
  // A repository's issues, pulls and milestones (a search's `sort` is the search's own).
  if (!template.startsWith('/repos/')) return undefined;
  const listed = githubList(template, [], params.query);
  return listed !== undefined && 'error' in listed ? listed.error : undefined;
}

/**
 * A new issue or pull request: open, with the labels sent (names), none else, made by the
 * authenticated user (as is a new comment); a release's and a review's (releases.ts).
 */
function created(
  template: string,
  object: Record<string, unknown>,
  sent: Record<string, unknown>,
  kit: FlowKit,
): undefined {
  if (GITHUB_KEPT.has(template)) releaseCreated(template, object, sent, kit);
  const last = template.split('/').at(-1);
  if (last === 'comments') object.user = GITHUB_USER;
  // A hook made without `events` hears `push` alone, as GitHub's (not the example's list).
  if (last === 'hooks' && GITHUB_KEPT.has(template) && !Array.isArray(sent.events)) object.events = ['push'];
  if (last === 'labels' && GITHUB_KEPT.has(template)) labelCreated(object, sent);
  labelColorKept(template, object);
  if (last === 'milestones' && template === '/repos/{owner}/{repo}/milestones') milestoneCreated(object, sent);
  if (last !== 'issues' && last !== 'pulls') return undefined;
  object.user = GITHUB_USER;
  object.state = typeof sent.state === 'string' ? sent.state : 'open';
  // Made without a `body`: none (not the example's text).
  if ('body' in object) object.body = typeof sent.body === 'string' ? sent.body : null;
  // An issue's labels sent are the repository's, found (or made) by `creating`.
  if (last !== 'issues' || !Array.isArray(sent.labels)) object.labels = [];
  object.assignees = [];
  if ('assignee' in object) object.assignee = null;
  // An issue takes `labels` and `assignees` as names; a pull request's create takes neither.
  if (last === 'issues') namedMembers(object, sent);
  if ('locked' in object) object.locked = false;
  if ('active_lock_reason' in object) object.active_lock_reason = null;
  for (const field of ['closed_at', 'merged_at', 'closed_by', 'state_reason'])
    if (field in object) object[field] = null;
  if ('comments' in object) object.comments = 0;
  return undefined;
}

/**
 * The authenticated user, every token's (`octocat`), over the document's example: `GET /user`,
 * `PATCH /user`, and `GET /users/{username}` of its login (another login the twin never made: 404).
 */
function outside(matched: MatchedOperation, value: unknown): unknown {
  const { method, template } = matched.op;
  const own =
    (template === '/user' && (method === 'GET' || method === 'PATCH')) ||
    (template === '/users/{username}' && method === 'GET' && matched.values.username === GITHUB_USER.login);
  return own ? { ...(typeof value === 'object' && value !== null ? value : {}), ...GITHUB_USER } : undefined;
}

/** A hook as GitHub answers it: its `config.secret` masked (kept whole for signing). */
function shown(template: string, object: Record<string, unknown>): Record<string, unknown> {
  return template.endsWith('/hooks') ? maskedHook(object) : object;
}

export const githubFlows: TwinFlows = {
  paths: { ...contentsRootPaths, ...refsListPaths },
  check,
  checkUpdate: labelColorRefused,
  tooLong,
  invalidValue,
  refusesFirst,
  // The repository, or an object the path names below it (an issue, a label, a branch, a git ref,
  // an environment, a runner …), that the twin does not hold: GitHub's 404 before a value's 422.
  // An organization the twin does not hold, too (`/orgs/{org}/…`, orgs.ts), and whatever else a
  // path names (a gist, a team, a notification thread: path-objects.ts).
  missingFirst: (template) => template.includes('{'),
  // A path GitHub has no operation at (a `{package_type}` it does not list): its `404 Not Found`.
  unknownPath: NOT_FOUND,
  // The document's `required` held (a missing field: `422 Invalid request. "…" wasn't supplied.`).
  required: true,
  invalidStatus: 422,
  creating: async (template, object, sent, kit) => {
    if (template === LABELS) return labelNameTaken(sent.name, kit);
    const team = await teamNameTaken(template, sent.name, kit);
    if (team !== undefined) return team;
    const milestone = await issueMilestone(template, sent, kit);
    if (milestone !== undefined && 'error' in milestone) return milestone.error;
    if (milestone !== undefined) object.milestone = milestone.milestone;
    const refused = await pullCreating(template, object, sent, kit);
    if (refused !== undefined) return refused;
    if (template === ISSUES) {
      const labels = await repoLabels(sent, kit);
      if (labels !== undefined) object.labels = labels;
    }
    return undefined;
  },
  created,
  amending: async (template, stored, sent, kit) => {
    const refused = pullUpdateRefused(template, stored, sent);
    if (refused !== undefined) return { error: refused };
    const taken = template === LABELS ? await labelNameTaken(sent.new_name, kit, String(stored.name)) : undefined;
    if (taken !== undefined) return { error: taken };
    const milestone = await issueMilestone(template, sent, kit, true);
    if (milestone !== undefined && 'error' in milestone) return milestone;
    const labels = template === ISSUES || template === PULLS ? await repoLabels(sent, kit) : undefined;
    if (milestone === undefined && labels === undefined) return undefined;
    return {
      sent: {
        ...sent,
        ...(milestone === undefined ? {} : { milestone: milestone.milestone }),
        ...(labels === undefined ? {} : { labels }),
      },
    };
  },
  shown,
  outside,
  own: async (matched, sent, state) =>
    (await githubPathObjects(matched, sent, state)) ??
    (await githubTeams(matched, sent, state)) ??
    (await githubSearch(matched, sent, state)) ??
    (await githubUserIssues(matched, sent, state)) ??
    (await githubOrgs(matched, sent, state)) ??
    (await githubOwnerSecrets(matched, sent, state)) ??
    (await githubInvitations(matched, sent, state)) ??
    (await githubInstallations(matched, sent, state)) ??
    (await githubNotifications(matched, sent, state)) ??
    githubRepos(matched, sent, state),
  events: {
    eventsTemplate: '',
    endpointsTemplate: '/repos/{owner}/{repo}/hooks',
    scheme: 'github',
    types: githubEventTypes,
    event: githubEvent,
    subscribes: githubSubscribes,
    target: githubTarget,
    headers: githubHeaders,
    context: githubContext,
    limit: hookLimit,
    badTarget: hookUrlRefused,
  },
  acting: async (matched, stored, sent, kit) => {
    const { method, template } = matched.op;
    if (template !== ISSUE_LABELS || stored === undefined || (method !== 'POST' && method !== 'PUT')) return undefined;
    return issueLabels(matched, stored, sent, (await repoLabels(sent, kit)) ?? []);
  },
  action: (matched, stored, sent) => issueLabels(matched, stored, sent) ?? issueLock(matched, stored, sent),
  keyed(template, object, values, root) {
    // Its own node id, by its kind and id, in place of the example's (`"node_id"`, a legacy one).
    if ('node_id' in object && typeof object.id === 'number') object.node_id = nodeIdOf(template, object.id);
    keyed(template, object, values);
    teamKeyed(template, object, values);
    if (GITHUB_KEPT.has(template)) releaseKeyed(template, object, values, root);
  },
  updating(template, object, was, tools, sent) {
    if (template.endsWith('/hooks')) hookEventsEdited(object, sent);
    if (template.endsWith('/releases')) releaseUpdating(object, tools);
    if (template.endsWith('/labels') && GITHUB_KEPT.has(template)) labelRenamed(object, sent);
    labelColorKept(template, object);
    updating(template, object, was, tools);
    const last = template.split('/').at(-1);
    if (GITHUB_KEPT.has(template) && (last === 'issues' || last === 'pulls')) namedApplied(object);
  },
  list: githubList,
  member,
};
