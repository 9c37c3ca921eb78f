/**
 * `intercept`: outgoing requests of this process (the global `fetch`,
 * `node:http` and `node:https`) to the listed origins are answered by the mock
 * in-process: no socket, no base URL to change. Built on `@mswjs/interceptors`
 * (what MSW runs on, through request-hooks.ts); nothing is patched here beyond
 * its hooks, and stopping restores everything.
 *
 * @module
 */
import { MockServerError } from './errors.js';
import { addRequestHook } from './request-hooks.js';

/** What happens to a request for a host that is not intercepted. */
export type InterceptUnmatched = 'network' | 'error';

/** One entry, read: the scheme it is limited to (if any) and a host or `*.` pattern. */
interface InterceptRule {
  protocol: string | undefined;
  host: string;
}

let active = false;

const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;

/** `https://api.example.com`, `api.example.com`, `https://*.example.com` → a rule; anything else throws. */
function parseRule(entry: string): InterceptRule {
  const match = /^(?:(https?):\/\/)?(\*\.)?([a-z0-9.-]+)\/?$/i.exec(entry.trim());
  if (match === null) {
    throw new MockServerError(
      'INVALID_INTERCEPT',
      `intercept: "${entry}" is not an origin to intercept (e.g. https://api.example.com or https://*.example.com; no path, no port)`,
    );
  }
  return {
    protocol: match[1] ? `${match[1].toLowerCase()}:` : undefined,
    host: `${match[2] ?? ''}${match[3]?.toLowerCase()}`,
  };
}

function matches(rules: readonly InterceptRule[], url: URL): boolean {
  const host = url.hostname.toLowerCase();
  return rules.some(
    (rule) =>
      (rule.protocol === undefined || rule.protocol === url.protocol) &&
      (rule.host === host || (rule.host.startsWith('*.') && host.endsWith(rule.host.slice(1)))),
  );
}

/**
 * Starts intercepting: a request to one of `entries` is answered by `answer`
 * (the mock app, in-process); others go to the network, or with `unmatched:
 * 'error'` fail (loopback addresses always go through: the mock's own URL is
 * one). Returns the function that stops it and restores every client.
 */
export function startIntercept(
  entries: readonly string[],
  answer: (request: Request) => Promise<Response>,
  unmatched: InterceptUnmatched = 'network',
): () => void {
  const rules = entries.map(parseRule);
  // One at a time: two servers' hooks on the same clients would answer for each other.
  if (active)
    throw new MockServerError('INVALID_INTERCEPT', 'another mock server intercepts in this process; close it first');
  active = true;
  const unhook = addRequestHook(async ({ request, controller }) => {
    const url = new URL(request.url);
    if (matches(rules, url)) {
      controller.respondWith(await answer(request));
    } else if (unmatched === 'error' && !LOOPBACK.test(url.hostname)) {
      controller.errorWith(
        new MockServerError(
          'HOST_NOT_MOCKED',
          `${request.method} ${url.origin}: not intercepted (intercept: ${entries.join(', ')}) and interceptUnmatched is 'error'`,
        ),
      );
    }
  });
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    active = false;
    unhook();
  };
}
