/**
 * The journal as HAR 1.2 (the HTTP Archive format that browsers' devtools,
 * Charles and mitmproxy read and write): one HAR entry per journal entry. The
 * request is given as it arrived — method, URL, headers, query and the body's
 * bytes (as text, or base64 with `_encoding: "base64"` where they are not UTF-8:
 * HAR's `postData` has no encoding field of its own; `encoding` too, which
 * Playwright's `routeFromHAR` reads). The response is what was sent: status,
 * headers and body (`content.text`, base64 with `encoding` where it is not
 * UTF-8), as far as the journal keeps it (64 KiB, said in `comment` past it);
 * the timings are the ones measured (`wait` until the first byte, `receive`
 * until the last).
 *
 * @module
 */

import type { JournalEntry } from '../api/journal-json.js';
import { base64Bytes } from '../codec/base64.js';
import type { NamedEntry } from './journal.js';

/** A name and value pair of a HAR list (headers, query string, cookies). */
export interface HarPair {
  name: string;
  value: string;
}

/** One HAR 1.2 entry, with mockpoint's own fields under `_mockpoint`. */
export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: HarPair[];
    headers: HarPair[];
    queryString: HarPair[];
    postData?: { mimeType: string; text: string; _encoding?: 'base64'; encoding?: 'base64' };
    headersSize: number;
    bodySize: number;
    comment?: string;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: HarPair[];
    headers: HarPair[];
    content: { size: number; mimeType: string; text?: string; encoding?: 'base64'; comment?: string };
    redirectURL: string;
    headersSize: number;
    bodySize: number;
    comment?: string;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  comment?: string;
  _mockpoint: { name: string; id: number; subpath: string; answeredBy: JournalEntry['answeredBy'] };
}

/** The first and last lines of a HAR document; the entries go between them, comma-separated. */
export function harFrame(version: string): { head: string; tail: string } {
  const creator = JSON.stringify({ name: 'mockpoint', version });
  return { head: `{"log":{"version":"1.2","creator":${creator},"pages":[],"entries":[`, tail: ']}}' };
}

const NO_RESPONSE = 'nothing was sent back (a reset or a hang): the status is 0';
const NO_TIMINGS = 'the answer had not been sent when the journal was read: timings are zero';

/** The cookies of a `Cookie` header, as HAR lists them (a pair without `=` is a name with an empty value). */
function cookies(header: string | undefined): HarPair[] {
  if (header === undefined) return [];
  const pairs: HarPair[] = [];
  for (const part of header.split(';')) {
    const text = part.trim();
    if (text === '') continue;
    const eq = text.indexOf('=');
    pairs.push(eq === -1 ? { name: text, value: '' } : { name: text.slice(0, eq), value: text.slice(eq + 1) });
  }
  return pairs;
}

/** The query record as HAR's list: a repeated key once per value, in the order received. */
function queryPairs(query: JournalEntry['query']): HarPair[] {
  const pairs: HarPair[] = [];
  for (const [name, value] of Object.entries(query)) {
    for (const one of Array.isArray(value) ? value : [value]) pairs.push({ name, value: one });
  }
  return pairs;
}

