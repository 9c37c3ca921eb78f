/**
 * GitHub's webhooks (SPEC §2.19): each change the twin makes emits the event
 * GitHub sends — `issues` opened/edited/closed/reopened/labeled/unlabeled/deleted,
 * `issue_comment` created/edited/deleted, `pull_request` opened/edited/closed,
 * `label` created/edited/deleted — with the keys `@octokit/webhooks-examples`
 * shows for it (`action`, the object, `repository`, `sender`), to every active
 * hook of the repository (`POST /repos/{owner}/{repo}/hooks`, `config.url`,
 * `config.secret`, `events` or `*`), and a new hook its `ping`; each delivery with
 * GitHub's headers (`X-GitHub-Event`, `X-GitHub-Hook-ID`,
 * `X-GitHub-Hook-Installation-Target-Type` and `-ID`, Hookshot's `User-Agent`), signed by the
 * delivery engine's `github` scheme (`X-Hub-Signature-256`, `X-Hub-Signature`, `X-GitHub-Delivery`).
 *
 * @module
 */
import { GITHUB_USER } from './github-issues.js';
import type { FlowError, FlowTools, TwinChange } from './twin-flows.js';

/** Most hooks of a repository one event may have (GitHub's limit). */
const MAX_HOOKS_PER_EVENT = 20;

/**
 * The repository's collections GitHub's flows keep (issues, their comments, pull requests, labels,
 * hooks): the others of the document (a gist's comments, a runner's labels) send no event and are
 * checked by no rule of these, although their last path segment is the same.
 */
export const GITHUB_KEPT = new Set(
  ['issues', 'issues/comments', 'pulls', 'labels', 'hooks'].map((path) => `/repos/{owner}/{repo}/${path}`),
);

/** The event of each collection, by its last path segment. */
const EVENT_OF: Record<string, string> = {
  issues: 'issues',
  comments: 'issue_comment',
  pulls: 'pull_request',
  labels: 'label',
};

/** The member of the payload that holds the object. */
const MEMBER_OF: Record<string, string> = {
  issues: 'issue',
  issue_comment: 'comment',
  pull_request: 'pull_request',
  label: 'label',
};

function updateAction(event: string, change: TwinChange): string {
  if (event !== 'issues' && event !== 'pull_request') return 'edited';
  const state = change.object.state;
  if (state === change.before) return 'edited';
  if (state === 'closed') return 'closed';
  return 'reopened';
}

/** Hookshot's user agent, as a delivery from GitHub names it (the hex its build's). */
const HOOKSHOT = 'GitHub-Hookshot/6d0c7e2';

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

/** A hook as GitHub answers and sends it: its `config.secret` masked (kept whole for signing). */
export function maskedHook(hook: Record<string, unknown>): Record<string, unknown> {
  const config = hook.config;
  if (typeof config !== 'object' || config === null || (config as Record<string, unknown>).secret === undefined) {
    return hook;
  }
  return { ...hook, config: { ...config, secret: '********' } };
}

