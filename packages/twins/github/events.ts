/**
 * GitHub's repository hooks (docs/design.md#twins): each event a change emits (payloads.ts) goes to
 * every active hook of the repository (`POST /repos/{owner}/{repo}/hooks`, `config.url`,
 * `config.secret`, `events` or `*`), and a new hook its `ping`; each delivery with
 * GitHub's headers (`X-GitHub-Event`, `X-GitHub-Hook-ID`,
 * `X-GitHub-Hook-Installation-Target-Type` and `-ID`, Hookshot's `User-Agent`), signed by the
 * delivery engine's `github` scheme (`X-Hub-Signature-256`, `X-Hub-Signature`, `X-GitHub-Delivery`).
 *
 * @module
 */
import type { FlowError } from '@mockpoint/core/internal';

/** Most hooks of a repository one event may have (GitHub's limit). */
const MAX_HOOKS_PER_EVENT = 20;

/** Hookshot's user agent, as a delivery from GitHub names it (the hex its build's). */
const HOOKSHOT = 'GitHub-Hookshot/6d0c7e2';

/** A hook as GitHub answers and sends it: its `config.secret` masked (kept whole for signing). */
export function maskedHook(hook: Record<string, unknown>): Record<string, unknown> {
  const config = hook.config;
  if (typeof config !== 'object' || config === null || (config as Record<string, unknown>).secret === undefined) {
    return hook;
  }
  return { ...hook, config: { ...config, secret: '********' } };
}

/**
 * Whether a repository hook takes `event` of `type` (`issues.opened` by `issues` or `*`); a
 * `ping` goes to the hook it names alone, whatever its events; `repository.created` to none (a
 * repository's hooks are made after it: GitHub sends it to an organization's and an App's).
 */
export function githubSubscribes(hook: Record<string, unknown>, type: string, event: Record<string, unknown>): boolean {
  const { url } = githubTarget(hook);
  if (hook.active === false || typeof url !== 'string' || type === 'repository.created') return false;
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

/**
 * GitHub's `422 Validation Failed` of one `field` of `resource` it calls `invalid`
 * (`{ resource, code: "invalid", field }`), with the `message` or `value` GitHub adds where it does.
 */
export function invalidField(
  resource: string,
  field: string,
  more: { message?: string; value?: unknown } = {},
): FlowError {
  return validationFailed('invalid', [{ resource, code: 'invalid', field, ...more }]);
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
  // An App's own event (`installation`) is the App's, as GitHub names its target.
  const installation = event?.installation as Record<string, unknown> | undefined;
  if (type.split('.')[0] === 'installation' && installation !== undefined) {
    return {
      'x-github-event': 'installation',
      'x-github-hook-installation-target-type': 'integration',
      'x-github-hook-installation-target-id': String(installation.app_id),
      'user-agent': HOOKSHOT,
    };
  }
  return {
    'x-github-event': type.split('.')[0] ?? type,
    'x-github-hook-installation-target-type': 'repository',
    ...(repository?.id === undefined ? {} : { 'x-github-hook-installation-target-id': String(repository.id) }),
    'user-agent': HOOKSHOT,
  };
}
