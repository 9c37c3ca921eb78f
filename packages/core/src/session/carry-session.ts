/**
 * Carrying the current session to outgoing requests through Node's
 * diagnostics channels, without patching any global:
 *
 * - `undici:request:create`: Node's global `fetch` and the `undici` package
 *   publish each request as it is created; `request.addHeader()` adds to it.
 * - `http.client.request.created`: `node:http`/`node:https` publish each
 *   `ClientRequest` from its constructor (Node 22.12 and later), before its
 *   headers are written; `setHeader()` adds to it.
 * - on a Node that does not publish `http.client.request.created` (20, and 22
 *   before 22.12), `node:http`/`node:https` are hooked instead by
 *   `@mswjs/interceptors`' ClientRequest interceptor (loaded only there, while
 *   carrying is on, disposed with the last carrier): it reads each request as
 *   it is written and sends it on unchanged but for the header.
 * - `http.client.request.start`: published when a `ClientRequest` is ended,
 *   after its headers were written on every Node so far: it only notices a
 *   request in a session that left without the header (headers given as an
 *   array, or no interceptor could be loaded) and says so once, as a process
 *   warning.
 *
 * A header the caller set is never replaced. The subscriptions are the
 * process's, kept on `globalThis` like the session store, so two copies of
 * this module add the header once.
 *
 * @module
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { createRequire } from 'node:module';
// Types only: the package is loaded by createRequire, on a Node without `http.client.request.created` only.
import type { ClientRequestInterceptor } from '@mswjs/interceptors/ClientRequest';
import { currentSession } from './session-context.js';
import { SESSION_HEADER } from './session-header.js';

/** Options of {@link carrySession}. */
export interface CarrySessionOptions {
  /**
   * Which destinations get the header (e.g. only the daemon's origin); every
   * one when absent. A filter that throws counts as `false`.
   */
  only?: (url: URL) => boolean;
}

/** The process warning's code when a request in a session left without the header. */
export const NOT_CARRIED_WARNING = 'MOCKPOINT_SESSION_NOT_CARRIED';

/** What undici publishes on `undici:request:create` (undici 5 keeps headers as text, 6 and 7 as a list). */
interface UndiciRequest {
  origin: string | URL;
  path: string;
  headers: string | string[];
  addHeader(name: string, value: string): unknown;
}

/** The part of `http.ClientRequest` read here. */
interface ClientRequestLike {
  headersSent: boolean;
  protocol?: string;
  host?: string;
  path: string;
  getHeader(name: string): unknown;
  setHeader(name: string, value: string): unknown;
}

interface Carriers {
  /** One entry per {@link carrySession} call still on. */
  on: Set<CarrySessionOptions>;
  /** Requests the `created` channel saw, so `start` knows whether this Node publishes it. */
  seen: WeakSet<object>;
  warned: boolean;
  /** Disposes the ClientRequest interceptor, while one carries `node:http` (a Node without `created`). */
  unhook: (() => void) | undefined;
}

const CARRIERS_KEY = Symbol.for('mockpoint.session.carriers');

function carriers(): Carriers {
  const holder = globalThis as { [CARRIERS_KEY]?: Carriers };
  holder[CARRIERS_KEY] ??= { on: new Set(), seen: new WeakSet(), warned: false, unhook: undefined };
  return holder[CARRIERS_KEY];
}

/** Whether some carrier wants the header on a request to `url` (built only when a filter asks). */
function wanted(url: () => URL | undefined): boolean {
  let built: URL | undefined;
  for (const { only } of carriers().on) {
    if (only === undefined) return true;
    try {
      built ??= url();
      if (built !== undefined && only(built)) return true;
    } catch {
      // A filter (or a URL) that throws wants nothing; the request itself goes on.
    }
  }
  return false;
}

/** The header in undici 5's header text (`name: value\r\n…`). */
const HEADER_IN_TEXT = new RegExp(`(?:^|\r\n)${SESSION_HEADER}:`, 'i');

function undiciHasHeader(headers: string | string[] | undefined): boolean {
  if (Array.isArray(headers)) {
    for (let i = 0; i < headers.length; i += 2) {
      if (String(headers[i]).toLowerCase() === SESSION_HEADER) return true;
    }
    return false;
  }
  return typeof headers === 'string' && HEADER_IN_TEXT.test(headers);
}

function onUndiciRequest(message: unknown): void {
  const session = currentSession();
  if (session === undefined) return;
  const request = (message as { request?: UndiciRequest }).request;
  if (request === undefined || typeof request.addHeader !== 'function' || undiciHasHeader(request.headers)) return;
  if (!wanted(() => new URL(request.path, String(request.origin)))) return;
  request.addHeader(SESSION_HEADER, session);
}

function clientRequestUrl(request: ClientRequestLike): URL {
  const host = request.getHeader('host');
  return new URL(request.path, `${request.protocol ?? 'http:'}//${typeof host === 'string' ? host : request.host}`);
}

