/**
 * Where a request under `/endpoint/` goes: the endpoint name (the first segment
 * below the prefix) and the subpath (everything after it, `/` for the bare URL).
 *
 * @module
 */

/** Every target under this prefix is answered by an endpoint, and nowhere else. */
export const ENDPOINT_PREFIX = '/endpoint/';

/** A target split into its endpoint name and subpath. */
export interface EndpointTarget {
  /** The first segment below the prefix, percent-decoded. */
  name: string;
  /** The rest of the path, without the query: `/` for the bare URL (with or without a trailing `/`). */
  subpath: string;
}

/**
 * The name and subpath of a target under {@link ENDPOINT_PREFIX}; `undefined`
 * when it has no non-empty name segment (`/endpoint/`, `/endpoint//a`), or the
 * name is a `.`/`..` path step (a URL parser would leave the prefix with them).
 */
export function splitEndpointTarget(target: string): EndpointTarget | undefined {
  const q = target.indexOf('?');
  const end = q === -1 ? target.length : q;
  if (end <= ENDPOINT_PREFIX.length || !target.startsWith(ENDPOINT_PREFIX)) return undefined;
  let slash = target.indexOf('/', ENDPOINT_PREFIX.length);
  if (slash === -1 || slash > end) slash = end;
  if (slash === ENDPOINT_PREFIX.length) return undefined;
  const raw = target.slice(ENDPOINT_PREFIX.length, slash);
  let name = raw;
  if (raw.includes('%')) {
    try {
      name = decodeURIComponent(raw);
    } catch {
      // a malformed escape stays as it is (and can never be a valid name)
    }
  }
  if (name === '.' || name === '..') return undefined;
  return { name, subpath: slash >= end - 1 ? '/' : target.slice(slash, end) };
}

/**
 * The target of a Fetch request as it came (path and query, no fragment), from
 * its absolute `url`, without re-encoding it through `URL`.
 */
export function urlTarget(url: string): string {
  const pathStart = url.indexOf('/', url.indexOf('//') + 2);
  const hash = url.indexOf('#');
  return pathStart === -1 ? '/' : url.slice(pathStart, hash === -1 ? undefined : hash);
}

/**
 * The target under {@link ENDPOINT_PREFIX} for a request whose host picked
 * endpoint `name` (a valid name: nothing to encode): its whole path and query
 * (`url` in origin or absolute form), as the subpath.
 */
export function mappedTarget(name: string, url: string): string {
  let start = 0;
  if (url.charCodeAt(0) !== 47 /* / */) {
    const target = absoluteTarget(url);
    start = target.path;
    if (start === -1) {
      // `http://host`, `http://host?q` or `http://host#f`: the path is `/`; the query is kept, the fragment never.
      const q = url.charCodeAt(target.authorityEnd) === 63 /* ? */ ? target.authorityEnd : -1;
      if (q === -1) return `${ENDPOINT_PREFIX}${name}`;
      const hash = url.indexOf('#', q);
      return `${ENDPOINT_PREFIX}${name}${url.slice(q, hash === -1 ? undefined : hash)}`;
    }
  }
  const hash = url.indexOf('#', start);
  return `${ENDPOINT_PREFIX}${name}${url.slice(start, hash === -1 ? undefined : hash)}`;
}

/** An absolute-form request target (`GET http://user@host:80/path?q HTTP/1.1`), read by {@link absoluteTarget}. */
export interface AbsoluteTarget {
  /** The host and port (`host:80`, no userinfo; at most its first 300 characters); `undefined` when the target has no `://`. */
  authority: string | undefined;
  /** Where the authority stops in the target: its first `/`, `?` or `#`, or the target's end. */
  authorityEnd: number;
  /** Where the path starts in the target (the `/` that ends the authority); -1 when there is none (`http://host?q`). */
  path: number;
}

/** The longest authority read: a host name is at most 253 characters, and a request's bytes are hostile. */
const AUTHORITY_MAX = 300;

/**
 * The one reading of an absolute-form target (a client using the daemon as its
 * HTTP proxy sends `http://host/path` as the target): its authority, and where
 * the path starts. Every place that takes a host or a path from such a target
 * reads it here.
 */
export function absoluteTarget(url: string): AbsoluteTarget {
  const scheme = url.indexOf('://');
  if (scheme === -1) return { authority: undefined, authorityEnd: -1, path: -1 };
  const from = scheme + 3;
  let end = from;
  while (end < url.length) {
    const c = url.charCodeAt(end);
    if (c === 47 /* / */ || c === 63 /* ? */ || c === 35 /* # */) break;
    end++;
  }
  // Longer than any host and port: its first 300 characters, which map nothing (a request's bytes are never copied out whole).
  const authority = url.slice(from, Math.min(end, from + AUTHORITY_MAX));
  const at = authority.lastIndexOf('@');
  // The path is there only when a `/` ends the authority: in `http://host?q=/x` the path is empty (`/`), not `/x`.
  const path = url.charCodeAt(end) === 47 /* / */ ? end : -1;
  return { authority: at === -1 ? authority : authority.slice(at + 1), authorityEnd: end, path };
}
