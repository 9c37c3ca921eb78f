/**
 * With test sessions, the requests a test's process makes to the daemon's own
 * plain URLs (`http://127.0.0.1:16540/endpoint/x`, no `/ns/…`: a base URL the
 * code under test held before the test) are sent with the current test's
 * `mockpoint-session` header, so they reach that test's namespace. The global
 * `fetch` and `node:http` (axios, got) are hooked as for `intercept`
 * (request-hooks.ts): the request goes on to the daemon as it was, with the
 * header added; nothing answers it here.
 *
 * Left as they are: requests already in a namespace (`/ns/{ns}/…`, a
 * `mockpoint-session` header or `baggage` entry), the namespace routes
 * (`/api/namespaces…`: the plugin makes and deletes sessions through them),
 * other origins, and requests outside any test.
 *
 * @module
 */
import { addRequestHook } from './request-hooks.js';
import { SESSION_HEADER } from './session.js';

const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;

/** The same daemon: its origin, or (a loopback daemon) any loopback name on its port. */
function sameDaemon(daemon: URL, url: URL): boolean {
  if (url.protocol !== daemon.protocol || url.port !== daemon.port) return false;
  return url.hostname === daemon.hostname || (LOOPBACK.test(daemon.hostname) && LOOPBACK.test(url.hostname));
}

/** Whether a request to `url` with `headers` should be put in the current test's session. */
export function carriesSession(daemon: URL, url: URL, headers: Headers): boolean {
  if (!sameDaemon(daemon, url)) return false;
  const path = url.pathname;
  if (path.startsWith('/ns/') || path === '/api/namespaces' || path.startsWith('/api/namespaces/')) return false;
  if (headers.has(SESSION_HEADER)) return false;
  return !(headers.get('baggage') ?? '').toLowerCase().includes(SESSION_HEADER);
}

/**
 * Starts carrying: a request of this process to `daemonUrl` that
 * {@link carriesSession} picks gets the header with the name `sessionName()`
 * gives (none when it gives `undefined`; a request it throws for fails with
 * that error). Returns the function that stops it.
 */
export function carrySessionToDaemon(daemonUrl: string, sessionName: () => Promise<string | undefined>): () => void {
  const daemon = new URL(daemonUrl);
  return addRequestHook(async ({ request, controller }) => {
    if (!carriesSession(daemon, new URL(request.url), request.headers)) return;
    try {
      const name = await sessionName();
      if (name !== undefined) request.headers.set(SESSION_HEADER, name);
    } catch (error) {
      controller.errorWith(error instanceof Error ? error : new Error(String(error)));
    }
  });
}
