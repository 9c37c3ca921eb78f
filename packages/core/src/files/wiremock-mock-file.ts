/**
 * WireMock stub mappings as a mock file: one endpoint whose routes answer as
 * the mappings do. A mapping file (`{ request, response }`), a
 * `{ "mappings": [...] }` file, or every file of a `mappings/` folder as
 * WireMock's recorder writes it, with the bodies of `__files/` given by the
 * caller ({@link WireMockImportOptions.bodyFile}; this module reads no file).
 *
 * What a route expresses is carried over exactly (method, literal paths, query
 * and header values, cookies, exact and JSON bodies, status, headers, body
 * bytes, delays, faults, scenarios as state machines); what it does not is
 * listed in `skipped` with the reason, never dropped silently. A request
 * condition is never dropped nor loosened: a matcher with no equivalent leaves
 * its whole mapping out, so a route never answers a request WireMock refuses. Regular expressions
 * (`urlPattern`, `urlPathPattern`, `matches` / `doesNotMatch` on a query
 * parameter, a header or the body) become the filter's regex form, run by RE2
 * in linear time; a pattern RE2 cannot run (lookaround, backreferences, …)
 * leaves its mapping out, named with the construct.
 *
 * @module
 */
import { literalPattern } from '../answer/proxy/recording.js';
import type { RequestFilter } from '../api/journal-json.js';
import { type AnswerHeaders, FORBIDDEN_HEADERS, type Route, type RouteAnswer } from '../api/route.js';
import { base64Bytes, isBase64, toBase64 } from '../codec/base64.js';
import { HEADER_VALUE_PATTERN, headerNameProblem, isHeaderName } from '../codec/http-header.js';
import { JsonText, scanJson, stringifyExact } from '../codec/json-text.js';
import { quoted } from '../codec/quoted.js';
import { utf8Text } from '../codec/utf8.js';
import { valueMatcherProblem } from '../pattern/value-pattern.js';
import { MockpointError } from '../registry/errors.js';
import { DEFAULT_MAX_DELAY_MS } from '../registry/record-defaults.js';
import type { LeftOut } from './left-out.js';
import { type MockFile, parseMockFile } from './parse-mock-file.js';
import { latencyFromWireMock } from './wiremock-delay.js';
import { addBodyPatterns, cookieMatch, exactValue, quoteRegex, type ValueCondition } from './wiremock-matchers.js';

/** One file of mappings: its name (for messages) and its text. */
export interface WireMockFile {
  file: string;
  text: string;
}

/** Options for {@link wireMockMockFile}. */
export interface WireMockImportOptions {
  /** The endpoint's name. */
  name: string;
  /**
   * The bytes of a `bodyFileName` (below `__files/`), or why it cannot be read;
   * absent: every `bodyFileName` is left out (a single file was imported, not a folder).
   */
  bodyFile?: (name: string) => Uint8Array | string;
}

/** What {@link wireMockMockFile} made. */
export interface WireMockImport {
  /** The mock file, JSON. */
  text: string;
  /** Mappings read, and routes written. */
  mappings: number;
  routes: number;
  /** The scenarios (state machines) the routes use, as named in the file written. */
  scenarios: string[];
  /** What was left out, each with why. */
  skipped: LeftOut[];
  /** The file as checked (`parseMockFile` of `text`): a caller need not check it again. */
  parsed: MockFile;
}

