/**
 * A HAR 1.2 file (browsers' devtools, Charles, mitmproxy, mockpoint's own
 * journal export) as a mock file: one endpoint whose routes answer each
 * recorded request as it was answered, the way a proxy route's recording does
 * (`answer/proxy/recording.ts`): the request's method, path, query and text
 * body are matched exactly, the answer's bytes are kept exactly (minified JSON
 * as `data`, other text as `body`, anything else as `bodyBase64`), framing and
 * hop-by-hop headers are dropped and so are secrets (the headers a recording
 * redacts: never written, never served).
 *
 * The same request answered the same way several times is one route. The same
 * request answered differently is replayed in order: a scenario of its own
 * (`har-…`) moves one step per request and the last answer stays (docs/har.md).
 * Whatever cannot be carried over is listed in `skipped`, never dropped silently.
 *
 * @module
 */

import { exactBody, FRESH_HEADERS, literalPattern, redactedNames, redactedQuery } from '../answer/proxy/recording.js';
import { BODILESS_STATUS } from '../answer/read-response.js';
import type { RequestFilter } from '../api/journal-json.js';
import { REDACTED_QUERY } from '../api/proxy-answer.js';
import { type AnswerHeaders, FORBIDDEN_HEADERS, type Route, type RouteAnswer } from '../api/route.js';
import { base64Bytes, isBase64, toBase64 } from '../codec/base64.js';
import { headerNameProblem, headerValueProblem } from '../codec/http-header.js';
import { stringifyExact } from '../codec/json-text.js';
import { utf8Text } from '../codec/utf8.js';
import { utf8Length } from '../codec/utf8-length.js';
import { parseQuery } from '../journal/journal-entry.js';
import { MockpointError } from '../registry/errors.js';
import { DEFAULT_MAX_BODY_BYTES } from '../registry/limits.js';
import type { LeftOut } from './left-out.js';

/** Options for {@link harMockFile}. */
export interface HarImportOptions {
  /** The endpoint's name. */
  name: string;
  /** Only the entries sent to this host (`api.example.com`, or with its port); default: every entry. */
  host?: string;
  /** The file's name, for messages. @default 'import.har' */
  file?: string;
  /** More headers never written, beside those a recording never writes (as `record --redact`). */
  redact?: string[];
  /**
   * The largest body (the answer's, or the request's) an entry may carry; one
   * over it is left out, named, before its text is decoded.
   * @default the daemon's body limit (5 MiB): no route could carry more
   */
  maxBodyBytes?: number;
}

/** What {@link harMockFile} made. */
export interface HarImport {
  /** The mock file, JSON. */
  text: string;
  /** Routes written. */
  routes: number;
  /** Entries read, and how many became (part of) a route. */
  entries: number;
  imported: number;
  /** The hosts the imported entries were sent to, in order of first appearance. */
  hosts: string[];
  /** What was left out, each with why: `METHOD URL` and the reason. */
  skipped: LeftOut[];
}

interface HarPair {
  name?: unknown;
  value?: unknown;
}

interface HarEntry {
  request?: {
    method?: unknown;
    url?: unknown;
    headers?: HarPair[];
    postData?: { text?: unknown; _encoding?: unknown; encoding?: unknown };
  };
  response?: {
    status?: unknown;
    headers?: HarPair[];
    content?: { text?: unknown; encoding?: unknown; size?: unknown };
  };
  _mockpoint?: { subpath?: unknown };
}

/** One request's key and the answers it had, in order. */
interface Group {
  match: RequestFilter;
  key: string;
  answers: RouteAnswer[];
  answerKeys: string[];
}

/** Headers that described the bytes on the wire, not the decoded content a HAR holds. */
const WIRE_ENCODING = new Set(['content-encoding', 'content-length', 'transfer-encoding']);
/** A header value that is a credential by its scheme (`Bearer …`, `Basic …`), whatever the header's name. */
const CREDENTIAL_VALUE = /^\s*(?:bearer|basic|digest|token|bot|apikey|aws4-hmac-sha256)\s+\S/i;
/** Headers whose `Bearer realm="…"` is a challenge, not a credential. */
const CHALLENGES = new Set(['www-authenticate', 'proxy-authenticate']);
/**
 * A request header whose name says it carries a credential (`X-Token`, `Private-Token`,
 * `X-Goog-Api-Key`, `X-Client-Secret`, `X-Session-Id`, `X-CSRF-Token`): its value is a secret
 * even when the recording's list does not name the header.
 */
