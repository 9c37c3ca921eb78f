/**
 * THE request filter: which requests a route answers, which a queued answer
 * takes, which a journal read or long-poll counts and what the Vitest matchers
 * look for. One type, one matcher ({@link firstMismatch}), pure functions over
 * a {@link FilterSubject} (a journal entry is one; the read path passes a lazy view).
 * The `graphql` field reads a journal entry's `graphql` mark here, so that the
 * browser client (`@mockpoint/core/client`) carries no GraphQL parser; the
 * server's matcher (journal/graphql-filter.ts) parses the request instead.
 *
 * @module
 */
import type { GraphqlFilter, GraphqlMark, GraphqlOperationMark } from '../api/graphql-json.js';
import type { GrpcFilter } from '../api/grpc-json.js';
import type { JournalEntry, RequestFilter } from '../api/journal-json.js';
import type { McpFilter } from '../api/mcp-json.js';
import { type States, stateOf, statesOf } from '../api/state-json.js';
import { jsonDifference, jsonEqual } from '../pattern/json-equal.js';
import { jsonPathSelects } from '../pattern/json-path.js';
import {
  decodeSegment,
  explainPathMismatch,
  matchPathPattern,
  type PathPattern,
  parsePathPattern,
  splitPath,
} from '../pattern/path-pattern.js';
import {
  type AbsentMatcher,
  isAbsentMatcher,
  isValueMatcher,
  type ValueMatcher,
  valueGroups,
  valueMatches,
} from '../pattern/value-pattern.js';
import { JOURNAL_BODY_LIMIT } from '../registry/limits.js';

/** What the filter looks at in a request; a {@link JournalEntry} is one. */
export interface FilterSubject {
  readonly method: string;
  /** The path below `/endpoint/{name}` (`/` for the bare URL). */
  readonly subpath: string;
  readonly query: Record<string, string | string[]>;
  /** The query string as sent, without its `?` (`''` when none); absent: rebuilt from `query`. */
  readonly rawQuery?: string;
  /** Lower-cased names. */
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly bodyTruncated: boolean;
  /**
   * How much of a body is kept, in words, for the message about a truncated
   * one. @default the journal's first 65536 bytes
   */
  readonly bodyLimit?: string;
  /** Present only when the body parsed as JSON (or {@link NOT_JSON}). */
  readonly json?: unknown;
  /** The outcome of the name's signature check; absent when it has none. */
  readonly signature?: { readonly status: string };
  /** The endpoint's scenarios as the request found them (absent: every one at `started`). */
  readonly state?: { readonly before: States };
  /** A WebSocket message's direction and connection; absent for a request. */
  readonly websocket?: { readonly direction: string; readonly connection: string };
  /** A journal entry's GraphQL mark: what the `graphql` field reads unless {@link MismatchOptions.graphql} says otherwise. */
  readonly graphql?: GraphqlMark;
  /** A gRPC call's service, method and (first) request message: a journal entry's mark, or the call being answered. */
  readonly grpc?: { readonly service: string; readonly method: string; readonly message?: unknown };
}

/** What the `graphql` field looks at in one operation: a parsed request's, or a journal entry's mark. */
export interface GraphqlOperationFields {
  readonly operationName: string | null;
  readonly operationType?: GraphqlOperationMark['operationType'] | undefined;
  readonly variables?: Record<string, unknown> | undefined;
}

/** The GraphQL operations of a subject; `undefined` when it is no GraphQL request. */
export type GraphqlReader = (subject: FilterSubject) => readonly GraphqlOperationFields[] | undefined;

/** The operations of a journal entry's `graphql` mark (its batch, or its one operation). */
export function graphqlOfMark(subject: FilterSubject): readonly GraphqlOperationFields[] | undefined {
  const mark = subject.graphql;
  return mark === undefined ? undefined : (mark.batch ?? [mark]);
}

/** A {@link FilterSubject}'s `json` when its body is not JSON (for subjects that always have the key). */
export const NOT_JSON: unique symbol = Symbol('mockpoint.notJson');

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * True when `expected` is a JSON subset of `actual`: objects may have more keys
 * than expected, arrays must have the same length, everything else is compared
 * with `===`. Only own keys are looked at (`__proto__` is an ordinary key).
 */
