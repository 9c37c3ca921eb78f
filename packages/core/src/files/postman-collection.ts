/**
 * A Postman collection (v2.1, as Postman exports it and the
 * `postman-collection` SDK's `toJSON()` writes it) as a mock file: each
 * request's saved example responses become routes that answer them byte for
 * byte.
 *
 * - The route's path is the request URL's path after the collection's own
 *   variables are put in (`{{baseUrl}}/users/:id` with `baseUrl` =
 *   `https://api.example.com/v1` → `/v1/users/:id`); Postman's `:id` path
 *   variables are route parameters, and a `{{variable}}` the collection does
 *   not define is one too (listed).
 * - Ids keep the folders: `Users-Get-user`, then `-2`, … for more examples.
 * - Several examples of one request are told apart by the query and the body
 *   of the request each was saved with (its `originalRequest`), the most
 *   specific first; examples saved with the same request are one answer: the
 *   first, the others listed.
 * - Scripts, auth and requests without an example are listed, never dropped
 *   silently.
 *
 * @module
 */

import type { RequestFilter } from '../api/journal-json.js';
import { type AnswerHeaders, FORBIDDEN_HEADERS, type Route, type RouteAnswer } from '../api/route.js';
import { headerNameProblem, headerValueProblem } from '../codec/http-header.js';
import { stringifyExact } from '../codec/json-text.js';
import { PathPatternError, parsePathPattern } from '../pattern/path-pattern.js';
import { MockpointError } from '../registry/errors.js';
import { IdSet, safeEncode, slugOf } from './import-ids.js';
import type { LeftOut } from './left-out.js';
import { MOCK_FILE_VERSION } from './mock-file-schema.js';

/** Options for {@link postmanMockFile}. */
export interface PostmanImportOptions {
  /** The endpoint's name. */
  name: string;
  /** The collection file's name, for messages. @default 'collection.json' */
  file?: string;
}

/** What {@link postmanMockFile} made. */
export interface PostmanImport {
  /** The mock file, JSON. */
  text: string;
  routes: number;
  /** Requests read, and how many became routes. */
  requests: number;
  imported: number;
  leftOut: LeftOut[];
}

interface KeyValue {
  key?: unknown;
  value?: unknown;
  disabled?: unknown;
}

interface PostmanUrl {
  raw?: unknown;
  protocol?: unknown;
  host?: unknown;
  port?: unknown;
  path?: unknown;
  query?: KeyValue[];
  variable?: KeyValue[];
}

interface PostmanRequest {
  method?: unknown;
  url?: PostmanUrl | string;
  header?: KeyValue[];
  body?: { mode?: unknown; raw?: unknown; urlencoded?: KeyValue[]; disabled?: unknown };
  auth?: unknown;
}

interface PostmanResponse {
  name?: unknown;
  originalRequest?: PostmanRequest;
  code?: unknown;
  header?: unknown;
  body?: unknown;
}

interface PostmanItem {
  name?: unknown;
  item?: PostmanItem[];
  request?: PostmanRequest | string;
  response?: PostmanResponse[];
  event?: unknown[];
}

interface PostmanCollection {
  info?: { name?: unknown; schema?: unknown };
  item?: PostmanItem[];
  variable?: KeyValue[];
  event?: unknown[];
  auth?: unknown;
}

/** Routes one import writes at most (the daemon's default route limit). */
const MAX_ROUTES = 10_000;
/** How deep folders may nest (a hostile file could nest without end). */
const MAX_DEPTH = 64;
/** Headers of the bytes on the wire, not of the decoded body an example holds. */
const WIRE_HEADERS = new Set(['content-encoding', 'content-length', 'transfer-encoding']);

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/** True when `text` is plainly a Postman collection: `info` (a Postman schema, or a name) and an `item` list. */
export function isPostmanCollection(text: string): boolean {
  try {
    const parsed = JSON.parse(text) as PostmanCollection;
    return (
      typeof parsed?.info === 'object' &&
      parsed.info !== null &&
      Array.isArray(parsed.item) &&
      (str(parsed.info.schema).includes('schema.getpostman.com') || typeof parsed.info.name === 'string')
    );
  } catch {
    return false;
  }
}

/** `text` with the collection's `{{variables}}` put in; the names it does not define are added to `unknown`. */
function resolve(text: string, variables: ReadonlyMap<string, string>, unknown: Set<string>): string {
  // Values may name other variables; a few rounds at most (a variable naming itself stops).
  let out = text;
  for (let round = 0; round < 4 && out.includes('{{'); round++) {
    out = out.replace(/\{\{([^{}]+)\}\}/g, (whole, name: string) => {
      const value = variables.get(name.trim());
      return value === undefined ? whole : value;
    });
  }
  for (const found of out.matchAll(/\{\{([^{}]+)\}\}/g)) unknown.add((found[1] as string).trim());
  return out;
}

