/**
 * Request matchers for endpoint handles. They read the endpoint's journal at the
 * moment of the call, so they are async: `await expect(hook).toHaveBeenRequestedTimes(1)`.
 * To wait for requests that are still on their way, `await hook.waitForRequests()` first.
 * `toHaveState` reads the endpoint's scenarios the same way.
 *
 * @module
 */
import {
  firstMismatch,
  type GraphqlFilter,
  type GrpcFilter,
  isMockpointError,
  type JournalEntry,
  type RequestFilter,
  type SignatureCheckStatus,
} from '@mockpoint/core';
import type { MatcherState } from 'vitest';
import { isRequestRecorder, isStateHolder, type QuietRecorder } from './endpoint.js';
import { MockServerError } from './errors.js';
import { isSocketHandle } from './socket-handle.js';

/**
 * What {@link mockpointMatchers.toHaveBeenRequestedWith} compares: the request
 * filter routes, queued answers and waits use (`RequestFilter`, the same
 * matcher), whose values may also be asymmetric matchers (`expect.any(String)`).
 */
export interface RequestMatch {
  /** HTTP method, case-insensitive. */
  method?: string;
  /** A pattern over the path below the endpoint's name: `/users/:id`, `/files/*`. */
  path?: string;
  /**
   * A JSON subset of the body (other keys of the body are ignored), or a string
   * matching the raw text. With an asymmetric matcher anywhere in it, the body
   * (parsed, else its text) is compared whole with Vitest's equality.
   */
  body?: unknown;
  /** A subset of the headers; names are case-insensitive. */
  headers?: Record<string, unknown>;
  /** A subset of the query parameters (repeated keys are arrays). */
  query?: Record<string, unknown>;
  /** The outcome of the endpoint's signature check: `valid`, `invalid`, `missing`, `stale` or `replayed`. */
  signature?: SignatureCheckStatus;
  /** A GraphQL operation: its name, type and a JSON subset of its variables (docs/graphql.md). */
  graphql?: GraphqlFilter;
}

/**
 * The matchers' types. They extend Chai's `Assertion`, which Vitest maps onto its
 * own `Assertion` in every major: Vitest 4 declares `Assertion<T>` and Vitest 5
 * `Assertion<R, T>`, and an augmentation of either fails to compile against the
 * other (TS2428). The price: the compiler no longer refuses `expect(42)` here; the
 * matcher does, at run time, with `NOT_AN_ENDPOINT`.
 */
declare global {
  namespace Chai {
    interface Assertion {
      /** Passes when the endpoint has received at least one request. */
      toHaveBeenRequested(): Promise<void>;
      /** Passes when the endpoint has received exactly `times` requests. */
      toHaveBeenRequestedTimes(times: number): Promise<void>;
      /** Passes when at least one received request matches `expected` (all of its fields). */
      toHaveBeenRequestedWith(expected: RequestMatch): Promise<void>;
      /**
       * Passes as soon as a request (matching `match`, when given) arrives within the
       * next `ms` milliseconds; with `.not`, passes when none arrives in that time.
       * @example await expect(hook).not.toHaveBeenRequestedWithin(500) // not sent again
       */
      toHaveBeenRequestedWithin(ms: number, match?: RequestFilter): Promise<void>;
      /**
       * Passes when the endpoint's state is `expected`: a value of the `default`
       * scenario, or scenario → value for the scenarios named (the others are not
       * looked at). A scenario never moved is at `started`.
       * @example await expect(api).toHaveState({ order: 'paid' })
       */
      toHaveState(expected: string | Record<string, string>): Promise<void>;
      /**
       * Passes when the socket's clients have sent a message matching `expected`
       * (a JSON subset of the message, its exact text, or asymmetric matchers).
       * @example await expect(mock.socket('chat')).toHaveReceivedMessage({ type: 'join' })
       */
      toHaveReceivedMessage(expected: unknown): Promise<void>;
      /**
       * Passes when the endpoint has answered a gRPC, gRPC-Web or Connect call of
       * `method` (`GetOrder`, or `shop.v1.Orders/GetOrder` with its service) whose
       * request message (proto3 JSON) has `message` as a JSON subset, when given;
       * with an asymmetric matcher anywhere in it, the message is compared whole.
       * @example await expect(shop).toHaveReceivedGrpc('GetOrder', { id: '7' })
       */
      toHaveReceivedGrpc(method: string, message?: unknown): Promise<void>;
    }
  }
}

/** What a matcher resolves with (Vitest's synchronous matcher result). */
interface MatchResult {
  pass: boolean;
  message: () => string;
  actual?: unknown;
  expected?: unknown;
}