/** Routes one import writes at most (the daemon's default route limit). */
const MAX_ROUTES = 10_000;
/** WireMock's default priority (lower answers first). */
const DEFAULT_PRIORITY = 5;
/** Fields of a mapping that describe it and change nothing it answers. */
const DESCRIPTIVE = new Set(['id', 'uuid', 'name', 'persistent', 'metadata', 'insertionIndex']);
const REQUEST_FIELDS = new Set([
  'method',
  'url',
  'urlPath',
  'urlPattern',
  'urlPathPattern',
  'urlPathTemplate',
  'queryParameters',
  'headers',
  'cookies',
  'bodyPatterns',
  'basicAuthCredentials',
]);
const RESPONSE_FIELDS = new Set([
  'status',
  'headers',
  'body',
  'jsonBody',
  'base64Body',
  'bodyFileName',
  'fixedDelayMilliseconds',
  'fault',
  'transformers',
]);
/** WireMock's faults as mockpoint's, and what differs. */
const FAULTS: Record<string, { fault: 'reset' | 'close'; differs?: string }> = {
  CONNECTION_RESET_BY_PEER: { fault: 'reset' },
  EMPTY_RESPONSE: { fault: 'reset', differs: 'answered as a reset connection (the client sees no answer either way)' },
  MALFORMED_RESPONSE_CHUNK: {
    fault: 'close',
    differs: 'answered as close: the status, headers and half the body, then the connection closes',
  },
  RANDOM_DATA_THEN_CLOSE: { fault: 'reset', differs: 'answered as a reset connection, without the random bytes first' },
};

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether `value` is one WireMock mapping: `{ request, response }` objects. */
function isMapping(value: unknown): boolean {
  return isObject(value) && isObject(value.request) && isObject(value.response);
}

/**
 * Whether `text` is plainly WireMock: `{ "mappings": [...] }`, one
 * `{ request, response }` mapping, or an array of them.
 */
export function isWireMock(text: string): boolean {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return false;
  }
  if (Array.isArray(value)) return value.length > 0 && value.every(isMapping);
  if (!isObject(value)) return false;
  if (Array.isArray(value.mappings)) return true;
  return isObject(value.request) && isObject(value.response);
}

/** One mapping, with the exact text of its `response.jsonBody` and where it came from. */
interface Mapping {
  value: Json;
  jsonBody?: string;
  where: string;
  order: number;
}

/** The exact (minified) text of `response.jsonBody` of a mapping's text, when it has one. */
function jsonBodyText(mappingText: string): string | undefined {
  const response = scanJson(mappingText).members?.get('response');
  if (response === undefined || !response.startsWith('{')) return undefined;
  return scanJson(response).members?.get('jsonBody');
}

/** The mappings of one file, in order. */
function mappingsOf(file: WireMockFile, order: { next: number }): Mapping[] {
  let scanned: ReturnType<typeof scanJson>;
  let value: unknown;
  try {
    scanned = scanJson(file.text);
    value = JSON.parse(file.text);
  } catch (error) {
    throw new MockpointError('INVALID_WIREMOCK', `${file.file}: not JSON: ${(error as Error).message}`, {
      cause: error,
    });
  }
  if (isObject(value) && Array.isArray(value.mappings)) {
    const texts = scanJson(scanned.members?.get('mappings') as string).elements ?? [];
    return value.mappings.map((mapping, index) => ({
      value: isObject(mapping) ? mapping : {},
      ...(isObject(mapping) && { jsonBody: jsonBodyText(texts[index] as string) }),
      where: `${file.file} mappings[${index}]`,
      order: order.next++,
    }));
  }
  if (Array.isArray(value)) {
    const texts = scanned.elements ?? [];
    return value.map((mapping, index) => ({
      value: isObject(mapping) ? mapping : {},
      ...(isObject(mapping) && { jsonBody: jsonBodyText(texts[index] as string) }),
      where: `${file.file} [${index}]`,
      order: order.next++,
    }));
  }
  if (isObject(value) && isObject(value.request) && isObject(value.response)) {
    return [{ value, jsonBody: jsonBodyText(file.text), where: file.file, order: order.next++ }];
  }
  throw new MockpointError(
    'INVALID_WIREMOCK',
    `${file.file}: not a WireMock mapping ({ "request": …, "response": … }) or { "mappings": [...] }`,
  );
}

