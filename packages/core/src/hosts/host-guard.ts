/**
 * The Host check of the admin API and the web page: a defence against DNS
 * rebinding (a page on a hostile name that resolves to this machine), since the
 * admin token is off by default. `/endpoint/*` answers any Host.
 *
 * @module
 */
import type { MiddlewareHandler } from 'hono';
import { hostAllowed, IPV4, splitHostPort } from '../pattern/host-rules.js';
import { MockpointError } from '../registry/errors.js';

/** The host name of a Host header value, as the allow lists compare it (pattern/host-rules.ts `splitHostPort`). */
export function hostName(host: string): string {
  return splitHostPort(host)?.host ?? host.trim().toLowerCase();
}

/**
 * True when `host` (a Host header value) is an IP address, `localhost`, or
 * allowed by one of `allowed` (the allow-list rule of pattern/host-rules.ts: a
 * listed port allows that port only; a Host without a port is at `defaultPort`,
 * one whose port is not a number matches rules without a port only). A Host
 * that cannot be read (`[::1`) is allowed by nothing.
 */
export function isAllowedHost(host: string, allowed: readonly string[], defaultPort = 80): boolean {
  const split = splitHostPort(host);
  if (split === undefined) return false;
  const { host: name, port } = split;
  if (name === 'localhost' || IPV4.test(name) || name.includes(':')) return true;
  const at = port === undefined ? defaultPort : /^\d{1,5}$/.test(port) ? Number(port) : undefined;
  return hostAllowed(name, at, allowed);
}

/**
 * Middleware refusing every request outside `/endpoint/` whose Host is not
 * allowed. A request without a Host header never came over the network (e.g.
 * `app.request()` or the client's `app` option in a test), so it passes.
 */
export function hostGuard(allowed: readonly string[]): MiddlewareHandler {
  return async (c, next) => {
    if (!c.req.path.startsWith('/endpoint/')) {
      const host = c.req.header('host');
      if (host !== undefined && !isAllowedHost(host, allowed, c.req.url.startsWith('https:') ? 443 : 80)) {
        throw new MockpointError(
          'HOST_NOT_ALLOWED',
          `Host "${hostName(host)}" is not allowed for the admin API and the web page (a DNS-rebinding defence); use an IP address or localhost, or add the name to MOCKPOINT_ALLOWED_HOSTS`,
        );
      }
    }
    await next();
  };
}