function onHttpRequestCreated(message: unknown): void {
  const request = (message as { request?: ClientRequestLike }).request;
  if (request === undefined) return;
  carriers().seen.add(request);
  const session = currentSession();
  if (session === undefined || request.headersSent || request.getHeader(SESSION_HEADER) !== undefined) return;
  if (!wanted(() => clientRequestUrl(request))) return;
  request.setHeader(SESSION_HEADER, session);
}

function onHttpRequestStart(message: unknown): void {
  const request = (message as { request?: ClientRequestLike }).request;
  const session = currentSession();
  if (request === undefined || session === undefined || request.getHeader(SESSION_HEADER) !== undefined) return;
  // The interceptor adds it to what is written, not to the ClientRequest (headers as an array too).
  if (carriers().unhook !== undefined) return;
  if (!wanted(() => clientRequestUrl(request))) return;
  if (!request.headersSent) {
    request.setHeader(SESSION_HEADER, session);
    return;
  }
  const state = carriers();
  if (state.warned) return;
  state.warned = true;
  const reason = state.seen.has(request)
    ? 'its headers were given as an array, written before any hook'
    : `this Node (${process.version}) does not publish http.client.request.created (Node 22.12 and later do) and @mswjs/interceptors (an optional peer of @mockpoint/core) could not be loaded: npm install -D @mswjs/interceptors`;
  process.emitWarning(
    `a node:http request to ${clientRequestUrl(request).href} in session "${session}" left without the ${SESSION_HEADER} header: ${reason}. Use fetch, or add sessionHeaders() to its headers.`,
    { code: NOT_CARRIED_WARNING },
  );
}

/** Each channel and what it does, subscribed while any carrier is on. */
const CHANNELS: readonly [string, (message: unknown) => void][] = [
  ['undici:request:create', guarded(onUndiciRequest)],
  ['http.client.request.created', guarded(onHttpRequestCreated)],
  ['http.client.request.start', guarded(onHttpRequestStart)],
];

/** A subscriber that never throws: an error thrown in one would be re-thrown as an uncaught exception. */
function guarded(fn: (message: unknown) => void): (message: unknown) => void {
  return (message) => {
    try {
      fn(message);
    } catch {
      // Carrying the session is best effort; the request goes on unchanged.
    }
  };
}

const HANDLERS_KEY = Symbol.for('mockpoint.session.handlers');

/**
 * From now on, every outgoing request made inside a session
 * ({@link runWithSession}, or a handler wrapped by `withSession` or the
 * middleware) carries the `mockpoint-session` header — by global `fetch`, the
 * `undici` package, and `node:http`/`node:https` (through an interceptor on
 * Node before 22.12) —
 * unless the caller set that header, or `only` refuses the destination.
 * Returns `stop()`, which ends this call's carrying (the others' go on).
 */
export function carrySession(options: CarrySessionOptions = {}): () => void {
  const state = carriers();
  const carrier: CarrySessionOptions = { only: options.only };
  state.on.add(carrier);
  subscribeOnce();
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    state.on.delete(carrier);
    if (state.on.size === 0) unsubscribeAll();
  };
}

function subscribeOnce(): void {
  const holder = globalThis as { [HANDLERS_KEY]?: typeof CHANNELS };
  if (holder[HANDLERS_KEY] !== undefined) return;
  holder[HANDLERS_KEY] = CHANNELS;
  for (const [name, handler] of CHANNELS) subscribe(name, handler);
  if (!publishesCreated(process.versions.node)) carriers().unhook = hookClientRequests();
}

function unsubscribeAll(): void {
  const holder = globalThis as { [HANDLERS_KEY]?: typeof CHANNELS };
  const handlers = holder[HANDLERS_KEY];
  if (handlers === undefined) return;
  holder[HANDLERS_KEY] = undefined;
  for (const [name, handler] of handlers) unsubscribe(name, handler);
  const state = carriers();
  const unhook = state.unhook;
  state.unhook = undefined;
  unhook?.();
}

/** Whether Node `version` publishes `http.client.request.created` (22.12+ in 22, 23.2+, 24 and later). */
export function publishesCreated(version: string): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major >= 24 || (major === 23 && minor >= 2) || (major === 22 && minor >= 12);
}

/**
 * Hooks `node:http`/`node:https` with `@mswjs/interceptors`' ClientRequest
 * interceptor (loaded now, synchronously, so that the next request is carried):
 * a request in a session that a carrier wants gets the header. Returns its
 * disposal, or `undefined` when the package cannot be loaded (the `start`
 * channel then warns once).
 */
function hookClientRequests(): (() => void) | undefined {
  let interceptor: ClientRequestInterceptor;
  try {
    const load = createRequire(import.meta.url);
    const loaded = load('@mswjs/interceptors/ClientRequest') as typeof import('@mswjs/interceptors/ClientRequest');
    interceptor = new loaded.ClientRequestInterceptor();
  } catch {
    return undefined;
  }
  interceptor.apply();
  interceptor.on('request', ({ request }) => {
    try {
      const session = currentSession();
      if (session === undefined || request.headers.has(SESSION_HEADER)) return;
      if (!wanted(() => new URL(request.url))) return;
      request.headers.set(SESSION_HEADER, session);
    } catch {
      // Carrying the session is best effort; the request goes on unchanged.
    }
  });
  return () => interceptor.dispose();
}
