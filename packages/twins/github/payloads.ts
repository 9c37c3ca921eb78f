/**
 * GitHub's webhook payloads (docs/design.md#twins, issue #73): each change the twin makes emits the event
 * GitHub sends — `issues` opened/edited/closed/reopened/labeled/unlabeled/deleted, `issue_comment`
 * created/edited/deleted, `pull_request` opened/edited/closed/reopened (and `synchronize`, told by a
 * push: pushes.ts), `label` created/edited/deleted, `release` created/published/
 * released/prereleased/edited/deleted, `pull_request_review.submitted`, `push`, `create`, `delete`
 * and `repository` created/edited/renamed/privatized/publicized/deleted (repos.ts) — with the
 * keys `@octokit/webhooks-examples` shows for it: `action`, the object, the `repository` as kept
 * (repos.ts; made from the path where none is), its `organization` when an organization owns
 * it, and `sender`.
 *
 * @module
 */

import type { FlowState, FlowTools, TwinChange } from '@mockpoint/core/internal';
import { maskedHook } from './events.js';
import { GITHUB_USER } from './issues.js';
import { keptRepository, shownRepo } from './repo-kept.js';
import { orgIdentity } from './repo-object.js';

const REPO = '/repos/{owner}/{repo}';
const PULLS = `${REPO}/pulls`;
const REVIEWS = `${PULLS}/{pull_number}/reviews`;
const ISSUES = `${REPO}/issues`;

/**
 * The repository's collections GitHub's flows keep (issues, their comments, pull requests and
 * their reviews, labels, releases, hooks): the others of the document (a gist's comments, a
 * runner's labels) send no event and are checked by no rule of these, although their last path
 * segment is the same.
 */
export const GITHUB_KEPT = new Set(
  ['issues', 'issues/comments', 'pulls', 'pulls/{pull_number}/reviews', 'labels', 'releases', 'hooks'].map(
    (path) => `${REPO}/${path}`,
  ),
);

/** The event of each collection, by its last path segment. */
const EVENT_OF: Record<string, string> = {
  issues: 'issues',
  comments: 'issue_comment',
  pulls: 'pull_request',
  labels: 'label',
  releases: 'release',
  reviews: 'pull_request_review',
};

/** The member of the payload that holds the object. */
const MEMBER_OF: Record<string, string> = {
  issues: 'issue',
  issue_comment: 'comment',
  pull_request: 'pull_request',
  label: 'label',
  release: 'release',
  pull_request_review: 'review',
};

/** GitHub's zen, one line of which a `ping` carries. */
const ZEN = [
  'Design for failure.',
  'Keep it logically awesome.',
  'Speak like a human.',
  'Favor focus over features.',
  'Avoid administrative distraction.',
  'Mind your words, they are important.',
  'Non-blocking is better than blocking.',
  'Encourage flow.',
  'Anything added dilutes everything else.',
  'Approachable is better than simple.',
  'Practicality beats purity.',
  'Half measures are as bad as nothing at all.',
  "It's not fully shipped until it's fast.",
  'Responsive is better than fast.',
];

function updateAction(event: string, change: TwinChange): string {
  if (event !== 'issues' && event !== 'pull_request') return 'edited';
  const state = change.object.state;
  if (state === change.before) return 'edited';
  if (state === 'closed') return 'closed';
  return 'reopened';
}

/**
 * A release's events: made, `created`, and unless a draft `published` and `released` (or
 * `prereleased`); a draft made public the same two; another change `edited`; `deleted`.
 */
function releaseTypes(change: TwinChange): string[] {
  const { object } = change;
  const published =
    object.draft === true
      ? []
      : ['release.published', object.prerelease === true ? 'release.prereleased' : 'release.released'];
  if (change.kind === 'created') return ['release.created', ...published];
  if (change.kind === 'deleted') return ['release.deleted'];
  if (change.kind !== 'updated') return [];
  return change.previous?.draft === true && object.draft !== true ? published : ['release.edited'];
}

/** The types (`issues.opened`) of the events a change emits (a new hook's: its `ping`). */
export function githubEventTypes(change: TwinChange): string[] {
  if (!GITHUB_KEPT.has(change.template)) return [];
  const last = change.template.split('/').at(-1) ?? '';
  if (last === 'hooks') return change.kind === 'created' ? ['ping'] : [];
  const event = EVENT_OF[last];
  if (event === undefined) return [];
  if (event === 'release') return releaseTypes(change);
  // A pending review (no `event` sent) is submitted later: GitHub sends nothing of it yet.
  if (event === 'pull_request_review') {
    return change.kind === 'created' && change.object.state !== 'PENDING' ? ['pull_request_review.submitted'] : [];
  }
  switch (change.kind) {
    case 'created':
      return [`${event}.${event === 'issues' || event === 'pull_request' ? 'opened' : 'created'}`];
    case 'updated':
      return [`${event}.${updateAction(event, change)}`];
    case 'deleted':
      return [`${event}.deleted`];
    default:
      return change.extra?.label === undefined ? [] : [`${event}.labeled`];
  }
}