/** What RFC 3986 allows in a path as it is; anything else is percent-encoded (HAR's `url` is a URI). */
const NOT_URI = /[^A-Za-z0-9\-._~:/@!$&'()*+,;=%]/gu;

/** A character as percent-encoded UTF-8 (a lone surrogate as U+FFFD's, as anywhere in UTF-8). */
function escaped(c: string): string {
  return encodeURIComponent(c.length === 1 && c >= '\ud800' && c <= '\udfff' ? '\ufffd' : c);
}

/**
 * The request's URL: `http://`, its Host (`localhost` when it has none, or one
 * that is no host), the path exactly as it came (no `..` or `\` resolved, as a
 * URL parser would: the HAR names the request that was sent) escaped where it
 * is no URI text, and the query.
 */
function requestUrl(entry: JournalEntry): string {
  const host = entry.headers.host;
  const origin =
    host !== undefined && URL.canParse(`http://${host}/`) ? new URL(`http://${host}/`).origin : 'http://localhost';
  const search = new URLSearchParams(
    queryPairs(entry.query).map((pair): [string, string] => [pair.name, pair.value]),
  ).toString();
  // A `%` that starts no escape is itself escaped: a URI has no bare `%`.
  const path = entry.path.replace(NOT_URI, escaped).replace(/%(?![0-9A-Fa-f]{2})/g, '%25');
  return `${origin}${path}${search === '' ? '' : `?${search}`}`;
}

/** The body's size in bytes, as it was received (as far as the journal kept it). */
function bodyBytes(entry: JournalEntry): number {
  if (entry.bodyEncoding === 'base64') return base64Bytes(entry.body).byteLength;
  return new TextEncoder().encode(entry.body).byteLength;
}

/** The HAR's list of response headers: one pair per value, in the order sent. */
function responseHeaders(headers: Record<string, string | string[]>): HarPair[] {
  const pairs: HarPair[] = [];
  for (const [name, value] of Object.entries(headers)) {
    for (const one of Array.isArray(value) ? value : [value]) pairs.push({ name, value: one });
  }
  return pairs;
}

/** The response as devtools record it: what was sent, and the `Set-Cookie` cookies. */
function harResponse(entry: JournalEntry): HarEntry['response'] {
  const sent = entry.response;
  const response: HarEntry['response'] = {
    status: entry.statusCode,
    statusText: STATUS_TEXT[entry.statusCode] ?? '',
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: [],
    content: { size: 0, mimeType: 'x-unknown' },
    redirectURL: '',
    headersSize: -1,
    bodySize: -1,
  };
  if (sent === undefined) {
    response.comment = NO_RESPONSE;
    return response;
  }
  response.headers = responseHeaders(sent.headers);
  const type = sent.headers['content-type'];
  const location = sent.headers.location;
  if (typeof location === 'string') response.redirectURL = location;
  const setCookie = sent.headers['set-cookie'];
  for (const line of Array.isArray(setCookie) ? setCookie : setCookie === undefined ? [] : [setCookie]) {
    const [pair = ''] = line.split(';');
    const eq = pair.indexOf('=');
    response.cookies.push(
      eq === -1 ? { name: pair.trim(), value: '' } : { name: pair.slice(0, eq).trim(), value: pair.slice(eq + 1) },
    );
  }
  response.content = {
    size: sent.bodySize,
    mimeType: (Array.isArray(type) ? type[0] : type) ?? 'x-unknown',
    text: sent.body,
  };
  if (sent.bodyEncoding === 'base64') response.content.encoding = 'base64';
  response.bodySize = sent.bodyTruncated ? -1 : sent.bodySize;
  if (sent.bodyTruncated) {
    response.content.comment = `the body was longer than the journal keeps: only its first bytes are here (${sent.bodySize} bytes were sent)`;
  }
  return response;
}

/** Reason phrases of the statuses answered most, as devtools show them (others: empty, as HTTP/2 has none). */
const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  301: 'Moved Permanently',
  302: 'Found',
  304: 'Not Modified',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** One journal entry as a HAR entry. */
export function harEntry({ name, entry }: NamedEntry): HarEntry {
  const size = bodyBytes(entry);
  const request: HarEntry['request'] = {
    method: entry.method,
    url: requestUrl(entry),
    httpVersion: 'HTTP/1.1',
    cookies: cookies(entry.headers.cookie),
    headers: Object.entries(entry.headers).map(([header, value]) => ({ name: header, value })),
    queryString: queryPairs(entry.query),
    headersSize: -1,
    bodySize: entry.bodyTruncated ? -1 : size,
  };
  if (size > 0) {
    request.postData = { mimeType: entry.headers['content-type'] ?? '', text: entry.body };
    if (entry.bodyEncoding === 'base64') {
      request.postData._encoding = 'base64';
      request.postData.encoding = 'base64';
    }
  }
  if (entry.bodyTruncated)
    request.comment = `the body was longer than the journal keeps: only its first ${size} bytes are here`;
  const wait = entry.timings?.wait ?? 0;
  const total = entry.timings?.total ?? wait;
  const har: HarEntry = {
    startedDateTime: entry.receivedAt,
    time: total,
    request,
    response: harResponse(entry),
    cache: {},
    timings: { send: 0, wait, receive: Math.round((total - wait) * 1000) / 1000 },
    _mockpoint: { name, id: entry.id, subpath: entry.subpath, answeredBy: entry.answeredBy },
  };
  if (entry.timings === undefined && entry.response !== undefined) har.comment = NO_TIMINGS;
  return har;
}
