/**
 * `@mockpoint/vitest`: the test-side API. `createMockServer()` for an instance
 * in this process, the `test` fixture and `useMockServer()` for one instance
 * per test file, `connectMockServer(inject('mockpoint'))` for the per-run
 * instance of the `mockpoint()` plugin (`@mockpoint/vitest/plugin`), a test
 * session per test (`mockpoint({ sessions: true })`: the `session` fixture,
 * `currentSession()`), and the request matchers' types.
 *
 * @module
 */
export {
  type AnswerStream,
  ConnectionError,
  createClient,
  type Endpoint,
  type EndpointDefinition,
  type Fault,
  type ItemOptions,
  type JournalEntry,
  JsonText,
  type MergePatch,
  type MockpointClient,
  MockpointError,
  type QueuedAnswer,
  type QueuedAnswerInput,
  type QuietOptions,
  type RequestFilter,
  type Route,
  type RouteAnswer,
  type RouteInput,
  type SocketFrame,
  type SocketInfo,
  type StreamEvent,
  type WaitOptions,
  type WebSocketAnswer,
} from '@mockpoint/core';
export { expect } from 'vitest';
export type { CollectionHandle } from './collection-handle.js';
export { type ConnectMockServerOptions, connectMockServer, type MockServerClient } from './connect.js';
export { type CreateMockServerOptions, createMockServer, type MockServer } from './create-mock-server.js';
export type { MockApi, MockEndpoint, QuietRecorder, RequestRecorder, StateHolder } from './endpoint.js';
export { isRequestRecorder } from './endpoint.js';
export { MockServerError, type MockServerErrorCode } from './errors.js';
export { it, mockServerFixture, test, type UseMockServerOptions, useMockServer } from './fixture.js';
export { mockpointMatchers, type RequestMatch } from './matchers.js';
export type { UnhandledRequest } from './namespaces.js';
export type { MockStoreKind } from './open-store.js';
export { type MockpointProvided, type OnUnhandledRequest, PROVIDE_KEY } from './provided.js';
export { currentSession, type MockSession, SESSION_HEADER } from './session.js';
export type { MessageOptions, SocketHandle, SocketMessage, WaitMessagesOptions } from './socket-handle.js';