/** The URL of a request as one text (`raw`, or put together from its parts as Postman does). */
function rawUrl(url: PostmanUrl | string | undefined): string {
  if (typeof url === 'string') return url;
  if (url === undefined || url === null) return '';
  if (typeof url.raw === 'string' && url.raw !== '') return url.raw;
  const host = Array.isArray(url.host) ? url.host.map(str).join('.') : str(url.host);
  const path = Array.isArray(url.path) ? url.path.map(str).join('/') : str(url.path).replace(/^\//, '');
  const protocol = str(url.protocol);
  const port = typeof url.port === 'string' || typeof url.port === 'number' ? `:${url.port}` : '';
  return `${protocol === '' ? '' : `${protocol}://`}${host}${port}/${path}`;
}

/** The path of a URL text (`https://h/v1/a?x` → `/v1/a`; `h/a`, `/a` as well). */
function pathOfUrl(url: string): string {
  let rest = url.replace(/^[A-Za-z][A-Za-z0-9+.-]*:\/\//, '');
  const cut = rest.search(/[?#]/);
  if (cut !== -1) rest = rest.slice(0, cut);
  if (rest.startsWith('/')) return rest;
  const slash = rest.indexOf('/');
  return slash === -1 ? '/' : rest.slice(slash);
}

/** The enabled query parameters of a request (its `url.query`, else those of its raw URL), repeated keys as lists. */
function queryOf(
  url: PostmanUrl | string | undefined,
  variables: ReadonlyMap<string, string>,
): Record<string, string | string[]> {
  const pairs: [string, string][] = [];
  const unknown = new Set<string>();
  if (typeof url === 'object' && url !== null && Array.isArray(url.query)) {
    for (const pair of url.query) {
      if (pair?.disabled === true || typeof pair?.key !== 'string') continue;
      pairs.push([resolve(pair.key, variables, unknown), resolve(str(pair.value), variables, unknown)]);
    }
  } else {
    const raw = rawUrl(url);
    const at = raw.indexOf('?');
    if (at !== -1) {
      for (const [key, value] of new URLSearchParams(
        resolve(raw.slice(at + 1).split('#')[0] ?? '', variables, unknown),
      )) {
        pairs.push([key, value]);
      }
    }
  }
  const query: Record<string, string | string[]> = {};
  for (const [key, value] of pairs) {
    const seen = Object.hasOwn(query, key) ? query[key] : undefined;
    query[key] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return query;
}

/** What a request's body is, as a route matches it: parsed JSON (a subset) or its exact text; `undefined` when none. */
function bodyOf(request: PostmanRequest | undefined, variables: ReadonlyMap<string, string>): unknown {
  const body = request?.body;
  if (body === undefined || body === null || body.disabled === true) return undefined;
  const unknown = new Set<string>();
  if (body.mode === 'raw' && typeof body.raw === 'string' && body.raw !== '') {
    const text = resolve(body.raw, variables, unknown);
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === 'object' && parsed !== null) return parsed;
    } catch {
      // not JSON: matched as its exact text
    }
    return text;
  }
  if (body.mode === 'urlencoded' && Array.isArray(body.urlencoded)) {
    const params = new URLSearchParams();
    for (const pair of body.urlencoded) {
      if (pair?.disabled !== true && typeof pair?.key === 'string') params.append(pair.key, str(pair.value));
    }
    const text = params.toString();
    return text === '' ? undefined : text;
  }
  return undefined;
}

/** The path of a request as a route pattern, the names it left as parameters, or why it cannot be one. */
function routePath(
  url: PostmanUrl | string | undefined,
  variables: ReadonlyMap<string, string>,
): { path: string; unknown: string[] } | string {
  const unknown = new Set<string>();
  const path = pathOfUrl(resolve(rawUrl(url), variables, unknown));
  // Postman's :name path variables are parameters here; an undefined {{name}} matches any segment.
  const segments = path.split('/').map((segment) => {
    const whole = /^\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}$/.exec(segment);
    if (whole !== null) return `:${whole[1]}`;
    if (segment.startsWith(':')) return segment;
    let decoded = segment;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      // a malformed escape is compared as it is
    }
    return safeEncode(decoded);
  });
  if (segments.some((segment) => segment === undefined)) return 'it is not text a URL can carry (a lone surrogate)';
  const pattern = segments.join('/') || '/';
  try {
    parsePathPattern(pattern);
  } catch (error) {
    if (error instanceof PathPatternError) return error.message;
    throw error;
  }
  return { path: pattern, unknown: [...unknown] };
}

/** The answer of a saved example: its status, headers (framing and wire encodings left out) and exact body. */
function answerOf(example: PostmanResponse, method: string, dropped: string[]): RouteAnswer | string {
  const code = example.code ?? 200;
  if (typeof code !== 'number' || !Number.isInteger(code) || code < 200 || code > 599) {
    return `its status ${JSON.stringify(code)} is not an answer of 200-599`;
  }
  const answer: RouteAnswer = { statusCode: code };
  const headers: AnswerHeaders = {};
  for (const pair of Array.isArray(example.header) ? (example.header as KeyValue[]) : []) {
    if (typeof pair?.key !== 'string' || typeof pair.value !== 'string' || pair.disabled === true) continue;
    const lower = pair.key.toLowerCase();
    if (FORBIDDEN_HEADERS.has(lower) || WIRE_HEADERS.has(lower)) continue;
    const problem = headerNameProblem(pair.key) ?? headerValueProblem(pair.value);
    if (problem !== undefined) {
      dropped.push(`header ${JSON.stringify(pair.key.slice(0, 80))}: ${problem}`);
      continue;
    }
    const seen = headers[lower];
    headers[lower] = seen === undefined ? pair.value : Array.isArray(seen) ? [...seen, pair.value] : [seen, pair.value];
  }
  if (Object.keys(headers).length > 0) answer.headers = headers;
  if (typeof example.body === 'string' && example.body !== '' && method !== 'HEAD' && ![204, 205, 304].includes(code)) {
    answer.body = example.body;
  }
  return answer;
}

/** One request's examples as routes. */
interface Example {
  name: string;
  answer: RouteAnswer;
  query: Record<string, string | string[]>;
  body: unknown;
  key: string;
}

class Converter {
  readonly routes: Route[] = [];
  readonly leftOut: LeftOut[] = [];
  readonly ids = new IdSet();
  requests = 0;
  imported = 0;

  constructor(readonly variables: ReadonlyMap<string, string>) {}

  out(what: string, why: string): void {
    this.leftOut.push({ what, why });
  }

  walk(items: PostmanItem[] | undefined, folders: string[], depth: number): void {
    if (!Array.isArray(items)) return;
    if (depth > MAX_DEPTH) {
      this.out(folders.join(' / '), `folders nested deeper than ${MAX_DEPTH}`);
      return;
    }
    for (const item of items) {
      if (item === null || typeof item !== 'object') continue;
      const name = str(item.name) || 'request';
      if (Array.isArray(item.item)) {
        if (Array.isArray(item.event) && item.event.length > 0) {
          this.out([...folders, name].join(' / '), "a folder's scripts (pre-request, test) are not run");
        }
        this.walk(item.item, [...folders, name], depth + 1);
      } else this.request(item, [...folders, name]);
    }
  }

  request(item: PostmanItem, names: string[]): void {
    this.requests++;
    const what = names.join(' / ');
    if (Array.isArray(item.event) && item.event.length > 0)
      this.out(what, 'its scripts (pre-request, test) are not run');
    const request: PostmanRequest = typeof item.request === 'string' ? { url: item.request } : (item.request ?? {});
    const examples = Array.isArray(item.response)
      ? item.response.filter((one) => one !== null && typeof one === 'object')
      : [];
    if (examples.length === 0) {
      this.out(what, 'no saved example response to answer with (save one in Postman: "Add example")');
      return;
    }
    const method = (str(request.method) || 'GET').toUpperCase();
    if (!/^[A-Z]{1,16}$/.test(method)) {
      this.out(what, `its method ${JSON.stringify(method)} is not an HTTP method`);
      return;
    }
    const path = routePath(request.url, this.variables);
    if (typeof path === 'string') {
      this.out(what, `its URL's path cannot be a route's: ${path}`);
      return;
    }
    for (const name of path.unknown) {
      this.out(
        `${what}: {{${name}}}`,
        'the collection does not define this variable: its segment matches any value (a route parameter)',
      );
    }
    const made: Example[] = [];
    examples.forEach((example, index) => {
      const label = `${what} example ${JSON.stringify(str(example.name) || String(index + 1))}`;
      const dropped: string[] = [];
      const answer = answerOf(example, method, dropped);
      for (const why of dropped) this.out(label, why);
      if (typeof answer === 'string') {
        this.out(label, answer);
        return;
      }
      const original = example.originalRequest ?? request;
      const query = queryOf(original.url, this.variables);
      const body = bodyOf(original, this.variables);
      const key = JSON.stringify([query, body ?? null]);
      const same = made.find((one) => one.key === key);
      if (same !== undefined) {
        this.out(
          label,
          `saved with the same request (query and body) as example ${JSON.stringify(same.name)}, which answers it`,
        );
        return;
      }
      made.push({ name: str(example.name) || String(index + 1), answer, query, body, key });
    });
    if (made.length === 0) return;
    this.imported++;
    const base = slugOf(names.join('-'), 'request');
    if (made.length === 1) {
      this.routes.push({
        id: this.ids.take(base),
        match: { method, path: path.path },
        answer: (made[0] as Example).answer,
      });
      return;
    }
    // The most specific first: a request that fits several examples gets the one that names the most.
    const weight = (example: Example) => Object.keys(example.query).length + (example.body === undefined ? 0 : 1);
    const ordered = made
      .map((example, index) => ({ example, index }))
      .sort((a, b) => weight(b.example) - weight(a.example) || a.index - b.index);
    for (const { example } of ordered) {
      const match: RequestFilter = { method, path: path.path };
      if (Object.keys(example.query).length > 0) match.query = example.query;
      if (example.body !== undefined) match.body = example.body;
      this.routes.push({ id: this.ids.take(base), match, answer: example.answer });
    }
  }
}

/**
 * The mock file of a Postman collection v2.1: one endpoint `name` (see the
 * module's comment). Throws `INVALID_POSTMAN` when the text is not one.
 */
export function postmanMockFile(text: string, options: PostmanImportOptions): PostmanImport {
  const file = options.file ?? 'collection.json';
  let collection: PostmanCollection;
  try {
    collection = JSON.parse(text) as PostmanCollection;
  } catch (error) {
    throw new MockpointError('INVALID_POSTMAN', `${file}: not JSON: ${(error as Error).message}`);
  }
  if (collection === null || typeof collection !== 'object' || !Array.isArray(collection.item)) {
    throw new MockpointError(
      'INVALID_POSTMAN',
      `${file}: a Postman collection v2.1 is a JSON object with "info" and an "item" list (export it from Postman as Collection v2.1)`,
    );
  }
  const schema = str(collection.info?.schema);
  if (schema !== '' && !schema.includes('v2.1') && !schema.includes('v2.0')) {
    throw new MockpointError(
      'INVALID_POSTMAN',
      `${file}: its schema is ${schema}; export it from Postman as Collection v2.1`,
    );
  }
  const variables = new Map<string, string>();
  for (const variable of Array.isArray(collection.variable) ? collection.variable : []) {
    if (typeof variable?.key === 'string' && variable.disabled !== true && variable.value !== undefined) {
      variables.set(variable.key, typeof variable.value === 'string' ? variable.value : JSON.stringify(variable.value));
    }
  }
  const converter = new Converter(variables);
  if (Array.isArray(collection.event) && collection.event.length > 0) {
    converter.out('the collection', 'its scripts (pre-request, test) are not run');
  }
  if (collection.auth !== undefined && collection.auth !== null) {
    converter.out('the collection', 'its auth is not checked: every request is answered');
  }
  converter.walk(collection.item, [], 0);
  if (converter.routes.length > MAX_ROUTES) {
    throw new MockpointError(
      'INVALID_POSTMAN',
      `${file}: ${converter.routes.length} routes, more than a name holds by default (${MAX_ROUTES}); import its folders as several collections`,
    );
  }
  // A literal path before a pattern that would take it too (`/users/404` before `/users/:id`), as Postman's
  // mock server prefers the closest match; otherwise the collection's order.
  const params = (route: Route) =>
    (typeof route.match?.path === 'string' ? route.match.path : '')
      .split('/')
      .filter((segment) => segment.startsWith(':')).length;
  const routes = converter.routes.map((route, index) => ({ route, index }));
  routes.sort((a, b) => params(a.route) - params(b.route) || a.index - b.index);
  converter.routes.splice(0, converter.routes.length, ...routes.map(({ route }) => route));
  const out = stringifyExact(
    { version: MOCK_FILE_VERSION, endpoints: [{ name: options.name, routes: converter.routes }] },
    2,
  );
  return {
    text: `${out}\n`,
    routes: converter.routes.length,
    requests: converter.requests,
    imported: converter.imported,
    leftOut: converter.leftOut,
  };
}