const BODY_PREVIEW = 300;

async function journalOf(received: unknown, matcher: string): Promise<{ name: string; requests: JournalEntry[] }> {
  if (!isRequestRecorder(received)) {
    throw new MockServerError(
      'NOT_AN_ENDPOINT',
      `${matcher}() needs an endpoint handle (what mock.add() returns), received ${received === null ? 'null' : typeof received}`,
    );
  }
  return { name: received.name, requests: await received.requests() };
}

/**
 * `record[key]` when `key` is the record's own property, otherwise `undefined`:
 * a header or query parameter named `constructor` or `toString` must not be
 * found on `Object.prototype`.
 */
function own(record: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

function queryString(query: JournalEntry['query']): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    for (const one of Array.isArray(value) ? value : [value]) params.append(key, one);
  }
  return params.size ? `?${params}` : '';
}

function bodyText(entry: JournalEntry): string {
  if (entry.body === '') return '(no body)';
  const text = entry.json === undefined ? entry.body : JSON.stringify(entry.json);
  const cut = text.length > BODY_PREVIEW ? `${text.slice(0, BODY_PREVIEW)}…` : text;
  return entry.bodyTruncated ? `${cut} (truncated)` : cut;
}

/** One line per request: method, path, query, body, and the headers that were asked about. */
function describeRequests(requests: JournalEntry[], headerNames: string[] = []): string {
  if (requests.length === 0) return '  (none)';
  return requests
    .map((entry, index) => {
      const headers = headerNames.map((name) => `${name}: ${JSON.stringify(own(entry.headers, name) ?? null)}`);
      const shown = headers.length ? `\n     headers: ${headers.join(', ')}` : '';
      const signature = entry.signature
        ? `\n     signature: ${entry.signature.status} (${entry.signature.reason})`
        : '';
      return `  ${index + 1}. ${entry.method} ${entry.path}${queryString(entry.query)}\n     body: ${bodyText(entry)}${shown}${signature}`;
    })
    .join('\n');
}

function received(requests: JournalEntry[], headerNames?: string[]): string {
  const count = `${requests.length} request${requests.length === 1 ? '' : 's'}`;
  return `received ${count}:\n${describeRequests(requests, headerNames)}`;
}

function isAsymmetric(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { asymmetricMatch?: unknown }).asymmetricMatch === 'function'
  );
}

/** Whether an asymmetric matcher is anywhere in `value`. */
function hasAsymmetric(value: unknown): boolean {
  if (isAsymmetric(value)) return true;
  if (typeof value !== 'object' || value === null) return false;
  return Object.values(value).some(hasAsymmetric);
}

/**
 * Whether `entry` matches `expected`: the plain fields through the shared
 * request filter (`firstMismatch`, the matcher routes use), asymmetric
 * matchers through Vitest's equality.
 */
function matches(state: MatcherState, entry: JournalEntry, expected: RequestMatch): boolean {
  const filter: RequestFilter = {};
  // Entries, made into objects by Object.fromEntries: a `__proto__` name stays an own key.
  const headers: [string, string][] = [];
  const query: [string, string | string[]][] = [];
  if (expected.method !== undefined) filter.method = expected.method;
  if (expected.path !== undefined) filter.path = expected.path;
  if (expected.signature !== undefined) filter.signature = expected.signature;
  if (expected.graphql !== undefined) filter.graphql = expected.graphql;
  if (expected.body !== undefined) {
    if (hasAsymmetric(expected.body)) {
      const value = entry.json === undefined ? entry.body : entry.json;
      if (!state.equals(value, expected.body)) return false;
    } else filter.body = expected.body;
  }
  for (const [name, value] of Object.entries(expected.headers ?? {})) {
    if (isAsymmetric(value)) {
      if (!state.equals(own(entry.headers, name.toLowerCase()), value)) return false;
    } else headers.push([name, value as string]);
  }
  for (const [key, value] of Object.entries(expected.query ?? {})) {
    if (isAsymmetric(value)) {
      if (!state.equals(own(entry.query, key), value)) return false;
    } else query.push([key, value as string | string[]]);
  }
  if (headers.length > 0) filter.headers = Object.fromEntries(headers);
  if (query.length > 0) filter.query = Object.fromEntries(query);
  return firstMismatch(entry, filter) === undefined;
}

