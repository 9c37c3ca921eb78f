/**
 * `connectMockServer()`: the test-facing API over any mockpoint URL (an
 * in-process instance, the per-run instance from the global setup, or a daemon).
 *
 * @module
 */
import { createClient, type EndpointDefinition, type MockpointClient, type RouteInput } from '@mockpoint/core';
import { createApiHandle, createEndpointHandle, type MockApi, type MockEndpoint } from './endpoint.js';
import { createSocketHandle, type SocketHandle } from './socket-handle.js';

/** Options for {@link connectMockServer}. */
export interface ConnectMockServerOptions {
  /**
   * Base URL of the service.
   * @example inject('mockpoint').url
   */
  url: string;
  /** Admin token, when the service requires one for writes. @default undefined */
  token?: string;
  /**
   * Sends the client's requests instead of the global `fetch` (e.g. straight to an app).
   * @default globalThis.fetch
   */
  fetch?: (request: Request) => Promise<Response>;
}

/**
 * The typed client of `@mockpoint/core` with `add()` returning an endpoint
 * handle. Every other method is the core client's, unchanged.
 */
export interface MockServerClient extends Omit<MockpointClient, 'add'> {
  /** Base URL of the service, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /**
   * The service's `host:port` (`127.0.0.1:41234`), for gRPC clients that take an
   * address rather than a URL (grpc-js: `new Client(mock.grpcAddress, credentials)`);
   * Connect and gRPC-Web clients take {@link url}. It names no namespace: in a
   * session, send `session.headers` as the call's metadata (docs/grpc.md).
   */
  readonly grpcAddress: string;
  /**
   * Creates an endpoint and returns its handle, whose `data` has type `T`.
   * @throws MockpointError `NAME_TAKEN` when the name exists (use `put` to create or replace).
   * @example const users = await mock.add<User[]>({ name: 'users', data: [] })
   */
  add<T>(endpoint: { name: string } & EndpointDefinition<T>): Promise<MockEndpoint<T>>;
  /**
   * A handle for an endpoint that already exists (e.g. added by another file on the per-run instance).
   * @throws MockpointError `NOT_FOUND` when there is none.
   */
  endpoint<T = unknown>(name: string): Promise<MockEndpoint<T>>;
  /**
   * A handle for `name` as a whole fake API: its routes, URLs, queue and journal
   * (no record needed). With `routes`, they replace the routes it has.
   * @example
   * const github = await mock.api('github', [
   *   { match: { method: 'GET', path: '/repos/:owner/:repo' }, answer: { data: { id: 1, name: 'app' } } },
   * ])
   * const octokit = new Octokit({ baseUrl: github.url })
   */
  api(name: string, routes?: RouteInput[]): Promise<MockApi>;
  /**
   * The WebSocket side of a name (docs/websocket.md): its `ws://` URL, the
   * connections open now, `send` and `close` from the test, and the messages
   * journaled both ways (`waitForMessages`). Give the name a route whose
   * answer is a `websocket` script first (`mock.api`).
   * @example
   * const chat = mock.socket('chat')
   * const [joined] = await chat.waitForMessages({ match: { body: { type: 'join' } } })
   */
  socket(name: string): SocketHandle;
}

/**
 * Connects to a running mockpoint service.
 * @example
 * const mock = connectMockServer(inject('mockpoint'))
 * const hook = await mock.add({ name: 'hook', data: { ok: true } })
 */
export function connectMockServer(options: ConnectMockServerOptions): MockServerClient {
  const client = createClient({ baseUrl: options.url, token: options.token, fetch: options.fetch });
  return {
    ...client,
    url: client.baseUrl,
    grpcAddress: new URL(client.baseUrl).host,
    async add<T>(endpoint: { name: string } & EndpointDefinition<T>): Promise<MockEndpoint<T>> {
      return createEndpointHandle(client, await client.add(endpoint));
    },
    async endpoint<T = unknown>(name: string): Promise<MockEndpoint<T>> {
      return createEndpointHandle(client, await client.get<T>(name));
    },
    async api(name: string, routes?: RouteInput[]): Promise<MockApi> {
      if (routes !== undefined) await client.setRoutes(name, routes);
      return createApiHandle(client, name);
    },
    socket: (name: string) => createSocketHandle(client, name),
  };
}