export function isJsonSubset(expected: unknown, actual: unknown): boolean {
  if (Array.isArray(expected)) {
    return (
      Array.isArray(actual) &&
      actual.length === expected.length &&
      expected.every((item, index) => isJsonSubset(item, actual[index]))
    );
  }
  if (isObject(expected)) {
    if (!isObject(actual)) return false;
    for (const key of Object.keys(expected)) {
      if (!Object.hasOwn(actual, key) || !isJsonSubset(expected[key], actual[key])) return false;
    }
    return true;
  }
  return expected === actual;
}

/** A short JSON preview of `value` for a mismatch message. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function sameValue(expected: string | string[], actual: string | string[] | undefined): boolean {
  if (actual === undefined) return false;
  if (typeof expected === 'string') return actual === expected;
  return Array.isArray(actual) && actual.length === expected.length && expected.every((v, i) => v === actual[i]);
}

/** A regex form for a mismatch message: `matches /a.+/`. */
function regexShown(matcher: ValueMatcher): string {
  return 'matches' in matcher ? `matches ${shown(matcher.matches)}` : `does not match ${shown(matcher.doesNotMatch)}`;
}

/** The subpath and its query string as sent (`/users?page=2`). */
function urlOf(subject: FilterSubject): string {
  const raw = subject.rawQuery ?? new URLSearchParams(flatQuery(subject.query)).toString();
  return raw === '' ? subject.subpath : `${subject.subpath}?${raw}`;
}

function flatQuery(query: Record<string, string | string[]>): [string, string][] {
  const out: [string, string][] = [];
  for (const [key, value] of Object.entries(query)) {
    for (const one of Array.isArray(value) ? value : [value]) out.push([key, one]);
  }
  return out;
}

/** Parsed path patterns by source, shared by every filter (a bounded memo: patterns are few). */
const patterns = new Map<string, PathPattern | null>();
const MAX_PATTERNS = 1000;

/** The parsed `path` of a filter, or `null` when it is not a valid pattern (then nothing matches). */
export function filterPattern(source: string): PathPattern | null {
  let pattern = patterns.get(source);
  if (pattern === undefined) {
    try {
      pattern = parsePathPattern(source);
    } catch {
      pattern = null;
    }
    if (patterns.size >= MAX_PATTERNS) patterns.clear();
    patterns.set(source, pattern);
  }
  return pattern;
}

/** The decoded segments of a subpath. */
export function subpathSegments(subpath: string): string[] {
  return splitPath(subpath).map(decodeSegment);
}

/**
 * The parameters a filter's `path` gives `subpath`, or `undefined` when it does
 * not match: a pattern's `:params` (and `*`), or a regular expression's named
 * groups (`(?<id>[^/]+)`), each percent-decoded as a pattern's are.
 */
export function pathParams(path: string | ValueMatcher, subpath: string): Record<string, string> | undefined {
  if (typeof path === 'string') {
    const pattern = filterPattern(path);
    return pattern === null ? undefined : matchPathPattern(pattern, subpathSegments(subpath));
  }
  const groups = valueGroups(path, subpath);
  if (groups === undefined) return undefined;
  for (const name of Object.keys(groups)) groups[name] = decodeSegment(groups[name] as string);
  return groups;
}

/** Options for {@link firstMismatch}. */
export interface MismatchOptions {
  /** Words for the first field that does not match; otherwise any truthy string. @default false */
  explain?: boolean;
  /** The path was matched already (by a route table): do not look at it again. @default false */
  skipPath?: boolean;
  /** How the `graphql` field reads the subject. @default {@link graphqlOfMark} (its journal mark) */
  graphql?: GraphqlReader;
}

const NO = 'no';

/**
 * The one matcher: the first field of `filter` that `subject` does not match, in
 * the order method, signature, state, path, query, headers, graphql, mcp, grpc, body fields (`method is GET, route wants
 * POST`, `header x-api-key missing`, `body.amount is 5, route wants 10`), or
 * `undefined` when every given field matches. Without `explain` the string is
 * a constant (nothing is formatted).
 */
