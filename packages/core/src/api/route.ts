/**
 * Routes: the ordered list of `{ id?, match?, answer }` an endpoint answers its
 * subpaths with. The types cross the network (API, client, stores); the checks
 * here are the semantic ones the schema cannot state (patterns, header rules,
 * one body form, template syntax), each with its own error code.
 *
 * @module
 */

import { isBase64 } from '../codec/base64.js';
import { headerNameProblem, headerValueProblem } from '../codec/http-header.js';
import {
  JsonText,
  jsonTextOf,
  parseCheckedJson,
  scanCheckedJson,
  scanJson,
  scanJsonInTurns,
  stringifyExact,
} from '../codec/json-text.js';
import { PathPatternError, parsePathPattern } from '../pattern/path-pattern.js';
import type { ValueMatcher } from '../pattern/value-pattern.js';
import { type Latency, latencyProblem } from '../random/latency.js';
import { MockpointError } from '../registry/errors.js';
import { NAME_PATTERN } from '../registry/rules.js';
import { SETTINGS } from '../registry/settings.js';
import {
  jsonStringTokens,
  minRenderedBytes,
  minRenderedJsonBytes,
  templateSyntaxProblem,
} from '../template/template-syntax.js';
import { SLICED_ROUTES_CHARS, type TurnBudget } from '../turns/turn-budget.js';
import type { GrpcAnswer } from './answer-grpc.js';
import type { AnswerContent } from './answer-json.js';
import type { AnswerKind } from './answer-kind.js';
import { CHECKED_KINDS, KIND_READERS, OWN_KINDS } from './answer-kinds.js';
import type { LlmAnswer } from './answer-llm.js';
import { checkStream, minRenderedStreamBytes, type StreamLimits } from './answer-stream.js';
import type { WebSocketAnswer } from './answer-websocket.js';
import type { RequestFilter } from './journal-json.js';
import type { McpAnswer } from './mcp-json.js';
import type { ProxyAnswer } from './proxy-answer.js';
import { type RouteRateLimit, rateLimitProblem } from './rate-limit.js';
import type { RouteValidation } from './route-validation.js';
import { crossCuttingOf, notForKindMessage } from './setting-not-for-kind.js';
import { setStateProblem, stateProblem } from './state-json.js';

/** Response headers of an answer: a name maps to a value, or to several (sent as repeated headers). */
export type AnswerHeaders = Record<string, string | string[]>;

/**
 * What a route (or a queued answer) sends. Complete on its own in a route:
 * absent `statusCode` is 200, absent `delay` 0, absent body empty. At most one
 * of `data`, `body` and `bodyBase64`.
 * @example { statusCode: 201, headers: { location: '/users/7' }, data: { id: 7 } }
 */
export interface RouteAnswer extends AnswerContent {
  /** 200–599. @default 200 */
  statusCode?: number;
  /** Response headers; hop-by-hop and framing headers (Connection, Content-Length, …) are refused. */
  headers?: AnswerHeaders;
  /** A JSON value, sent as its exact text (`application/json` unless `headers` says otherwise). */
  data?: unknown;
  /** Milliseconds before the answer. @default 0 */
  delay?: number;
  /**
   * Routes only: a delay drawn per request (after `delay`) from a seeded
   * distribution, so a run replays given `seed`; see docs/chaos.md.
   * @example { distribution: 'lognormal', median: 80, sigma: 0.6, max: 2000, seed: 7 }
   */
  latency?: Latency;
  /**
   * Routes only: forward the request to an upstream and answer with its answer
   * (the whole answer: no other field beside it). Off unless the host is allowed
   * (`MOCKPOINT_PROXY_ALLOW_HOSTS`); see docs/files.md#record-and-replay.
   */
  proxy?: ProxyAnswer;
  /**
   * Routes only: serve REST over one of the endpoint's collections below the
   * route's path, in json-server's conventions (the whole answer: no other field
   * beside it); see docs/state.md.
   * @example 'users'
   * @example { collection: 'users', idField: 'key' }
   */
  resource?: ResourceAnswer;
  /**
   * Routes only: accept a WebSocket upgrade and play this script (see
   * docs/websocket.md); beside it only `delay` (the handshake's), `headers` (of
   * the 101) and `setState`. A request without `Upgrade: websocket` gets
   * `426 WEBSOCKET_REQUIRED`.
   */
  websocket?: WebSocketAnswer;
  /**
   * Routes only: answer in an LLM provider's wire format (OpenAI Chat
   * Completions or Responses, Anthropic Messages), JSON or streamed, or one of
   * its errors (see docs/llm.md); beside it only `delay`, `headers`,
   * `template` (renders `text`) and `setState`.
   */
  llm?: LlmAnswer;
  /**
   * Routes only: a fake MCP server over Streamable HTTP (docs/mcp.md): tools,
   * resources and prompts; beside it only `setState`.
   */
  mcp?: McpAnswer;
  /**
   * Routes only: the answer to a gRPC, gRPC-Web or Connect call (docs/grpc.md#routes);
   * beside it only `delay`, `template`, `setState` and `fault: 'reset'`. Such a
   * route answers calls only; calls reach only such routes.
   */
  grpc?: GrpcAnswer;
}