/** The mapping's name for messages: its `name`, else its id, else where it is. */
function labelOf(mapping: Mapping): string {
  const { name, id, uuid } = mapping.value;
  const named = typeof name === 'string' ? name : typeof id === 'string' ? id : typeof uuid === 'string' ? uuid : '';
  return `mapping ${named === '' ? mapping.where : `"${named.slice(0, 80)}" (${mapping.where})`}`;
}

/** A path template (`/users/{id}`) as a path pattern, or `undefined` when a `{…}` is not a whole segment. */
function templatePath(template: string): string | undefined {
  const segments = template.split('/').slice(1);
  const out: string[] = [];
  for (const segment of segments) {
    const param = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(segment);
    if (param !== null) out.push(`:${param[1]}`);
    else if (segment.includes('{') || segment.includes('}')) return undefined;
    else out.push(literalPattern(`/${segment}`).slice(1));
  }
  return `/${out.join('/')}`;
}

/** Scenario names and state values as mockpoint's (1-64 of A-Z a-z 0-9 _ -), one to one. */
class StateNames {
  private readonly names = new Map<string, string>();
  private readonly taken = new Set<string>();
  of(name: string): string {
    const known = this.names.get(name);
    if (known !== undefined) return known;
    const base = name.replace(/[^A-Za-z0-9_-]+/g, '-').slice(0, 56) || 'state';
    let slug = base;
    for (let n = 2; this.taken.has(slug); n++) slug = `${base}-${n}`;
    this.names.set(name, slug);
    this.taken.add(slug);
    return slug;
  }
}

interface Converted {
  label: string;
  route: Route;
  priority: number;
  order: number;
}

/** The route of one mapping, or why it is left out whole; conditions it cannot carry are pushed to `skipped`. */
function routeOf(
  mapping: Mapping,
  options: WireMockImportOptions,
  scenarios: StateNames,
  values: StateNames,
  ids: Set<string>,
  skipped: LeftOut[],
): Converted | string {
  const label = labelOf(mapping);
  const note = (what: string, why: string) => skipped.push({ what: `${label}: ${what}`, why });
  const { request, response } = mapping.value;
  if (!isObject(request) || !isObject(response)) return 'a mapping has a request and a response object';
  for (const key of Object.keys(mapping.value)) {
    if (['request', 'response', 'priority', 'scenarioName', 'requiredScenarioState', 'newScenarioState'].includes(key))
      continue;
    if (DESCRIPTIVE.has(key)) continue;
    if (key === 'postServeActions' || key === 'serveEventListeners') {
      note(key, 'webhooks after an answer are not carried over; send them with mockpoint send or POST /api/deliveries');
    } else note(key, 'not a field mockpoint reads');
  }
  if (typeof response.proxyBaseUrl === 'string') {
    return `a proxy answer (proxyBaseUrl ${response.proxyBaseUrl.slice(0, 200)}): write a proxy route by hand, proxying is off unless the host is allowed (docs/files.md)`;
  }
  const match = requestMatch(request, note);
  if (typeof match === 'string') return match;
  const answer = responseAnswer(mapping, response, options, note);
  if (typeof answer === 'string') return answer;
  // Scenarios: WireMock's "Started" is mockpoint's `started`.
  const { scenarioName, requiredScenarioState, newScenarioState } = mapping.value;
  if (typeof scenarioName === 'string') {
    const scenario = scenarios.of(scenarioName);
    const state = (value: string) => (value === 'Started' ? 'started' : values.of(value));
    if (typeof requiredScenarioState === 'string') match.state = { [scenario]: state(requiredScenarioState) };
    if (typeof newScenarioState === 'string') answer.setState = { [scenario]: state(newScenarioState) };
  }
  const given = [mapping.value.id, mapping.value.uuid].find(
    (id): id is string => typeof id === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(id),
  );
  let id = given ?? `wiremock-${mapping.order + 1}`;
  while (ids.has(id)) id = `wiremock-${mapping.order + 1}-${ids.size}`;
  ids.add(id);
  const priority = typeof mapping.value.priority === 'number' ? mapping.value.priority : DEFAULT_PRIORITY;
  const route: Route = Object.keys(match).length > 0 ? { id, match, answer } : { id, answer };
  return { label, route, priority, order: mapping.order };
}