export function firstMismatch(
  subject: FilterSubject,
  filter: RequestFilter,
  options: MismatchOptions = {},
): string | undefined {
  const explain = options.explain === true;
  if (filter.method !== undefined && subject.method.toUpperCase() !== filter.method.toUpperCase()) {
    return explain ? `method is ${subject.method}, route wants ${filter.method.toUpperCase()}` : NO;
  }
  if (filter.signature !== undefined && subject.signature?.status !== filter.signature) {
    if (!explain) return NO;
    return subject.signature === undefined
      ? `signature not checked (the name has no signature check), route wants ${filter.signature}`
      : `signature is ${subject.signature.status}, route wants ${filter.signature}`;
  }
  if (filter.websocket !== undefined) {
    const socket = subject.websocket;
    if (socket === undefined) return explain ? 'not a WebSocket message, filter wants one' : NO;
    const { direction, connection } = filter.websocket;
    if (direction !== undefined && socket.direction !== direction) {
      return explain ? `direction is ${socket.direction}, filter wants ${direction}` : NO;
    }
    if (connection !== undefined && socket.connection !== connection) {
      return explain ? `connection is ${socket.connection}, filter wants ${connection}` : NO;
    }
  }
  if (filter.state !== undefined) {
    const expect = statesOf(filter.state);
    const before = subject.state?.before ?? {};
    for (const scenario of Object.keys(expect)) {
      const actual = stateOf(before, scenario);
      if (actual !== expect[scenario])
        return explain ? `state ${scenario} is ${actual}, route wants ${expect[scenario]}` : NO;
    }
  }
  if (isValueMatcher(filter.path)) {
    if (!valueMatches(filter.path, subject.subpath ?? '/')) {
      return explain ? `path is ${shown(subject.subpath)}, route wants ${regexShown(filter.path)}` : NO;
    }
  } else if (filter.path !== undefined && options.skipPath !== true) {
    const pattern = filterPattern(filter.path);
    if (pattern === null) return explain ? `path pattern ${filter.path} is invalid` : NO;
    const segments = subpathSegments(subject.subpath ?? '/');
    if (matchPathPattern(pattern, segments) === undefined) {
      return explain ? (explainPathMismatch(pattern, segments) ?? NO) : NO;
    }
  }
  if (filter.url !== undefined) {
    const url = urlOf(subject);
    if (!valueMatches(filter.url, url))
      return explain ? `url is ${shown(url)}, route wants ${regexShown(filter.url)}` : NO;
  }
  if (filter.query !== undefined) {
    for (const key of Object.keys(filter.query)) {
      const actual = Object.hasOwn(subject.query, key) ? subject.query[key] : undefined;
      const expected = filter.query[key] as string | string[] | ValueMatcher | AbsentMatcher;
      if (isAbsentMatcher(expected)) {
        if (actual === undefined) continue;
        return explain ? `query ${key} is ${shown(actual)}, route wants it absent` : NO;
      }
      if (isValueMatcher(expected)) {
        const first = Array.isArray(actual) ? actual[0] : actual;
        if (valueMatches(expected, first)) continue;
        if (!explain) return NO;
        return actual === undefined
          ? `query ${key} missing`
          : `query ${key} is ${shown(actual)}, route wants ${regexShown(expected)}`;
      }
      if (!sameValue(expected, actual)) {
        if (!explain) return NO;
        return actual === undefined
          ? `query ${key} missing`
          : `query ${key} is ${shown(actual)}, route wants ${shown(expected)}`;
      }
    }
  }
  if (filter.headers !== undefined) {
    for (const name of Object.keys(filter.headers)) {
      const lower = name.toLowerCase();
      const actual = Object.hasOwn(subject.headers, lower) ? subject.headers[lower] : undefined;
      const expected = filter.headers[name] as string | ValueMatcher | AbsentMatcher;
      if (isAbsentMatcher(expected)) {
        if (actual === undefined) continue;
        return explain ? `header ${lower} is ${shown(actual)}, route wants it absent` : NO;
      }
      if (isValueMatcher(expected)) {
        if (valueMatches(expected, actual)) continue;
        if (!explain) return NO;
        return actual === undefined
          ? `header ${lower} missing`
          : `header ${lower} is ${shown(actual)}, route wants ${regexShown(expected)}`;
      }
      if (actual !== expected) {
        if (!explain) return NO;
        return actual === undefined
          ? `header ${lower} missing`
          : `header ${lower} is ${shown(actual)}, route wants ${shown(filter.headers[name])}`;
      }
    }
  }
  if (filter.graphql !== undefined) {
    const miss = graphqlMismatch(subject, filter.graphql, explain, options.graphql ?? graphqlOfMark);
    if (miss !== undefined) return miss;
  }
  if (filter.mcp !== undefined) {
    const miss = mcpMismatch(subject, filter.mcp, explain);
    if (miss !== undefined) return miss;
  }
  if (filter.grpc !== undefined) {
    const miss = grpcMismatch(subject, filter.grpc, explain);
    if (miss !== undefined) return miss;
  }
  if (filter.bodyPatterns !== undefined) {
    if (subject.bodyTruncated) {
      if (!explain) return NO;
      return `body is longer than ${subject.bodyLimit ?? `the ${JOURNAL_BODY_LIMIT} bytes the journal keeps of it`}, so it is not compared`;
    }
    for (const pattern of filter.bodyPatterns) {
      if (!valueMatches(pattern, subject.body)) {
        return explain ? `body is ${shown(subject.body)}, route wants ${regexShown(pattern)}` : NO;
      }
    }
  }
  if (Object.hasOwn(filter, 'bodyEquals') || filter.bodyJsonPaths !== undefined) {
    const miss = jsonBodyMismatch(subject, filter, explain);
    if (miss !== undefined) return miss;
  }
  if (Object.hasOwn(filter, 'body')) {
    const raw = typeof filter.body === 'string' && subject.body === filter.body && !subject.bodyTruncated;
    if (raw) return undefined;
    const json = 'json' in subject ? subject.json : NOT_JSON;
    if (json === NOT_JSON && subject.bodyTruncated) {
      // Never compared as if it were all there: the message says how much was read.
      if (!explain) return NO;
      return `body is longer than ${subject.bodyLimit ?? `the ${JOURNAL_BODY_LIMIT} bytes the journal keeps of it`}, so it is not compared`;
    }
    if (json === NOT_JSON) return explain ? 'body is not JSON' : NO;
    if (!explain) return isJsonSubset(filter.body, json) ? undefined : NO;
    return jsonDifference(filter.body, json, 'body', 'subset');
  }
  return undefined;
}

