/**
 * The `upstream` of a verify (`POST /api/verify`, `mockpoint verify
 * --upstream`) read and checked: an absolute http(s) URL without query,
 * fragment or credentials, whose host the proxy's allow list allows
 * (`403 PROXY_HOST_NOT_ALLOWED` otherwise, checked when the replay starts);
 * `ignore` paths, `headers` (valid names and values), a HAR document, and the
 * bounds within their limits. Anything else is `400 INVALID_VERIFY_UPSTREAM`.
 *
 * @module
 */
import type { Upstream } from '../answer/proxy/upstream.js';
import { MAX_VERIFY_CONCURRENCY, MAX_VERIFY_TIMEOUT_MS, MAX_VERIFY_TOTAL_MS } from '../api/verify-json.js';
import { NOT_FORWARDED } from '../codec/hop-by-hop.js';
import { headerNameProblem, headerValueProblem } from '../codec/http-header.js';
import { quoted } from '../codec/quoted.js';
import { MockpointError } from '../registry/errors.js';
import type { LiveSetup } from './live-replay.js';
import { type HarRequest, harRequests } from './live-request.js';

/** Defaults of the bounds. */
export const DEFAULT_CONCURRENCY = 4;
export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_TOTAL_MS = 60_000;
/** `ignore` paths at most, and characters of one. */
const MAX_IGNORE = 1_000;
const MAX_IGNORE_CHARS = 1_000;

function invalid(message: string): MockpointError {
  return new MockpointError('INVALID_VERIFY_UPSTREAM', `upstream: ${message}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The base URL, checked. */
function baseUrl(value: unknown): URL {
  if (typeof value !== 'string') throw invalid("url is required: the live API's base URL (https://api.example.com/v1)");
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid(`url ${quoted(value, 200)} is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid(`url ${quoted(value, 200)} is not http(s)`);
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw invalid(`url ${quoted(value, 200)} may not have a query, a fragment or credentials (give headers instead)`);
  }
  return url;
}

function bound(value: unknown, name: string, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max) {
    throw invalid(`${name} is a whole number from 1 to ${max}`);
  }
  return value;
}

function ignoreOf(value: unknown): Set<string> {
  if (value === undefined) return new Set();
  if (!Array.isArray(value) || value.length > MAX_IGNORE)
    throw invalid(`ignore is a list of at most ${MAX_IGNORE} paths`);
  for (const path of value) {
    if (typeof path !== 'string' || path === '' || path.length > MAX_IGNORE_CHARS) {
      throw invalid(
        `ignore: each path is a non-empty string of at most ${MAX_IGNORE_CHARS} characters (body.items.*.id)`,
      );
    }
  }
  return new Set(value as string[]);
}

function headersOf(value: unknown): [string, string][] {
  if (value === undefined) return [];
  if (!isObject(value)) throw invalid('headers is an object of header names and values');
  const out: [string, string][] = [];
  for (const [name, text] of Object.entries(value)) {
    const problem =
      headerNameProblem(name) ?? (typeof text === 'string' ? headerValueProblem(text) : 'is not a string');
    if (problem !== undefined) throw invalid(`headers: ${quoted(name, 100)}: ${problem}`);
    if (NOT_FORWARDED.has(name.toLowerCase()))
      throw invalid(`headers: ${quoted(name, 100)} is the connection's own; it is not sent`);
    out.push([name, text as string]);
  }
  return out;
}

/** What the process that replays provides: its upstream transport, the allow list, the body limit. */
export interface LiveEnvironment {
  upstream: Upstream;
  allowHosts: readonly string[];
  maxBodyBytes: number;
}

/** The replay's setup and HAR requests from a verify's `upstream`. */
export function readLiveOptions(value: unknown, env: LiveEnvironment): { setup: LiveSetup; har: HarRequest[] } {
  if (!isObject(value))
    throw invalid('is an object: { url, ignore?, headers?, har?, concurrency?, timeoutMs?, totalMs? }');
  const known = new Set(['url', 'ignore', 'headers', 'har', 'unsafe', 'concurrency', 'timeoutMs', 'totalMs']);
  for (const key of Object.keys(value)) if (!known.has(key)) throw invalid(`unknown field ${quoted(key, 100)}`);
  if (value.unsafe !== undefined && typeof value.unsafe !== 'boolean') throw invalid('unsafe is true or false');
  if (value.har !== undefined && !isObject(value.har)) throw invalid('har is a HAR document ({ log: { entries } })');
  return {
    setup: {
      url: baseUrl(value.url),
      ignore: ignoreOf(value.ignore),
      headers: headersOf(value.headers),
      unsafe: value.unsafe === true,
      concurrency: bound(value.concurrency, 'concurrency', DEFAULT_CONCURRENCY, MAX_VERIFY_CONCURRENCY),
      timeoutMs: bound(value.timeoutMs, 'timeoutMs', DEFAULT_TIMEOUT_MS, MAX_VERIFY_TIMEOUT_MS),
      totalMs: bound(value.totalMs, 'totalMs', DEFAULT_TOTAL_MS, MAX_VERIFY_TOTAL_MS),
      upstream: env.upstream,
      allowHosts: env.allowHosts,
      maxBodyBytes: env.maxBodyBytes,
    },
    har: harRequests(value.har),
  };
}
