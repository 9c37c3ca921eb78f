/**
 * The cross-site write check of the admin API: a page on another origin can
 * send a "simple" request (a form, or `fetch(..., { mode: 'no-cors' })` with a
 * text/plain body) to a daemon on the developer's machine without any CORS
 * preflight, and the body is read as JSON whatever its Content-Type. So every
 * `/api` write whose `Origin` is not the daemon's own (or listed in
 * `allowedOrigins`) is refused with 403 `CROSS_ORIGIN`. Requests without an
 * `Origin` (curl, the SDKs, tests) are not from a browser page and pass.
 *
 * @module
 */
import type { MiddlewareHandler } from 'hono';
import { MockpointError } from '../registry/errors.js';
import { normalizeOrigin } from '../registry/rules.js';

/** Methods that never change anything: not checked. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The first value of a possibly comma-joined forwarded header. */
function first(value: string | undefined): string | undefined {
  const part = value?.split(',')[0]?.trim();
  return part === undefined || part === '' ? undefined : part;
}

/**
 * The origins this request was addressed to: its scheme and Host, and, behind a
 * reverse proxy, `X-Forwarded-Proto` and `X-Forwarded-Host`. A browser cannot
 * set those headers on a request that skips the CORS preflight, so trusting
 * them lets no foreign page through.
 */
function ownOrigins(url: string, host: string | undefined, forwardedHost?: string, forwardedProto?: string): string[] {
  const scheme = new URL(url).protocol.slice(0, -1);
  const hosts = [host ?? new URL(url).host, forwardedHost].filter((h): h is string => h !== undefined);
  const schemes = [scheme, forwardedProto].filter((s): s is string => s !== undefined);
  const origins: string[] = [];
  for (const h of hosts) {
    for (const s of schemes) {
      const origin = normalizeOrigin(`${s}://${h}`);
      if (origin !== undefined) origins.push(origin);
    }
  }
  return origins;
}

/**
 * Middleware refusing a write to `/api` from a foreign origin: an `Origin` that
 * is neither the daemon's own (the request's scheme and Host) nor in `allowed`,
 * or, without an `Origin`, `Sec-Fetch-Site` saying another site sent it.
 * Reads are not checked (without CORS on `/api` a foreign page cannot read the
 * answer), nor is `/endpoint/*`, whose CORS stays open.
 */
export function originGuard(allowed: readonly string[]): MiddlewareHandler {
  const allowedSet = new Set(allowed.map((entry) => normalizeOrigin(entry)).filter((o) => o !== undefined));
  return async (c, next) => {
    if (!SAFE_METHODS.has(c.req.method) && (c.req.path === '/api' || c.req.path.startsWith('/api/'))) {
      const origin = c.req.header('origin');
      if (origin !== undefined) {
        const normalized = normalizeOrigin(origin);
        const own =
          normalized !== undefined &&
          (allowedSet.has(normalized) ||
            ownOrigins(
              c.req.url,
              c.req.header('host'),
              first(c.req.header('x-forwarded-host')),
              first(c.req.header('x-forwarded-proto')),
            ).includes(normalized));
        if (!own) throw crossOrigin(`from the origin ${origin.trim() === '' ? '""' : origin.trim()}`);
      } else {
        const site = c.req.header('sec-fetch-site');
        if (site === 'cross-site' || site === 'same-site') throw crossOrigin(`sent by a ${site} page`);
      }
    }
    await next();
  };
}

function crossOrigin(what: string): MockpointError {
  return new MockpointError(
    'CROSS_ORIGIN',
    `a write to the admin API ${what} is refused (a defence against cross-site requests); the daemon's own page and clients that send no Origin (curl, the SDKs) can write; to allow a page on another origin, add its origin (e.g. http://localhost:3000) to MOCKPOINT_ALLOWED_ORIGINS`,
  );
}