const CREDENTIAL_NAME = /token|secret|passw|api-?key|apikey|auth|session|credential|signature|csrf|xsrf/i;
/** A secret shorter than this is not looked for elsewhere (`1` would be found everywhere). */
const MIN_SECRET_LENGTH = 8;

/**
 * The secrets one request sent: the values of its redacted headers (a `Bearer` token alone too, and
 * each cookie's value) and of its credential query parameters. Found elsewhere in the entry (another
 * query parameter, an answer's header), they are not written either.
 */
function secretsOf(entry: HarEntry, url: URL, redacted: ReadonlySet<string>): string[] {
  const found = new Set<string>();
  const add = (value: string) => {
    const trimmed = value.trim();
    if (trimmed.length >= MIN_SECRET_LENGTH) found.add(trimmed);
  };
  for (const pair of entry.request?.headers ?? []) {
    if (typeof pair?.name !== 'string' || typeof pair.value !== 'string') continue;
    const lower = pair.name.toLowerCase();
    if (lower.startsWith(':')) continue;
    if (!redacted.has(lower) && !CREDENTIAL_NAME.test(lower) && !CREDENTIAL_VALUE.test(pair.value)) continue;
    add(pair.value);
    if (CREDENTIAL_VALUE.test(pair.value)) add(pair.value.trim().replace(/^\S+\s+/, ''));
    if (lower === 'cookie') for (const cookie of pair.value.split(';')) add(cookie.slice(cookie.indexOf('=') + 1));
  }
  for (const [key, value] of url.searchParams) {
    if (REDACTED_QUERY.includes(key.toLowerCase()) || redacted.has(key.toLowerCase())) add(value);
  }
  return [...found];
}

/** Which body (the request's or the answer's) holds one of `secrets`, if one does. */
function bodyLeak(match: RequestFilter, answer: RouteAnswer, secrets: readonly string[]): string | undefined {
  if (secrets.length === 0) return undefined;
  const holds = (value: unknown) =>
    value !== undefined &&
    secrets.some((secret) => JSON.stringify(value).includes(JSON.stringify(secret).slice(1, -1)));
  if (holds(match.body)) return 'its request body';
  const { body, data, bodyBase64 } = answer as { body?: unknown; data?: unknown; bodyBase64?: unknown };
  if (holds(body) || holds(data)) return "its answer's body";
  if (typeof bodyBase64 === 'string') {
    const text = new TextDecoder().decode(base64Bytes(bodyBase64));
    if (secrets.some((secret) => text.includes(secret))) return "its answer's body";
  }
  return undefined;
}

/** Routes one import writes at most (the daemon's default route limit). */
const MAX_ROUTES = 10_000;

/** The entries of a HAR document, or `INVALID_HAR` naming the file. */
function entriesOf(text: string, file: string): HarEntry[] {
  let har: { log?: { entries?: unknown } };
  try {
    har = JSON.parse(text) as typeof har;
  } catch (error) {
    throw new MockpointError('INVALID_HAR', `${file}: not JSON: ${(error as Error).message}`);
  }
  const entries = har?.log?.entries;
  if (!Array.isArray(entries)) {
    throw new MockpointError(
      'INVALID_HAR',
      `${file}: a HAR file is {"log":{"entries":[…]}}; it has no log.entries list`,
    );
  }
  return entries as HarEntry[];
}

/** True when `text` is plainly a HAR document (`{"log": {… "entries": …}}`). */
export function isHar(text: string): boolean {
  try {
    const parsed = JSON.parse(text) as { log?: { entries?: unknown } };
    return Array.isArray(parsed?.log?.entries);
  } catch {
    return false;
  }
}

/**
 * Why a body of `text` (base64 when `base64`) is too big for a route, or
 * `undefined`: told from its length alone, before anything is decoded.
 */
function overBound(text: string, base64: boolean, bound: number, what: string): string | undefined {
  // A UTF-16 unit is at least one byte of UTF-8; 4 base64 characters are 3 bytes.
  const bytes = base64 ? Math.floor((text.length * 3) / 4) : text.length <= bound ? utf8Length(text) : text.length;
  if (bytes <= bound) return undefined;
  return `${what} is ${base64 ? 'about ' : 'at least '}${bytes} bytes, over the ${bound}-byte body limit (MOCKPOINT_MAX_BODY_BYTES): no route carries it`;
}