/** Notes a condition or field that is not carried over, and why. */
type Note = (what: string, why: string) => void;

/** The filter of a mapping's `request`, or why the mapping is left out whole. */
function requestMatch(request: Json, note: Note): RequestFilter | string {
  const match: RequestFilter = {};
  if (typeof request.method === 'string' && request.method.toUpperCase() !== 'ANY') {
    match.method = request.method.toUpperCase();
  }
  // The URL: one of five forms.
  if (typeof request.url === 'string') {
    // WireMock's `url` is the whole URL as sent, query included: no other query, nor none, matches it.
    const url = request.url.startsWith('/') ? request.url : `/${request.url}`;
    const [path = '/'] = url.split('?');
    match.path = literalPattern(path);
    match.url = { matches: quoteRegex(url) };
  } else if (typeof request.urlPath === 'string') {
    match.path = literalPattern(request.urlPath.startsWith('/') ? request.urlPath : `/${request.urlPath}`);
  } else if (typeof request.urlPathTemplate === 'string') {
    const path = templatePath(request.urlPathTemplate);
    if (path === undefined) return `the urlPathTemplate ${request.urlPathTemplate} has a {parameter} inside a segment`;
    match.path = path;
  } else if (typeof request.urlPattern === 'string' || typeof request.urlPathPattern === 'string') {
    const withQuery = typeof request.urlPattern === 'string';
    const source = (withQuery ? request.urlPattern : request.urlPathPattern) as string;
    const problem = valueMatcherProblem({ matches: source });
    if (problem !== undefined) {
      return `its ${withQuery ? 'urlPattern' : 'urlPathPattern'} ${JSON.stringify(source.slice(0, 200))}: ${problem}`;
    }
    if (withQuery) match.url = { matches: source };
    else match.path = { matches: source };
  }
  const unknown = Object.keys(request).find((key) => !REQUEST_FIELDS.has(key));
  if (unknown !== undefined) {
    return `request.${unknown.slice(0, 80)}: not a condition mockpoint checks, and a route without it would answer requests WireMock refuses`;
  }
  if (isObject(request.queryParameters)) {
    for (const [key, matcher] of Object.entries(request.queryParameters)) {
      const value = exactValue(matcher, (count) =>
        note(
          `query parameter ${key.slice(0, 80)} hasExactly`,
          `its ${count} values are taken in the order written; WireMock also takes them in another order`,
        ),
      );
      if (typeof value === 'object' && 'refused' in value) return `query parameter ${key}: ${value.refused}`;
      match.query = { ...match.query, [key]: value };
    }
  }
  const headers: Record<string, Exclude<ValueCondition, string[]>> = {};
  if (isObject(request.headers)) {
    for (const [name, matcher] of Object.entries(request.headers)) {
      const value = exactValue(matcher);
      if (typeof value === 'object' && 'refused' in value) return `header ${name.slice(0, 80)}: ${value.refused}`;
      if (Array.isArray(value))
        return `header ${name.slice(0, 80)}: hasExactly of several values has no equivalent here`;
      if (!isHeaderName(name)) return `header ${JSON.stringify(name.slice(0, 80))}: not a header name`;
      headers[name.toLowerCase()] = value;
    }
  }
  if (isObject(request.basicAuthCredentials)) {
    const { username, password } = request.basicAuthCredentials;
    headers.authorization = `Basic ${toBase64(new TextEncoder().encode(`${String(username)}:${String(password)}`))}`;
  }
  if (isObject(request.cookies)) {
    const cookie = cookieMatch(request.cookies, headers.cookie);
    if (typeof cookie === 'string') return cookie;
    if (cookie !== undefined) headers.cookie = cookie;
  }
  if (Object.keys(headers).length > 0) match.headers = headers;
  if (Array.isArray(request.bodyPatterns)) {
    const refused = addBodyPatterns(match, request.bodyPatterns);
    if (refused !== undefined) return refused;
  }
  return match;
}

