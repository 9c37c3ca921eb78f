/**
 * The one error class of `@mockpoint/vitest`, with a stable `code` to branch on.
 *
 * @module
 */
import { OWN_ERROR } from '@mockpoint/core/internal';

/** Every code a {@link MockServerError} can carry. */
export type MockServerErrorCode =
  /** The server could not listen (e.g. the host is not a local address). */
  | 'LISTEN_FAILED'
  /** A method was called on a server after `close()`. */
  | 'SERVER_CLOSED'
  /** `useMockServer()`'s handle was used before its `beforeAll` hook ran. */
  | 'NOT_STARTED'
  /** A matcher received something that is not an endpoint handle. */
  | 'NOT_AN_ENDPOINT'
  /** A request matcher was called without `await` (the test that did it fails with this). */
  | 'MATCHER_NOT_AWAITED'
  /** The global setup ran without a project to provide the URL to. */
  | 'INVALID_SETUP'
  /** An optional package the requested feature needs is not installed (`level` for `store: 'level'`). */
  | 'MISSING_DEPENDENCY'
  /** `intercept` has an entry that is not an origin, or another server intercepts already. */
  | 'INVALID_INTERCEPT'
  /** An intercepted request (`interceptUnmatched: 'error'`) for a host that is not intercepted. */
  | 'HOST_NOT_MOCKED'
  /**
   * A test session was asked for where there is none: outside a test, without
   * `mockpoint({ sessions: true })`, or from a request that left every test's context
   * while several ran at once.
   */
  | 'NO_SESSION'
  /** Requests of a test's session reached no endpoint or route (`onUnhandledRequest: 'error'`): that test fails. */
  | 'UNHANDLED_REQUEST'
  /** `mockpoint({ coverage: { failOnDead: true } })`: a route no test's request hit; the run fails. */
  | 'DEAD_MOCKS';

/**
 * An error raised by `@mockpoint/vitest` itself (errors from the service are
 * `MockpointError`s); its codes are in core's error registry.
 */
export class MockServerError extends Error {
  override readonly name = 'MockServerError';
  /** Marks it as mockpoint's own, so the client passes it on instead of wrapping it. */
  readonly [OWN_ERROR] = true;
  readonly code: MockServerErrorCode;

  constructor(code: MockServerErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(`mockpoint: ${message}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
  }
}