/** The answer's body bytes as the HAR holds them, or why not. */
function contentBytes(content: NonNullable<HarEntry['response']>['content'], bound: number): Uint8Array | string {
  if (content === undefined || typeof content.text !== 'string') {
    return typeof content?.size === 'number' && content.size > 0
      ? `the HAR holds no text of its ${content.size}-byte body`
      : new Uint8Array(0);
  }
  const over = overBound(content.text, content.encoding === 'base64', bound, 'its body');
  if (over !== undefined) return over;
  if (content.encoding === 'base64') {
    return isBase64(content.text) ? base64Bytes(content.text) : 'its base64 body is not base64';
  }
  if (content.encoding !== undefined) return `its body's encoding ${JSON.stringify(content.encoding)} is not base64`;
  return new TextEncoder().encode(content.text);
}

/** The route answer of one HAR response, or why it cannot be one. */
function answerOf(
  response: HarEntry['response'],
  method: string,
  redacted: Set<string>,
  bound: number,
  secrets: readonly string[],
  note: (what: string, why: string) => void,
): RouteAnswer | string {
  const status = response?.status;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 200 || status > 599) {
    return `its status ${JSON.stringify(status ?? null)} is not an answer of 200-599 (a failed or redirected request?)`;
  }
  const headers: AnswerHeaders = {};
  for (const pair of response?.headers ?? []) {
    if (typeof pair?.name !== 'string' || typeof pair.value !== 'string') continue;
    const lower = pair.name.toLowerCase();
    // HTTP/2 pseudo-headers, framing and encodings of the wire: not headers of the answer as served here.
    if (lower.startsWith(':') || FORBIDDEN_HEADERS.has(lower) || WIRE_ENCODING.has(lower)) continue;
    // A secret is left out, as a recording leaves it out (never written, never served).
    if (redacted.has(lower)) continue;
    // A credential under another name (`X-Upstream-Auth: Bearer …`), or a token the request sent: not written either.
    if (!CHALLENGES.has(lower) && CREDENTIAL_VALUE.test(pair.value)) {
      note(
        `its answer's header ${JSON.stringify(pair.name.slice(0, 64))}`,
        'its value is a credential (Bearer, Basic, …): never written',
      );
      continue;
    }
    const text = pair.value;
    if (secrets.some((secret) => text.includes(secret))) {
      note(
        `its answer's header ${JSON.stringify(pair.name.slice(0, 64))}`,
        'its value holds a credential the request sent: never written',
      );
      continue;
    }
    // The moment of that answer (`Date`, `Age`): a replay sends its own.
    if (FRESH_HEADERS.has(lower)) continue;
    // A header no route can carry (CR/LF, a control character, a name that is no token): this entry only is left out.
    const problem = headerNameProblem(pair.name) ?? headerValueProblem(pair.value);
    if (problem !== undefined) return `its answer's header ${JSON.stringify(pair.name.slice(0, 64))}: ${problem}`;
    const seen = headers[lower];
    const value = pair.value;
    headers[lower] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  const answer: RouteAnswer = { statusCode: status };
  if (Object.keys(headers).length > 0) answer.headers = headers;
  if (BODILESS_STATUS.has(status) || method === 'HEAD') return answer;
  const bytes = contentBytes(response?.content, bound);
  if (typeof bytes === 'string') return bytes;
  const type = headers['content-type'];
  return Object.assign(answer, exactBody(bytes, Array.isArray(type) ? type[0] : type));
}

/** The request filter of one HAR request, or why it cannot be matched exactly. */
function matchOf(
  entry: HarEntry,
  url: URL,
  method: string,
  bound: number,
  redacted: ReadonlySet<string>,
  secrets: readonly string[],
): RequestFilter | string {
  const subpath = typeof entry._mockpoint?.subpath === 'string' ? entry._mockpoint.subpath : url.pathname;
  const match: RequestFilter = { method, path: literalPattern(subpath) };
  // Credentials in the query (access_token, api_key, …) by presence: their values are never written.
  if (url.search.length > 1) {
    const query = redactedQuery(parseQuery(url.searchParams), redacted);
    // A token the request also sent in a header (`?auth=<the bearer token>`): by presence too.
    for (const [key, value] of Object.entries(query)) {
      const values = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
      if (values.some((one) => secrets.some((secret) => one.includes(secret)))) query[key] = { matches: '(?s).*' };
    }
    match.query = query;
  }
  const post = entry.request?.postData;
  if (typeof post?.text === 'string' && post.text !== '') {
    const base64 = post._encoding === 'base64' || post.encoding === 'base64';
    const over = overBound(post.text, base64, bound, 'its request body');
    if (over !== undefined) return over;
    if (base64) {
      const bytes = isBase64(post.text) ? base64Bytes(post.text) : undefined;
      if (bytes === undefined) return 'its request body is marked base64 but is not base64';
      // Bytes that are not UTF-8 are compared as the journal keeps them: their base64.
      match.body = utf8Text(bytes, false) ?? toBase64(bytes);
    } else match.body = post.text;
  } else if (['POST', 'PUT', 'PATCH'].includes(method)) match.body = '';
  return match;
}