/**
 * `bodyEquals` (the JSON body equals it exactly) and `bodyJsonPaths` (each selects something in the
 * JSON body): a body that is not JSON, or not all read, matches neither.
 */
function jsonBodyMismatch(subject: FilterSubject, filter: RequestFilter, explain: boolean): string | undefined {
  const json = 'json' in subject ? subject.json : NOT_JSON;
  if (json === NOT_JSON) {
    if (!explain) return NO;
    return subject.bodyTruncated
      ? `body is longer than ${subject.bodyLimit ?? `the ${JOURNAL_BODY_LIMIT} bytes the journal keeps of it`}, so it is not compared`
      : 'body is not JSON';
  }
  if (Object.hasOwn(filter, 'bodyEquals')) {
    if (!explain && !jsonEqual(filter.bodyEquals, json)) return NO;
    if (explain) {
      const miss = jsonDifference(filter.bodyEquals, json, 'body');
      if (miss !== undefined) return miss;
    }
  }
  for (const expression of filter.bodyJsonPaths ?? []) {
    if (!jsonPathSelects(expression, json)) return explain ? `body has nothing at ${shown(expression)}` : NO;
  }
  return undefined;
}

const NO_VARIABLES: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

/** Whether one operation holds every field of `filter`; the first that does not, in words (or {@link NO}). */
function operationMismatch(
  operation: GraphqlOperationFields,
  filter: GraphqlFilter,
  explain: boolean,
): string | undefined {
  if (filter.operationName !== undefined && operation.operationName !== filter.operationName) {
    return explain
      ? `graphql operationName is ${shown(operation.operationName)}, route wants ${shown(filter.operationName)}`
      : NO;
  }
  if (filter.operationType !== undefined && operation.operationType !== filter.operationType) {
    return explain
      ? `graphql operationType is ${operation.operationType ?? 'none (no operation selected)'}, route wants ${filter.operationType}`
      : NO;
  }
  if (filter.variables !== undefined) {
    const variables = operation.variables ?? NO_VARIABLES;
    if (!explain) return isJsonSubset(filter.variables, variables) ? undefined : NO;
    return jsonDifference(filter.variables, variables, 'graphql variables', 'subset');
  }
  return undefined;
}

