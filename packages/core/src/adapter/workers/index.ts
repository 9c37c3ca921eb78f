/**
 * The Cloudflare Workers entry: one Durable Object hosts the mockpoint app (its
 * journal, long-polls and cache live in that one object, so every request sees
 * the same state) with its endpoints on the object's storage, and a Worker that
 * sends every request to it.
 *
 * @example
 * // worker.ts (wrangler: a Durable Object binding MOCKPOINT of class MockpointObject)
 * export { MockpointObject, worker as default } from '@mockpoint/core/workers'
 *
 * @module
 */

import type { FetchUpgrade } from '../../answer/websocket/open-sockets.js';
import { type CreateAppOptions, createApp, type MockpointApp } from '../../http/create-app.js';
import { MockpointError } from '../../registry/errors.js';
import { type DurableObjectStorageLike, DurableObjectStore } from '../../store/durable-object/index.js';
import { playOnWebSocket, type StandardWebSocket } from '../fetch/web-socket.js';
import { answerNoticingHangUp } from './held-answer.js';

declare const WebSocketPair: new () => {
  0: StandardWebSocket & { accept(): void };
  1: StandardWebSocket & { accept(): void };
};

/** WebSocket upgrades on workerd: a `WebSocketPair`, its server end played by the app's one player. */
function workersUpgrade(): FetchUpgrade {
  return (_request, _env, answer, sockets) => {
    const pair = new WebSocketPair();
    const client = pair[0];
    const server = pair[1];
    server.accept();
    playOnWebSocket(server, sockets, answer, true);
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      for (const one of typeof value === 'string' ? [value] : value) headers.append(name, one);
    }
    if (answer.session.protocol !== undefined) headers.set('sec-websocket-protocol', answer.session.protocol);
    return new Response(null, { status: 101, webSocket: client, headers } as ResponseInit);
  };
}

/** How often a held long-poll sends a space, so that a client that went away is noticed. */
const HEARTBEAT_MS = 1000;

export {
  type DurableObjectStorageLike,
  DurableObjectStore,
  type DurableObjectStoreOptions,
} from '../../store/durable-object/index.js';

/** The part of a Durable Object's `ctx` (state) the object uses. */
export interface DurableObjectStateLike {
  readonly storage: DurableObjectStorageLike;
}

/** The part of a Durable Object namespace binding the Worker uses. */
export interface DurableObjectNamespaceLike {
  idFromName(name: string): unknown;
  get(id: never): { fetch(request: Request): Promise<Response> };
}

/** The bindings {@link MockpointObject} reads. */
export interface MockpointEnv {
  /** When set, every `/api/*` write needs `Authorization: Bearer <ADMIN_TOKEN>` (a secret). */
  ADMIN_TOKEN?: string;
}

/** A Durable Object class hosting a mockpoint app. */
export interface MockpointObjectClass<Env> {
  new (
    state: DurableObjectStateLike,
    env: Env,
  ): { readonly app: MockpointApp; fetch(request: Request): Promise<Response> };
}

/**
 * A Durable Object class whose app gets `options(env)` (the store is always the
 * object's storage).
 * @example export const Mockpoint = createMockpointObject((env) => ({ adminToken: env.TOKEN, maxDelayMs: 10_000 }))
 */
export function createMockpointObject<Env>(
  options: (env: Env) => Omit<CreateAppOptions, 'store'> = () => ({}),
): MockpointObjectClass<Env> {
  return class MockpointObject {
    readonly app: MockpointApp;

    constructor(state: DurableObjectStateLike, env: Env) {
      this.app = createApp({
        onUnexpectedError: (error) => console.error('mockpoint: unexpected error:', error),
        ...options(env),
        store: new DurableObjectStore(state.storage),
      });
      this.app.mockpoint.sockets.fetchUpgrade = workersUpgrade();
    }

    fetch(request: Request): Promise<Response> {
      return answerNoticingHangUp(request, this.app.fetch, HEARTBEAT_MS);
    }
  };
}

/** The Durable Object class of the default setup: reads `ADMIN_TOKEN` from its bindings. */
export const MockpointObject: MockpointObjectClass<MockpointEnv> = createMockpointObject<MockpointEnv>((env) => ({
  adminToken: env.ADMIN_TOKEN || undefined,
}));

/** Options for {@link createWorker}. */
export interface WorkerOptions {
  /** Name of the Durable Object namespace binding. @default 'MOCKPOINT' */
  binding?: string;
  /** Name of the one object every request goes to. @default 'mockpoint' */
  objectName?: string;
}

/** A Worker's module export: `fetch(request, env)`. */
export interface MockpointWorker {
  fetch(request: Request, env: Record<string, unknown>): Promise<Response>;
}

/** A Worker that sends every request to the one mockpoint Durable Object. */
export function createWorker(options: WorkerOptions = {}): MockpointWorker {
  const binding = options.binding ?? 'MOCKPOINT';
  const objectName = options.objectName ?? 'mockpoint';
  return {
    async fetch(request, env) {
      const namespace = env[binding] as DurableObjectNamespaceLike | undefined;
      if (namespace === undefined) {
        return new MockpointError(
          'INTERNAL',
          `no Durable Object binding named ${binding}: bind the MockpointObject class as ${binding} (see the Workers setup in docs/runtimes.md)`,
        ).toResponse();
      }
      return namespace.get(namespace.idFromName(objectName) as never).fetch(request);
    },
  };
}

/** The default Worker: every request goes to the object `mockpoint` of the `MOCKPOINT` binding. */
export const worker: MockpointWorker = createWorker();