/** A short stable name for a request: 12 hex digits of its SHA-256. */
async function digest(key: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(key)));
  return [...bytes.slice(0, 6)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The routes of one request: one answer, or its answers in order through a scenario of its own. */
async function routesOf(group: Group): Promise<Route[]> {
  const hash = await digest(group.key);
  if (group.answers.length === 1)
    return [{ id: `har-${hash}`, match: group.match, answer: group.answers[0] as RouteAnswer }];
  const scenario = `har-${hash}`;
  return group.answers.map((answer, index) => {
    const at = index === 0 ? 'started' : String(index + 1);
    const step: Route = {
      id: `har-${hash}-${index + 1}`,
      match: { ...group.match, state: { [scenario]: at } },
      answer,
    };
    if (index < group.answers.length - 1) step.answer = { ...answer, setState: { [scenario]: String(index + 2) } };
    return step;
  });
}

/**
 * The mock file of a HAR document: one endpoint `name` with a route per
 * distinct request (see the module's comment). Throws `INVALID_HAR` when the
 * text is not a HAR document.
 */
export async function harMockFile(text: string, options: HarImportOptions): Promise<HarImport> {
  const file = options.file ?? 'import.har';
  const redacted = redactedNames(options);
  const bound = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const entries = entriesOf(text, file);
  const groups = new Map<string, Group>();
  const skipped: LeftOut[] = [];
  const hosts: string[] = [];
  let imported = 0;
  let otherHost = 0;
  for (const entry of entries) {
    const method = typeof entry?.request?.method === 'string' ? entry.request.method.toUpperCase() : '';
    const rawUrl = typeof entry?.request?.url === 'string' ? entry.request.url : '';
    const where = `${method || '?'} ${rawUrl.slice(0, 200) || '?'}`;
    const url = URL.canParse(rawUrl) ? new URL(rawUrl) : undefined;
    if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:') || !/^[A-Z]{1,16}$/.test(method)) {
      skipped.push({ what: where, why: 'not an http(s) request with a method' });
      continue;
    }
    if (options.host !== undefined && url.host !== options.host && url.hostname !== options.host) {
      otherHost++;
      continue;
    }
    const secrets = secretsOf(entry, url, redacted);
    const match = matchOf(entry, url, method, bound, redacted, secrets);
    if (typeof match === 'string') {
      skipped.push({ what: where, why: match });
      continue;
    }
    const answer = answerOf(entry.response, method, redacted, bound, secrets, (what, why) =>
      skipped.push({ what: `${where}: ${what}`, why }),
    );
    if (typeof answer === 'string') {
      skipped.push({ what: where, why: answer });
      continue;
    }
    // A body that holds a credential the request sent (a token echoed back): the entry is left out, never written.
    const leaked = bodyLeak(match, answer, secrets);
    if (leaked !== undefined) {
      skipped.push({ what: where, why: `${leaked} holds a credential the request sent: never written` });
      continue;
    }
    if (!hosts.includes(url.host)) hosts.push(url.host);
    imported++;
    const key = JSON.stringify([match.method, match.path, match.query ?? {}, match.body ?? null]);
    let group = groups.get(key);
    if (group === undefined) {
      group = { match, key, answers: [], answerKeys: [] };
      groups.set(key, group);
    }
    const answerKey = stringifyExact(answer);
    // The same answer again right after itself is the same step; a change of answer is a new step.
    if (group.answerKeys.at(-1) !== answerKey) {
      group.answers.push(answer);
      group.answerKeys.push(answerKey);
    }
  }
  if (otherHost > 0)
    skipped.push({
      what: `${otherHost} entr${otherHost === 1 ? 'y' : 'ies'}`,
      why: `sent to hosts other than ${options.host}`,
    });
  const routes: Route[] = [];
  for (const group of groups.values()) routes.push(...(await routesOf(group)));
  if (routes.length > MAX_ROUTES) {
    throw new MockpointError(
      'INVALID_HAR',
      `${file}: ${routes.length} routes, more than a name holds by default (${MAX_ROUTES}); import one host at a time (--host)`,
    );
  }
  const body = stringifyExact({ version: 1, endpoints: [{ name: options.name, routes }] }, 2);
  return { text: `${body}\n`, routes: routes.length, entries: entries.length, imported, hosts, skipped };
}