/**
 * The `graphql` field against the request read as GraphQL by `read`: not
 * GraphQL never matches; a batch matches when one of its operations does (the
 * message names the first operation's mismatch).
 */
function graphqlMismatch(
  subject: FilterSubject,
  filter: GraphqlFilter,
  explain: boolean,
  read: GraphqlReader,
): string | undefined {
  const operations = read(subject);
  if (operations === undefined) return explain ? 'not a GraphQL request' : NO;
  let first: string | undefined;
  for (const operation of operations) {
    const miss = operationMismatch(operation, filter, explain);
    if (miss === undefined) return undefined;
    first ??= miss;
  }
  return first;
}

/**
 * The `mcp` field against the request's JSON body read as one JSON-RPC message:
 * its `method`, and for `tools/call` the tool (`params.name`). Anything else
 * (not JSON, a batch, no method) never matches.
 */
function mcpMismatch(subject: FilterSubject, filter: McpFilter, explain: boolean): string | undefined {
  const json = 'json' in subject ? subject.json : NOT_JSON;
  const message = typeof json === 'object' && json !== null && !Array.isArray(json) ? json : undefined;
  const method = message === undefined ? undefined : (message as { method?: unknown }).method;
  if (typeof method !== 'string') return explain ? 'not a JSON-RPC (MCP) request' : NO;
  if (filter.method !== undefined && method !== filter.method) {
    return explain ? `mcp method is ${shown(method)}, route wants ${shown(filter.method)}` : NO;
  }
  if (filter.tool !== undefined) {
    const params = (message as { params?: unknown }).params;
    const tool =
      method === 'tools/call' && typeof params === 'object' && params !== null
        ? (params as { name?: unknown }).name
        : undefined;
    if (tool !== filter.tool) {
      return explain
        ? `mcp tool is ${typeof tool === 'string' ? shown(tool) : 'none (not a tools/call)'}, route wants ${shown(filter.tool)}`
        : NO;
    }
  }
  return undefined;
}

/** The `grpc` field: the call's service, method and a JSON subset of its request message (its journal mark). */
function grpcMismatch(subject: FilterSubject, filter: GrpcFilter, explain: boolean): string | undefined {
  const call = subject.grpc;
  if (call === undefined) return explain ? 'not a gRPC call' : NO;
  if (filter.service !== undefined && call.service !== filter.service) {
    return explain ? `grpc service is ${shown(call.service)}, route wants ${shown(filter.service)}` : NO;
  }
  if (filter.method !== undefined && call.method !== filter.method) {
    return explain ? `grpc method is ${shown(call.method)}, route wants ${shown(filter.method)}` : NO;
  }
  if (Object.hasOwn(filter, 'message')) {
    if (call.message === undefined) return explain ? 'grpc message was not read' : NO;
    const miss = jsonDifference(filter.message, call.message, 'grpc message', 'subset');
    if (miss !== undefined) return explain ? miss : NO;
  }
  return undefined;
}

/** True when `entry` matches every field of `filter`. */
export function matchesRequest(entry: FilterSubject, filter: RequestFilter): boolean {
  return firstMismatch(entry, filter) === undefined;
}