/** The types (`issues.opened`) of the events a change emits (a new hook's: its `ping`). */
export function githubEventTypes(change: TwinChange): string[] {
  if (!GITHUB_KEPT.has(change.template)) return [];
  const last = change.template.split('/').at(-1) ?? '';
  if (last === 'hooks') return change.kind === 'created' ? ['ping'] : [];
  const event = EVENT_OF[last];
  if (event === undefined) return [];
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

/** The repository of the payload, from the path's owner and name. */
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

/** A payload of `type` about `object` (`change` gives the repository and what an action adds). */
export function githubEvent(
  type: string,
  object: Record<string, unknown>,
  tools: FlowTools,
  change?: TwinChange,
): Record<string, unknown> {
  const [event = '', action = ''] = type.split('.');
  const values = change?.values ?? {};
  const repository = repositoryOf(values.owner ?? 'octocat', values.repo ?? 'hello-world');
  if (event === 'ping') {
    const id = Number(object.id) || 0;
    const zen = ZEN[id % ZEN.length];
    return { zen, hook_id: object.id, hook: maskedHook(object), repository, sender: GITHUB_USER };
  }
  const payload: Record<string, unknown> = { action };
  if (event === 'pull_request') payload.number = object.number;
  payload[MEMBER_OF[event] ?? event] = object;
  if (event === 'issue_comment') payload.issue = { number: Number(values.issue_number) || null };
  if (action === 'edited') payload.changes = {};
  Object.assign(payload, change?.extra ?? {});
  payload.repository = repository;
  payload.sender = GITHUB_USER;
  // No `installation`: GitHub adds it to an App's deliveries, never to a repository hook's.
  // The event's id is the delivery's (`X-GitHub-Delivery`); kept out of the payload.
  void tools;
  return payload;
}

/**
 * Whether a repository hook takes `event` of `type` (`issues.opened` by `issues` or `*`); a
 * `ping` goes to the hook it names alone, whatever its events.
 */
export function githubSubscribes(hook: Record<string, unknown>, type: string, event: Record<string, unknown>): boolean {
  const { url } = githubTarget(hook);
  if (hook.active === false || typeof url !== 'string') return false;
  if (type === 'ping') return event.hook_id === hook.id;
  const events = Array.isArray(hook.events) ? hook.events : ['push'];
  return events.includes('*') || events.includes(type.split('.')[0]);
}

/** The events a hook subscribes to (GitHub's default: `push`). */
function hookEvents(hook: Record<string, unknown>): string[] {
  return Array.isArray(hook.events) ? hook.events.map(String) : ['push'];
}

/**
 * GitHub's refusal of a hook one of whose events has 20 hooks in the repository already
 * (a `*` hook counts for every event): `422 Validation Failed`, an error per full event,
 * in GitHub's words (`The "push" event cannot have more than 20 hooks`).
 */
export function hookLimit(
  live: readonly Record<string, unknown>[],
  made: Record<string, unknown>,
): FlowError | undefined {
  const held = live.map(hookEvents);
  const wanted = hookEvents(made);
  // A `*` hook adds one to every event: each one a hook names, and those none names (`*`'s own count).
  const names = new Set(wanted.includes('*') ? ['*', ...held.flat()] : wanted);
  const full = [...names].filter(
    (name) => held.filter((events) => events.includes('*') || events.includes(name)).length >= MAX_HOOKS_PER_EVENT,
  );
  if (full.length === 0) return undefined;
  return validationFailed(
    'custom',
    full.slice(0, 20).map((name) => ({
      resource: 'Hook',
      code: 'custom',
      message: `The "${name.slice(0, 100)}" event cannot have more than ${MAX_HOOKS_PER_EVENT} hooks`,
    })),
  );
}

/**
 * GitHub's refusal of a hook whose `config.url` its deliveries could never reach (a scheme but
 * http(s), a private or metadata address), when the hook is made or changed: `422 Validation Failed`.
 */
export function hookUrlRefused(reason: string): FlowError {
  return validationFailed('custom', [
    { resource: 'Hook', code: 'custom', field: 'url', message: `url is not supported: ${reason.slice(0, 300)}` },
  ]);
}

/**
 * A hook's `events` after an update: `add_events` added and `remove_events` removed (GitHub's
 * `PATCH …/hooks/{hook_id}`), after `events` when it was sent (which replaces them).
 */
export function hookEventsEdited(hook: Record<string, unknown>, sent: Record<string, unknown>): void {
  const list = (value: unknown) => (Array.isArray(value) ? value.map(String) : []);
  if (!Array.isArray(sent.add_events) && !Array.isArray(sent.remove_events)) return;
  const removed = new Set(list(sent.remove_events));
  const events = [...new Set([...hookEvents(hook), ...list(sent.add_events)])].filter((name) => !removed.has(name));
  hook.events = events;
}

/** GitHub's `422 Validation Failed`, its `errors` listing what failed (each with GitHub's `code`). */
export function validationFailed(code: string, errors: Record<string, unknown>[]): FlowError {
  return { status: 422, type: 'invalid_request_error', code, message: 'Validation Failed', extra: { errors } };
}

/** A hook's receiver and secret, from its `config`, and its id, which each delivery to it names. */
export function githubTarget(hook: Record<string, unknown>): {
  url: unknown;
  secret: unknown;
  headers: Record<string, string>;
} {
  const config = (typeof hook.config === 'object' && hook.config !== null ? hook.config : {}) as Record<
    string,
    unknown
  >;
  return { url: config.url, secret: config.secret ?? '', headers: { 'x-github-hook-id': String(hook.id) } };
}

/**
 * The headers of a delivery of `type` about `event` besides its signature and `X-GitHub-Delivery`
 * (the `github` scheme's): the event, the repository it installs on (`event`'s), Hookshot's agent.
 */
export function githubHeaders(type: string, event?: Record<string, unknown>): Record<string, string> {
  const repository = event?.repository as Record<string, unknown> | undefined;
  return {
    'x-github-event': type.split('.')[0] ?? type,
    'x-github-hook-installation-target-type': 'repository',
    ...(repository?.id === undefined ? {} : { 'x-github-hook-installation-target-id': String(repository.id) }),
    'user-agent': HOOKSHOT,
  };
}
