/**
 * `@mockpoint/vitest/server`: `createMockServer()` and `connectMockServer()`
 * without any Vitest import, for scripts, benchmarks and other test runners.
 *
 * @module
 */
export { type ConnectMockServerOptions, connectMockServer, type MockServerClient } from './connect.js';
export { type CreateMockServerOptions, createMockServer, type MockServer } from './create-mock-server.js';
export { isRequestRecorder, type MockEndpoint, type RequestRecorder } from './endpoint.js';
export { MockServerError, type MockServerErrorCode } from './errors.js';
export type { MockStoreKind } from './open-store.js';