/** The answer of a mapping's `response`, or why the mapping is left out whole. */
function responseAnswer(
  mapping: Mapping,
  response: Json,
  options: WireMockImportOptions,
  note: Note,
): RouteAnswer | string {
  const answer: RouteAnswer = {};
  for (const key of Object.keys(response)) {
    if (RESPONSE_FIELDS.has(key)) continue;
    if (key === 'statusMessage') note('response.statusMessage', 'the reason phrase is the standard one for the status');
    else if (key === 'transformerParameters') continue;
    else if (key === 'delayDistribution') continue;
    else if (key === 'chunkedDribbleDelay') {
      note(`response.${key}`, 'a dribbled body is not carried over; it is sent whole');
    } else note(`response.${key}`, 'not a field mockpoint reads');
  }
  const status = response.status ?? 200;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 200 || status > 599) {
    return `its status ${JSON.stringify(status)} is not an answer of 200-599`;
  }
  if (typeof response.fault === 'string') {
    const fault = FAULTS[response.fault];
    if (fault === undefined) return `the fault ${response.fault} is not one WireMock documents`;
    if (fault.differs !== undefined) note(`fault ${response.fault}`, fault.differs);
    answer.fault = fault.fault;
  } else {
    if (status !== 200) answer.statusCode = status;
    if (isObject(response.headers)) {
      const out: AnswerHeaders = {};
      for (const [name, value] of Object.entries(response.headers)) {
        const list = (Array.isArray(value) ? value : [value]).map(String);
        if (FORBIDDEN_HEADERS.has(name.toLowerCase())) continue; // framing: the server sends its own
        if (headerNameProblem(name) !== undefined) {
          note(`response header ${name.slice(0, 80)}`, 'not a header name');
        } else if (!list.every((item) => HEADER_VALUE_PATTERN.test(item))) {
          note(`response header ${name}`, 'its value holds characters past visible ASCII, which a header cannot carry');
        } else out[name] = list.length === 1 ? (list[0] as string) : list;
      }
      if (Object.keys(out).length > 0) answer.headers = out;
    }
    if (typeof response.body === 'string') answer.body = response.body;
    else if (mapping.jsonBody !== undefined) answer.data = new JsonText(mapping.jsonBody);
    else if (typeof response.base64Body === 'string') {
      if (!isBase64(response.base64Body)) return 'its base64Body is not base64';
      const bytes = base64Bytes(response.base64Body);
      if (bytes.byteLength > 0) answer.bodyBase64 = toBase64(bytes);
    } else if (typeof response.bodyFileName === 'string') {
      const bytes =
        options.bodyFile?.(response.bodyFileName) ??
        'a single file was imported: import the folder (mappings/ and __files/)';
      if (typeof bytes === 'string') return `its bodyFileName ${quoted(response.bodyFileName, 200)}: ${bytes}`;
      if (bytes.byteLength > 0) {
        const text = utf8Text(bytes, false);
        if (text === undefined) answer.bodyBase64 = toBase64(bytes);
        else answer.body = text;
      }
    }
    if (Array.isArray(response.transformers) && response.transformers.length > 0) {
      const template = answer.body ?? '';
      note(
        `response.transformers ${response.transformers.join(', ')}`,
        /\{\{/.test(template)
          ? `Handlebars helpers (${[...new Set([...template.matchAll(/\{\{\s*#?([A-Za-z][\w-]*(?:\.[A-Za-z][\w-]*)*)/g)].map((m) => m[1]))].slice(0, 8).join(', ')}) are not mockpoint's templates; the body is served as written`
          : 'response templating is not carried over; the body is served as written',
      );
    }
  }
  if (typeof response.fixedDelayMilliseconds === 'number' && response.fixedDelayMilliseconds > 0) {
    const delay = Math.round(response.fixedDelayMilliseconds);
    if (delay > DEFAULT_MAX_DELAY_MS) {
      note(
        'fixedDelayMilliseconds',
        `${delay} ms is more than the daemon's default limit; ${DEFAULT_MAX_DELAY_MS} ms written`,
      );
    }
    answer.delay = Math.min(delay, DEFAULT_MAX_DELAY_MS);
  }
  if (response.delayDistribution !== undefined) {
    const latency = latencyFromWireMock(response.delayDistribution, answer.delay ?? 0, note);
    if (latency !== undefined) answer.latency = latency;
  }
  return answer;
}

/** Checks against the mock file's rules at most this many times, one refused route out each time. */
const MAX_CHECKS = 500;

/**
 * The mock file's text, checked as `--config` will check it: a route the daemon would refuse (a
 * header value past ASCII, a path no pattern holds, …) is taken out of `converted` and listed with
 * the reason, so that one odd mapping never stops the import of the others.
 */
function checked(converted: Converted[], name: string, skipped: LeftOut[]): { text: string; parsed: MockFile } {
  for (let attempt = 0; ; attempt++) {
    const text = `${stringifyExact({ version: 1, endpoints: [{ name, routes: converted.map((made) => made.route) }] }, 2)}\n`;
    try {
      return { text, parsed: parseMockFile(text, { file: 'import.json', format: 'json', maxBodyBytes: Infinity }) };
    } catch (error) {
      const path = (error as MockpointError).details?.path;
      const index = typeof path === 'string' ? /^endpoints\[0\]\.routes\[(\d+)\]/.exec(path)?.[1] : undefined;
      if (index === undefined || attempt >= MAX_CHECKS) throw error;
      const [made] = converted.splice(Number(index), 1);
      const why = (error as Error).message.replace(/^.*?endpoints\[0\]\.routes\[\d+\][^:]*: /, '');
      skipped.push({ what: (made as Converted).label, why: `the daemon would refuse its route: ${why}` });
    }
  }
}

/**
 * The mock file of WireMock mapping files (one file, or every file of a
 * `mappings/` folder in the order given). Routes are ordered as WireMock picks
 * stubs: the lowest `priority` first, then the mapping added last. Throws
 * `INVALID_WIREMOCK` when a file is not WireMock.
 */
export function wireMockMockFile(files: readonly WireMockFile[], options: WireMockImportOptions): WireMockImport {
  const order = { next: 0 };
  const mappings = files.flatMap((file) => mappingsOf(file, order));
  const skipped: LeftOut[] = [];
  const scenarios = new StateNames();
  const values = new StateNames();
  const ids = new Set<string>();
  const converted: Converted[] = [];
  for (const mapping of mappings) {
    let made: Converted | string;
    try {
      made = routeOf(mapping, options, scenarios, values, ids, skipped);
    } catch (error) {
      // Text no URL can carry (a lone surrogate in a path, …): this mapping, not the import.
      made = `it cannot be converted: ${(error as Error).message}`;
    }
    if (typeof made === 'string') skipped.push({ what: labelOf(mapping), why: made });
    else converted.push(made);
  }
  if (converted.length > MAX_ROUTES) {
    throw new MockpointError(
      'INVALID_WIREMOCK',
      `${converted.length} mappings, more than a name holds as routes by default (${MAX_ROUTES}); import them as several names`,
    );
  }
  converted.sort((a, b) => a.priority - b.priority || b.order - a.order);
  const { text, parsed } = checked(converted, options.name, skipped);
  const routes = converted.map((made) => made.route);
  const used = new Set<string>();
  for (const { route } of converted) {
    for (const state of [route.match?.state, route.answer.setState]) {
      if (typeof state === 'object') for (const scenario of Object.keys(state)) used.add(scenario);
    }
  }
  return { text, mappings: mappings.length, routes: routes.length, scenarios: [...used], skipped, parsed };
}
