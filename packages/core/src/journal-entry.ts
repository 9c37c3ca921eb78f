/**
 * A recorded request, in two forms: the cheap {@link JournalInput} captured on
 * the read path (no parsing, no copying, no date formatting) and the
 * {@link JournalEntry} it becomes, once, when someone reads the journal.
 *
 * @module
 */
import { jsonTooDeep, readBodyPrefix } from './body.js';

/** One request received at `/endpoint/{name}`, as the API lists it. */
export interface JournalEntry {
  /** Increasing sequence number across the whole journal. */
  id: number;
  method: string;
  /** The request path, without the query string. */
  path: string;
  /** Query parameters; repeated keys become arrays. */
  query: Record<string, string | string[]>;
  /** Request headers, lower-cased names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  /** The body as text (UTF-8), possibly truncated (see `bodyTruncated`). */
  body: string;
  /** True when the body was longer than the journal keeps. */
  bodyTruncated: boolean;
  /** The body parsed as JSON, when it parses; otherwise absent. */
  json?: unknown;
  /** ISO 8601 time of arrival. */
  receivedAt: string;
  /** The status mockpoint answered with (404 for an unknown name). */
  statusCode: number;
}

/** What the read path records: raw parts, turned into a {@link JournalEntry} only when read. */
export interface JournalInput {
  method: string;
  /** The request target as received: path plus query string. */
  target: string;
  /** Header names and values, alternating, as received (e.g. Node's `rawHeaders`). */
  rawHeaders: readonly string[];
  body: string;
  bodyTruncated: boolean;
  statusCode: number;
  /** Arrival time in milliseconds since the epoch. @default Date.now() */
  receivedAt?: number;
}

/** The journal keeps at most this many bytes of each request body. */
export const JOURNAL_BODY_LIMIT = 64 * 1024;
/** Names longer than this are neither recorded nor readable (they cannot be valid either). */
export const JOURNAL_NAME_LIMIT = 256;

/** Query parameters as a record; repeated keys become arrays. */
export function parseQuery(params: URLSearchParams): Record<string, string | string[]> {
  // A null-prototype object while collecting, so `__proto__` is an ordinary key.
  const query: Record<string, string | string[]> = Object.create(null);
  for (const [key, value] of params) {
    const seen = query[key];
    query[key] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return { ...query };
}

function headerRecord(rawHeaders: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = Object.create(null);
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = (rawHeaders[i] as string).toLowerCase();
    const value = rawHeaders[i + 1] as string;
    const seen = headers[name];
    headers[name] = seen === undefined ? value : `${seen}, ${value}`;
  }
  return { ...headers };
}

/** Turns a recorded input into the entry the API lists. */
export function toJournalEntry(id: number, input: JournalInput, receivedAt: number): JournalEntry {
  const q = input.target.indexOf('?');
  const entry: JournalEntry = {
    id,
    method: input.method,
    path: q === -1 ? input.target : input.target.slice(0, q),
    query: q === -1 ? {} : parseQuery(new URLSearchParams(input.target.slice(q + 1))),
    headers: headerRecord(input.rawHeaders),
    body: input.body,
    bodyTruncated: input.bodyTruncated,
    receivedAt: new Date(receivedAt).toISOString(),
    statusCode: input.statusCode,
  };
  // Too-deep JSON is kept as text only: its parsed form could not be serialised back.
  if (input.body !== '' && !input.bodyTruncated && !jsonTooDeep(input.body)) {
    try {
      entry.json = JSON.parse(input.body);
    } catch {
      // not JSON: the text is kept as it is
    }
  }
  return entry;
}

/**
 * Captures a Fetch-API request to `/endpoint/{name}` answered with `statusCode`,
 * reading up to `bodyLimit` bytes of its body.
 */
export async function captureRequest(
  request: Request,
  statusCode: number,
  bodyLimit: number = JOURNAL_BODY_LIMIT,
): Promise<JournalInput> {
  const url = new URL(request.url);
  const rawHeaders: string[] = [];
  request.headers.forEach((value, name) => {
    rawHeaders.push(name, value);
  });
  const { bytes, truncated } = await readBodyPrefix(request, bodyLimit);
  // `stream: true` drops a multi-byte character cut in half by the limit instead
  // of turning it into U+FFFD (a fresh decoder: streaming state must not leak).
  const body = new TextDecoder().decode(bytes, { stream: truncated });
  return {
    method: request.method,
    target: url.pathname + url.search,
    rawHeaders,
    body,
    bodyTruncated: truncated,
    statusCode,
  };
}