/** `shop.v1.Orders/GetOrder` (a leading `/` too) or `GetOrder` as the filter's `grpc` field. */
function grpcFilterOf(method: string): GrpcFilter {
  const path = method.replace(/^\//, '');
  const slash = path.lastIndexOf('/');
  return slash === -1 ? { method: path } : { service: path.slice(0, slash), method: path.slice(slash + 1) };
}

/** One line per gRPC call: service/method, its request message and its status; other requests are counted. */
function describeCalls(requests: JournalEntry[]): string {
  const calls = requests.filter((entry) => entry.grpc !== undefined);
  const others = requests.length - calls.length;
  const lines = calls.map(({ grpc }, index) => {
    const message = JSON.stringify(grpc?.message) ?? '(not read)';
    const cut = message.length > BODY_PREVIEW ? `${message.slice(0, BODY_PREVIEW)}…` : message;
    return `  ${index + 1}. ${grpc?.service}/${grpc?.method} ${cut} → ${grpc?.code}`;
  });
  const count = `received ${calls.length} gRPC call${calls.length === 1 ? '' : 's'}`;
  const rest = others === 0 ? '' : ` (and ${others} other request${others === 1 ? '' : 's'})`;
  return `${count}${rest}:\n${lines.length === 0 ? '  (none)' : lines.join('\n')}`;
}

function quietRecorder(received: unknown): QuietRecorder {
  if (!isRequestRecorder(received) || typeof (received as QuietRecorder).expectNoRequests !== 'function') {
    throw new MockServerError(
      'NOT_AN_ENDPOINT',
      `toHaveBeenRequestedWithin() needs an endpoint handle (what mock.add() returns), received ${received === null ? 'null' : typeof received}`,
    );
  }
  return received as QuietRecorder;
}

/** `expected` of `toHaveState` as scenario → value, or a TypeError saying what it takes. */
function expectedStates(expected: unknown): Record<string, unknown> {
  if (typeof expected === 'string') return { default: expected };
  const values = typeof expected === 'object' && expected !== null ? Object.values(expected) : [];
  if (values.length === 0 || !values.every((value) => typeof value === 'string' || isAsymmetric(value))) {
    throw new TypeError(
      `toHaveState() needs a value of the default scenario ('paid') or scenario → value ({ order: 'paid' }), received ${JSON.stringify(expected) ?? String(expected)}`,
    );
  }
  return expected as Record<string, unknown>;
}

/** The matchers, for `expect.extend(mockpointMatchers)` (the plugin and `@mockpoint/vitest/setup` do this). */
export const mockpointMatchers = {
  async toHaveBeenRequested(this: MatcherState, actual: unknown): Promise<MatchResult> {
    const { name, requests } = await journalOf(actual, 'toHaveBeenRequested');
    const pass = requests.length > 0;
    return {
      pass,
      message: () =>
        pass
          ? `expected endpoint "${name}" not to have been requested, but it ${received(requests)}`
          : `expected endpoint "${name}" to have been requested, but it received no requests`,
    };
  },

  async toHaveBeenRequestedTimes(this: MatcherState, actual: unknown, times: number): Promise<MatchResult> {
    if (!Number.isInteger(times) || times < 0) {
      throw new TypeError(`toHaveBeenRequestedTimes() needs a whole number >= 0, received ${String(times)}`);
    }
    const { name, requests } = await journalOf(actual, 'toHaveBeenRequestedTimes');
    const pass = requests.length === times;
    return {
      pass,
      actual: requests.length,
      expected: times,
      message: () =>
        `expected endpoint "${name}" ${pass ? 'not ' : ''}to have been requested ${times} time${times === 1 ? '' : 's'}, ${received(requests)}`,
    };
  },

  async toHaveBeenRequestedWith(this: MatcherState, actual: unknown, expected: RequestMatch): Promise<MatchResult> {
    const { name, requests } = await journalOf(actual, 'toHaveBeenRequestedWith');
    const index = requests.findIndex((entry) => matches(this, entry, expected));
    const pass = index !== -1;
    const headerNames = Object.keys(expected.headers ?? {}).map((h) => h.toLowerCase());
    const wanted = this.utils.stringify(expected, undefined, { min: true });
    return {
      pass,
      message: () =>
        pass
          ? `expected endpoint "${name}" not to have been requested with ${wanted}, but request ${index + 1} matched;\n${received(requests, headerNames)}`
          : `expected endpoint "${name}" to have been requested with ${wanted}, but none matched;\n${received(requests, headerNames)}`,
    };
  },

  async toHaveBeenRequestedWithin(
    this: MatcherState,
    actual: unknown,
    ms: number,
    match?: RequestFilter,
  ): Promise<MatchResult> {
    if (!Number.isFinite(ms) || ms < 0) {
      throw new TypeError(`toHaveBeenRequestedWithin() needs a number of milliseconds >= 0, received ${String(ms)}`);
    }
    const recorder = quietRecorder(actual);
    const which = match === undefined ? '' : ` with ${this.utils.stringify(match, undefined, { min: true })}`;
    try {
      // Only requests arriving from now on count; the first one ends the wait.
      await recorder.expectNoRequests({ within: ms, match });
    } catch (error) {
      if (!isMockpointError(error) || error.code !== 'UNEXPECTED_REQUEST') throw error;
      const seen = error.message.slice(error.message.indexOf('but received ') + 'but '.length);
      return {
        pass: true,
        message: () =>
          `expected endpoint "${recorder.name}" not to have been requested${which} within ${ms} ms, but it ${seen}`,
      };
    }
    return {
      pass: false,
      message: () =>
        `expected endpoint "${recorder.name}" to have been requested${which} within ${ms} ms, but no request arrived`,
    };
  },

  async toHaveState(
    this: MatcherState,
    actual: unknown,
    expected: string | Record<string, string>,
  ): Promise<MatchResult> {
    const wanted = expectedStates(expected);
    if (!isStateHolder(actual)) {
      throw new MockServerError(
        'NOT_AN_ENDPOINT',
        `toHaveState() needs an endpoint handle (what mock.add() or mock.api() returns), received ${actual === null ? 'null' : typeof actual}`,
      );
    }
    const state = await actual.state();
    // A scenario never moved (and not looked at by any route) is at started.
    const at = (scenario: string) => (Object.hasOwn(state, scenario) ? state[scenario] : 'started');
    const seen = Object.fromEntries(Object.keys(wanted).map((scenario) => [scenario, at(scenario)]));
    const differ = Object.keys(wanted).filter((scenario) => !this.equals(seen[scenario], wanted[scenario]));
    const pass = differ.length === 0;
    const asked = this.utils.stringify(typeof expected === 'string' ? expected : wanted, undefined, { min: true });
    const whole = JSON.stringify(state);
    return {
      pass,
      actual: seen,
      expected: wanted,
      message: () =>
        pass
          ? `expected endpoint "${actual.name}" not to have state ${asked}, but it has; its state: ${whole}`
          : `expected endpoint "${actual.name}" to have state ${asked}, but ${differ.map((scenario) => `${scenario} is ${JSON.stringify(seen[scenario])}`).join(', ')}; its state: ${whole}`,
    };
  },

  async toHaveReceivedGrpc(
    this: MatcherState,
    actual: unknown,
    method: string,
    ...message: [unknown?]
  ): Promise<MatchResult> {
    if (typeof method !== 'string' || method === '') {
      throw new TypeError(
        `toHaveReceivedGrpc() needs a method ('GetOrder' or 'shop.v1.Orders/GetOrder'), received ${String(method)}`,
      );
    }
    const { name, requests } = await journalOf(actual, 'toHaveReceivedGrpc');
    const grpc = grpcFilterOf(method);
    const whole = message.length > 0 && hasAsymmetric(message[0]);
    if (message.length > 0 && !whole) grpc.message = message[0];
    const index = requests.findIndex(
      (entry) =>
        firstMismatch(entry, { grpc }) === undefined && (!whole || this.equals(entry.grpc?.message, message[0])),
    );
    const pass = index !== -1;
    const wanted = `${method}${message.length > 0 ? ` with ${this.utils.stringify(message[0], undefined, { min: true })}` : ''}`;
    return {
      pass,
      message: () =>
        pass
          ? `expected endpoint "${name}" not to have received a gRPC call ${wanted}, but call ${index + 1} of its journal matched;\n${describeCalls(requests)}`
          : `expected endpoint "${name}" to have received a gRPC call ${wanted}, but none matched;\n${describeCalls(requests)}`,
    };
  },

  async toHaveReceivedMessage(this: MatcherState, actual: unknown, expected: unknown): Promise<MatchResult> {
    if (!isSocketHandle(actual)) {
      throw new MockServerError(
        'NOT_AN_ENDPOINT',
        `toHaveReceivedMessage() needs a socket handle (what mock.socket() returns), received ${actual === null ? 'null' : typeof actual}`,
      );
    }
    const messages = await actual.messages();
    const index = messages.findIndex((entry) => matches(this, entry, { body: expected }));
    const pass = index !== -1;
    const wanted = this.utils.stringify(expected, undefined, { min: true });
    const seen =
      messages.length === 0 ? 'no message' : messages.map((m) => `  ${m.body.slice(0, BODY_PREVIEW)}`).join('\n');
    return {
      pass,
      message: () =>
        pass
          ? `expected socket "${actual.name}" not to have received ${wanted}, but message ${index + 1} matched;\n${seen}`
          : `expected socket "${actual.name}" to have received ${wanted}, but none matched; received:\n${seen}`,
    };
  },
};