/** The repository of the payload where none is kept (`unseen: "examples"`), from the path. */
function repositoryOf(owner: string, name: string): Record<string, unknown> {
  const url = `https://api.github.com/repos/${owner}/${name}`;
  return {
    id: 1,
    node_id: 'R_kgDOAAAAAQ',
    name,
    full_name: `${owner}/${name}`,
    private: false,
    owner: { login: owner, id: 1, type: 'User' },
    html_url: `https://github.com/${owner}/${name}`,
    url,
  };
}

/** The payload's `organization`, as GitHub sends it of a repository an organization owns. */
function organizationOf(repository: Record<string, unknown>): Record<string, unknown> | undefined {
  const owner = repository.owner as Record<string, unknown> | undefined;
  if (owner?.type !== 'Organization') return undefined;
  return { ...orgIdentity(String(owner.login)), description: '' };
}

/** An edit's `changes`: the prior value of each field it changed (`{ title: { from } }`), not its times. */
function changesOf(previous: Record<string, unknown> | undefined): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  for (const [field, from] of Object.entries(previous ?? {})) if (!field.endsWith('_at')) changes[field] = { from };
  return changes;
}

/** A payload of `type` about `object` (`change` gives the repository and what an action adds). */
export function githubEvent(
  type: string,
  object: Record<string, unknown>,
  tools: FlowTools,
  change?: TwinChange,
): Record<string, unknown> {
  const [event = '', action = ''] = type.split('.');
  const values = change?.values ?? {};
  const extra = change?.extra ?? {};
  const repository =
    event === 'repository'
      ? object
      : ((extra.repository as Record<string, unknown> | undefined) ??
        repositoryOf(values.owner ?? 'octocat', shownRepo(values.repo ?? 'hello-world')));
  const organization = organizationOf(repository);
  // No `installation`: GitHub adds it to an App's deliveries, never to a repository hook's.
  const around = { repository, ...(organization === undefined ? {} : { organization }), sender: GITHUB_USER };
  // The event's id is the delivery's (`X-GitHub-Delivery`); kept out of the payload.
  void tools;
  if (event === 'ping') {
    const zen = ZEN[(Number(object.id) || 0) % ZEN.length];
    return { zen, hook_id: object.id, hook: maskedHook(object), ...around };
  }
  // An App's own event: the installation, its repositories, the sender; no repository (GitHub's).
  if (event === 'installation') {
    const repositories = extra.repositories === undefined ? {} : { repositories: extra.repositories };
    return { action, installation: object, ...repositories, sender: GITHUB_USER };
  }
  // An event without an action (`push`, `create`, `delete`): the object's members are the payload's.
  if (action === '') return { ...object, ...around };
  const payload: Record<string, unknown> = { action };
  if (event === 'pull_request') payload.number = object.number;
  if (event !== 'repository') payload[MEMBER_OF[event] ?? event] = object;
  // A review's `state` is lower case in its event (`approved`), upper case as the API answers it.
  if (event === 'pull_request_review') payload.review = { ...object, state: String(object.state).toLowerCase() };
  if (event === 'issue_comment') payload.issue = { number: Number(values.issue_number) || null };
  if (action === 'edited') payload.changes = changesOf(change?.previous);
  Object.assign(payload, extra, around);
  return payload;
}

/**
 * What every payload of `change` carries of what the twin keeps: the repository as kept (by the
 * scope its collections are kept under), a review's pull request, a comment's issue.
 */
export async function githubContext(
  change: TwinChange,
  state: FlowState,
): Promise<Record<string, unknown> | undefined> {
  const values = change.values ?? {};
  if (values.owner === undefined || values.repo === undefined) return undefined;
  const context: Record<string, unknown> = {};
  const repository = await keptRepository(state, values.owner, values.repo);
  if (repository !== undefined) context.repository = repository;
  const numbered = async (template: string, number: string | undefined) =>
    number === undefined
      ? undefined
      : (await state.objects(template, values)).find((one) => String(one.number) === number);
  if (change.template === REVIEWS) {
    const pull = await numbered(PULLS, values.pull_number);
    if (pull !== undefined) context.pull_request = pull;
  }
  if (change.template === `${ISSUES}/comments`) {
    const issue = await numbered(ISSUES, values.issue_number);
    if (issue !== undefined) context.issue = issue;
  }
  return context;
}