/** A resource answer: a collection's name, or the name and the field that holds each item's id. */
export type ResourceAnswer = string | { collection: string; idField?: string };

/** A route as a client sends it: `id` is generated when absent. */
export interface RouteInput {
  /** 1–64 characters of `A–Z a–z 0–9 _ -`, unique within the endpoint. @default generated */
  id?: string;
  /** Which requests it answers; absent: every request. */
  match?: RequestFilter;
  /** Check each request it answers against JSON Schemas (`report` or `enforce`); absent: not checked. */
  validate?: RouteValidation;
  /** A token bucket: the route answers while tokens remain, then `429` with `Retry-After` (docs/rate-limits.md). */
  rateLimit?: RouteRateLimit;
  answer: RouteAnswer;
}

/** A stored route: it always has its id. */
export interface Route extends RouteInput {
  id: string;
}

/** Headers an answer may not set: they belong to the connection or to the framing of the body. */
export const FORBIDDEN_HEADERS: ReadonlySet<string> = new Set([
  'connection',
  'content-length',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

const BODY_FORMS = ['data', 'body', 'bodyBase64', 'stream'] as const;
/** HTTP forbids a body with these statuses (so a stream too). */
const BODILESS = new Set([204, 205, 304]);

/** A fresh route id: 12 hex digits. */
export function newRouteId(): string {
  return crypto.randomUUID().replace(/-/g, '').slice(0, 12);
}

/** Where an answer sits, for messages: `routes[2]` or `answers[0]`. */
export interface AnswerPlace {
  /** The list it is in. @default 'routes' */
  list?: 'routes' | 'answers';
  index: number;
}

function fail(code: ConstructorParameters<typeof MockpointError>[0], at: number | AnswerPlace, message: string): never {
  const { list = 'routes', index } = typeof at === 'number' ? { index: at } : at;
  throw new MockpointError(code, `${list}[${index}]: ${message}`, { details: { index } });
}

/** Bytes of UTF-8 text, without a runtime's Buffer. */
const encoder = new TextEncoder();

/** An `{{item}}` or `{{item.…}}` placeholder (spaces allowed inside the braces). */
const ITEM_PLACEHOLDER = /\{\{\s*item\s*(?:\.|\}\})/;

/**
 * Checks one answer's headers: names are tokens, not hop-by-hop or framing;
 * values hold only what HTTP can send (see `http-header.ts`), so that no stored
 * answer can fail when it is sent.
 */
function checkHeaders(headers: AnswerHeaders, index: number | AnswerPlace, template: boolean): void {
  for (const name of Object.keys(headers)) {
    const bad = headerNameProblem(name);
    if (bad !== undefined) fail('INVALID_HEADER', index, bad);
    if (FORBIDDEN_HEADERS.has(name.toLowerCase())) {
      fail(
        'INVALID_HEADER',
        index,
        `header ${name} is set by the server (hop-by-hop or framing: ${[...FORBIDDEN_HEADERS].join(', ')})`,
      );
    }
    const value = headers[name] as string | string[];
    for (const one of Array.isArray(value) ? value : [value]) {
      const problem = headerValueProblem(one);
      if (problem !== undefined) fail('INVALID_HEADER', index, `header ${name} ${problem}`);
      if (template) checkTemplate(one, index);
    }
  }
}

function checkTemplate(text: string, index: number | AnswerPlace): void {
  const problem = templateSyntaxProblem(text);
  if (problem !== undefined) fail('INVALID_TEMPLATE', index, problem);
}

/** The limits an answer is checked against: its body's bytes, and a stream's (their defaults when absent). */
export type AnswerLimits = Pick<StreamLimits, 'maxBodyBytes'> &
  Partial<StreamLimits> & {
    /** Largest WebSocket message a script may send. @default the settings table's */
    maxSocketFrameBytes?: number;
    /** Hosts a proxy answer may name; absent: not checked here (a mock file is checked by the server it is applied to). */
    proxyAllowHosts?: readonly string[];
  };

/**
 * Checks one answer beyond its schema: one body form, valid base64, a fault
 * that sends nothing takes no status or body, header rules, template syntax,
 * the body within `maxBodyBytes`, and a stream's events and limits.
 */
export function checkAnswer(answer: RouteAnswer, index: number | AnswerPlace, limits: AnswerLimits): void {
  const { maxBodyBytes } = limits;
  if (answer.latency !== undefined) {
    const problem = latencyProblem(answer.latency, answer.delay ?? 0, limits.maxDelayMs ?? SETTINGS.maxDelayMs.default);
    if (problem !== undefined) fail('INVALID_LATENCY', index, problem);
  }
  if (answer.setState !== undefined) {
    const problem = setStateProblem(answer.setState);
    if (problem !== undefined) fail('INVALID_STATE', index, `answer.setState: ${problem}`);
  }
  // A kind that owns its answer checks it (answer-kinds.ts); else a plain answer, a stream or a fault.
  for (const kind of CHECKED_KINDS) {
    if ((answer as Record<string, unknown>)[kind.key] === undefined) continue;
    checkKind(kind, answer, index, limits);
    return;
  }
  refuseItem(answer, index);
  const forms = BODY_FORMS.filter((form) => Object.hasOwn(answer, form));
  if (forms.length > 1) fail('INVALID_ANSWER', index, `answer has ${forms.join(' and ')}; give at most one body form`);
  if (answer.bodyBase64 !== undefined && !isBase64(answer.bodyBase64)) {
    fail('INVALID_ANSWER', index, 'answer.bodyBase64 is not base64 (A-Z a-z 0-9 + /, padded with =)');
  }
  if ((answer.fault === 'reset' || answer.fault === 'hang') && (forms.length > 0 || answer.statusCode !== undefined)) {
    fail('INVALID_ANSWER', index, `fault ${answer.fault} sends no answer, so statusCode and a body do not apply`);
  }
  const template = answer.template === true;
  if (answer.headers !== undefined) checkHeaders(answer.headers, index, template);
  if (answer.stream !== undefined) {
    if (answer.fault !== undefined) {
      fail('INVALID_ANSWER', index, 'a stream ends with stream.end (close, hang or reset); fault does not apply');
    }
    if (answer.statusCode !== undefined && BODILESS.has(answer.statusCode)) {
      fail('INVALID_ANSWER', index, `status ${answer.statusCode} has no body, so it cannot stream`);
    }
    const { list = 'routes', index: at } = typeof index === 'number' ? { index } : index;
    checkStream(answer.stream, {
      maxBodyBytes,
      maxDelayMs: limits.maxDelayMs ?? SETTINGS.maxDelayMs.default,
      maxStreamEvents: limits.maxStreamEvents ?? SETTINGS.maxStreamEvents.default,
      maxStreamMs: limits.maxStreamMs ?? SETTINGS.maxStreamMs.default,
      where: list === 'routes' ? `routes[${at}].answer` : `${list}[${at}]`,
      details: { index: at },
      template,
      delay: answer.delay ?? 0,
    });
    if (template) checkRenderedSize(answer, index, maxBodyBytes);
    return;
  }
  let size = 0;
  if (Object.hasOwn(answer, 'data')) {
    const text = jsonTextOf(answer.data);
    size = encoder.encode(text).byteLength;
    if (template) for (const token of jsonStringTokens(text)) checkTemplate(token.value, index);
  } else if (answer.body !== undefined) {
    size = encoder.encode(answer.body).byteLength;
    if (template) checkTemplate(answer.body, index);
  } else if (answer.bodyBase64 !== undefined) size = Math.floor((answer.bodyBase64.length * 3) / 4);
  if (size > maxBodyBytes) {
    fail('BODY_TOO_LARGE', index, `the answer's body is ${size} bytes, more than the limit ${maxBodyBytes}`);
  }
  if (template) checkRenderedSize(answer, index, maxBodyBytes);
}

/** Checks an answer of a kind that owns it: the fields beside its member, its headers, routes only, then its own checks. */
function checkKind(kind: AnswerKind, answer: RouteAnswer, index: number | AnswerPlace, limits: AnswerLimits): void {
  const template = answer.template === true;
  if (kind.beside !== undefined) {
    const { fields, says } = kind.beside;
    // A queued answer's own fields: which requests take it, and how many.
    const own = typeof index === 'number' || index.list === 'routes' ? [] : ['match', 'times'];
    const others = Object.keys(answer).filter((key) => key !== kind.key && !fields.includes(key) && !own.includes(key));
    const settings = crossCuttingOf(others);
    if (others.length > settings.length) {
      fail('INVALID_ANSWER', index, `${kind.noun} is ${says}; ${others.join(', ')} do not apply`);
    }
    if (settings.length > 0) fail('SETTING_NOT_FOR_KIND', index, notForKindMessage(settings, kind.noun, says));
    if (answer.headers !== undefined && fields.includes('headers')) checkHeaders(answer.headers, index, template);
  }
  const { list = 'routes', index: at } = typeof index === 'number' ? { index } : index;
  if (kind.routesOnly === true && list !== 'routes') fail('INVALID_ANSWER', index, `${kind.noun} is for routes only`);
  kind.check?.(answer, {
    at,
    list,
    limits,
    template,
    fail: (code, message) => fail(code, index, message),
    refuseItem: () => refuseItem(answer, index),
  });
}

/** `{{item…}}` is the item a resource route answers: refused in any other templated answer. */
function refuseItem(answer: RouteAnswer, index: number | AnswerPlace): void {
  if (answer.template === true && ITEM_PLACEHOLDER.test(JSON.stringify(answer))) {
    fail('INVALID_TEMPLATE', index, '{{item…}} is the item a resource route answers; this answer is not a resource');
  }
}

/**
 * A templated answer whose templates render more than `maxBodyBytes` for any
 * request (literal text and fixed-width placeholders alone: a request's values
 * may be empty) is refused now: every request would get `TEMPLATE_TOO_LARGE`.
 * Its syntax is checked already.
 */
function checkRenderedSize(answer: RouteAnswer, index: number | AnswerPlace, maxBodyBytes: number): void {
  let least = 0;
  for (const value of Object.values(answer.headers ?? {})) {
    for (const one of Array.isArray(value) ? value : [value]) least += minRenderedBytes(one);
  }
  if (answer.stream !== undefined) least += minRenderedStreamBytes(answer.stream);
  else if (Object.hasOwn(answer, 'data')) least += minRenderedJsonBytes(jsonTextOf(answer.data));
  else if (answer.body !== undefined) least += minRenderedBytes(answer.body);
  if (least > maxBodyBytes) {
    fail(
      'BODY_TOO_LARGE',
      index,
      `the answer's template renders at least ${least} bytes for any request (its text, {{uuid}} 36 bytes and {{now}} 24 each), more than the limit ${maxBodyBytes} (MOCKPOINT_MAX_BODY_BYTES) of what one answer may render`,
    );
  }
}

/** Checks a filter's `path` pattern (`INVALID_ROUTE_PATTERN` when it is not one). */
export function checkMatchPath(path: string | ValueMatcher | undefined, index: number | AnswerPlace): void {
  if (path === undefined || typeof path !== 'string') return;
  try {
    parsePathPattern(path);
  } catch (error) {
    if (error instanceof PathPatternError) fail('INVALID_ROUTE_PATTERN', index, error.message);
    throw error;
  }
}

/** Options for {@link checkRoutes}. */
export interface CheckRoutesOptions extends AnswerLimits {
  /** Ids the endpoint has already (an appended route may not reuse one). @default none */
  existingIds?: ReadonlySet<string>;
  /** The index of the first route, for messages (appending after existing routes still counts from 0). @default 0 */
  offset?: number;
}

/**
 * Checks routes that passed the schema and gives each its id (generated when
 * absent). Throws the first problem as a {@link MockpointError} whose message
 * starts with `routes[i]:` and whose `details.index` is `i`; nothing is changed then.
 */
export function checkRoutes(routes: readonly RouteInput[], options: CheckRoutesOptions): Route[] {
  const check = routeChecker(options);
  return routes.map((route, i) => check(route, i));
}

/**
 * {@link checkRoutes} one route at a time (a long list is checked in slices):
 * call it with each route and its index in the list, in order; the ids seen so far are remembered.
 */
export function routeChecker(options: CheckRoutesOptions): (route: RouteInput, i: number) => Route {
  const ids = new Set(options.existingIds);
  const offset = options.offset ?? 0;
  return (route, i) => {
    const index = i + offset;
    if (route.id !== undefined) {
      if (!NAME_PATTERN.test(route.id))
        fail('INVALID_ROUTE_ID', index, 'id must be 1-64 characters of A-Z a-z 0-9 _ -');
      if (ids.has(route.id)) fail('DUPLICATE_ROUTE_ID', index, `id "${route.id}" is already used by another route`);
    }
    checkMatchPath(route.match?.path, index);
    if (route.match?.websocket !== undefined) {
      fail('INVALID_MATCH', index, 'match.websocket selects journal entries of messages; a route matches requests');
    }
    if (route.match?.state !== undefined) {
      const problem = stateProblem(route.match.state);
      if (problem !== undefined) fail('INVALID_STATE', index, `match.state: ${problem}`);
    }
    if (route.rateLimit !== undefined) {
      const problem = rateLimitProblem(route.rateLimit);
      if (problem !== undefined) fail('INVALID_RATE_LIMIT', index, problem);
    }
    checkAnswer(route.answer, index, options);
    if (route.validate !== undefined && route.answer.grpc !== undefined) {
      // A call's message is protobuf, which the request's JSON Schemas do not read: refused, not kept unused.
      fail(
        'INVALID_VALIDATION',
        index,
        'validate checks HTTP requests against JSON Schemas and is not applied to gRPC calls: remove it from a route with a grpc answer',
      );
    }
    let id = route.id;
    while (id === undefined || (route.id === undefined && ids.has(id))) id = newRouteId();
    ids.add(id);
    const out: Route = { id, answer: route.answer };
    if (route.match !== undefined) out.match = route.match;
    if (route.validate !== undefined) out.validate = route.validate;
    if (route.rateLimit !== undefined) out.rateLimit = route.rateLimit;
    return out;
  };
}

/** The routes as JSON text, each answer's `data` exactly as it was sent: `{"routes":[…]}`. */
export function routesPageJson(routes: readonly Route[]): string {
  return `{"routes":${routesJson(routes)}}`;
}

/** A route list as JSON text (`data` kept exact): the form stores keep. */
export function routesJson(routes: readonly Route[]): string {
  return keptText(routes) ?? stringifyExact(routes.map(routeFields));
}

/**
 * The text {@link routesJsonInTurns} gave a long list (a store's write), with the routes it
 * held, while the list lives: the answer to the write is that text, not stringified again.
 */
const LONG_LISTS = new WeakMap<readonly Route[], { text: string; routes: readonly Route[] }>();

/** The kept text of `routes`, if it still holds the same routes (checked routes are not changed in place). */
function keptText(routes: readonly Route[]): string | undefined {
  const kept = LONG_LISTS.get(routes);
  if (kept === undefined || kept.routes.length !== routes.length) return undefined;
  return kept.routes.every((route, i) => route === routes[i]) ? kept.text : undefined;
}

/** The route's fields in a fixed order (id, match, validate, rateLimit, answer; the answer's fields in the documented order). */
function routeFields(route: Route): Record<string, unknown> {
  const out: Record<string, unknown> = { id: route.id };
  if (route.match !== undefined) out.match = route.match;
  if (route.validate !== undefined) out.validate = route.validate;
  if (route.rateLimit !== undefined) out.rateLimit = route.rateLimit;
  const answer: Record<string, unknown> = {};
  for (const key of ANSWER_KEYS) {
    if (Object.hasOwn(route.answer, key)) {
      const value = route.answer[key];
      answer[key] = key === 'data' && !(value instanceof JsonText) ? new JsonText(jsonTextOf(value)) : value;
    }
  }
  out.answer = answer;
  return out;
}

const ANSWER_KEYS = [
  'statusCode',
  'headers',
  'data',
  'body',
  'bodyBase64',
  'stream',
  'delay',
  'latency',
  'fault',
  'template',
  ...OWN_KINDS.map((kind) => kind.key as keyof RouteAnswer),
  'setState',
] as const;

/**
 * An object from scanned JSON members, `data` (and each stream event's) kept
 * as its exact text ({@link JsonText}); every other member parsed. Own properties only, so a
 * `__proto__` key is a key (and is then refused as unknown).
 */
function answerFromMembers(members: ReadonlyMap<string, string>): Record<string, unknown> {
  return Object.fromEntries(
    [...members].map(([key, text]) => [
      key,
      key === 'data' ? new JsonText(text) : (KIND_READERS.get(key) ?? parseCheckedJson)(text),
    ]),
  );
}

/** A route object from its JSON text (an element of checked text), its answer's `data` kept exact. */
function routeFromText(text: string): unknown {
  if (!text.startsWith('{')) return JSON.parse(text);
  const members = scanCheckedJson(text).members ?? new Map<string, string>();
  return Object.fromEntries(
    [...members].map(([key, value]) => [
      key,
      key === 'answer' && value.startsWith('{')
        ? answerFromMembers(scanCheckedJson(value).members ?? new Map())
        : parseCheckedJson(value),
    ]),
  );
}

/**
 * The routes of a JSON array text (the `routes` of a request body, or what a
 * store kept), each answer's `data` as a {@link JsonText}. Not checked: pass
 * a request's through the schema and {@link checkRoutes}.
 */
export function routesFromJson(text: string): unknown[] {
  const elements = scanJson(text).elements;
  if (elements === undefined) return JSON.parse(text) as unknown[];
  return elements.map(routeFromText);
}

/**
 * {@link routesFromJson} a slice at a time: `budget` yields to the event loop between
 * routes (also while the list is scanned). `checked`: the text is a member of a body
 * {@link scanJson} accepted.
 */
export async function routesFromJsonInTurns(text: string, budget: TurnBudget, checked: boolean): Promise<unknown[]> {
  const elements = (await scanJsonInTurns(text, budget, checked)).elements;
  if (elements === undefined) return JSON.parse(text) as unknown[];
  const routes: unknown[] = [];
  for (const element of elements) {
    await budget.pause();
    routes.push(routeFromText(element));
  }
  return routes;
}

/** A stored route list back from {@link routesJson}. */
export function decodeRoutes(text: string): Route[] {
  return routesFromJson(text) as Route[];
}

/** {@link decodeRoutes} a slice per event-loop turn (`budget`), for a long stored list. */
export async function decodeRoutesInTurns(text: string, budget: TurnBudget): Promise<Route[]> {
  return (await routesFromJsonInTurns(text, budget, false)) as Route[];
}

/** {@link routesJson} a slice per event-loop turn (`budget`): the same text. */
export async function routesJsonInTurns(routes: readonly Route[], budget: TurnBudget): Promise<string> {
  const kept = keptText(routes);
  if (kept !== undefined) return kept;
  const parts: string[] = [];
  for (const route of routes) {
    await budget.pause();
    parts.push(stringifyExact(routeFields(route)));
  }
  const text = `[${parts.join(',')}]`;
  if (text.length >= SLICED_ROUTES_CHARS) LONG_LISTS.set(routes, { text, routes: [...routes] });
  return text;
}
