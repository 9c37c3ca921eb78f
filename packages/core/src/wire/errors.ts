/**
 * The error model shared by every mockpoint package: one base error with a stable
 * machine-readable `code`, the HTTP status it maps to, and the JSON body every
 * error response uses.
 *
 * @module
 */

/** Every error code mockpoint answers with, mapped to its HTTP status. */
export const ERROR_STATUS = {
  INVALID_JSON: 400,
  INVALID_BODY: 400,
  INVALID_NAME: 400,
  MISSING_DATA: 400,
  INVALID_STATUS_CODE: 400,
  INVALID_DELAY: 400,
  UNKNOWN_FIELD: 400,
  INVALID_QUERY: 400,
  INVALID_UTF8: 400,
  DUPLICATE_KEY: 400,
  INVALID_ENCODING: 400,
  REQUEST_ABORTED: 400,
  INVALID_FAULT: 400,
  INVALID_TIMES: 400,
  UNKNOWN_SIGNATURE_SCHEME: 400,
  INVALID_SIGNATURE_SECRET: 400,
  INVALID_SIGNATURE_OPTIONS: 400,
  INVALID_ROUTE: 400,
  INVALID_ROUTE_ID: 400,
  DUPLICATE_ROUTE_ID: 400,
  INVALID_ROUTE_PATTERN: 400,
  INVALID_MATCH: 400,
  INVALID_ANSWER: 400,
  INVALID_HEADER: 400,
  INVALID_TEMPLATE: 400,
  INVALID_DELIVERY: 400,
  INVALID_DELIVERY_URL: 400,
  DELIVERY_HOST_NOT_ALLOWED: 400,
  INVALID_RETRY: 400,
  INVALID_TAMPER: 400,
  INVALID_DELIVERY_TIMEOUT: 400,
  INVALID_STREAM: 400,
  STREAM_TOO_LONG: 400,
  MOCK_FILE_UNREADABLE: 400,
  MOCK_FILE_SYNTAX: 400,
  MOCK_FILE_INVALID: 400,
  UNAUTHORIZED: 401,
  SIGNATURE_INVALID: 401,
  HOST_NOT_ALLOWED: 403,
  CROSS_ORIGIN: 403,
  NOT_FOUND: 404,
  ROUTE_NOT_FOUND: 404,
  DELIVERY_NOT_FOUND: 404,
  NO_ROUTE_MATCHED: 404,
  METHOD_NOT_ALLOWED: 405,
  NAME_TAKEN: 409,
  QUEUE_FULL: 409,
  TOO_MANY_ROUTES: 409,
  DELIVERY_FINISHED: 409,
  BODY_TOO_LARGE: 413,
  UNSUPPORTED_ENCODING: 415,
  INTERNAL: 500,
  STORE_UNAVAILABLE: 503,
  TOO_MANY_WAITERS: 503,
  TOO_MANY_STREAMS: 503,
  TOO_MANY_DELIVERIES: 503,
  DATA_DIR_LOCKED: 503,
  DATA_DIR_DAMAGED: 503,
  WAIT_TIMEOUT: 408,
  UNEXPECTED_RESPONSE: 502,
  UNEXPECTED_REQUEST: 417,
} as const;

/** A stable, machine-readable error code. */
export type ErrorCode = keyof typeof ERROR_STATUS;

/** The JSON body of every error response. */
export interface ErrorBody {
  success: false;
  error: { code: ErrorCode; message: string; details?: Record<string, unknown> };
}

/**
 * Set to `true` on every error mockpoint raises itself, in any of its packages
 * (`MockpointError`, `ConnectionError`, the Vitest package's `MockServerError`).
 * A registered symbol, so two copies of the packages still agree.
 */
export const OWN_ERROR: unique symbol = Symbol.for('mockpoint.ownError');

/**
 * True for an error mockpoint raised itself (marked with {@link OWN_ERROR}), as
 * opposed to one from the network, the runtime or a dependency — even when
 * those carry a string `code` too (Node's `ECONNREFUSED`, Bun's fetch errors).
 */
export function isOwnError(value: unknown): value is Error & { code: string } {
  return typeof value === 'object' && value !== null && (value as { [OWN_ERROR]?: unknown })[OWN_ERROR] === true;
}

/** Options for {@link MockpointError}. */
export interface MockpointErrorOptions {
  /** HTTP status; defaults to the status registered for the code. */
  status?: number;
  /** The underlying error, kept for logs and error reporting. */
  cause?: unknown;
  /** Extra response headers, e.g. `accept-encoding` with a 415. */
  headers?: Record<string, string>;
  /** Machine-readable specifics sent as `error.details`, e.g. `{ index: 2 }` of the route at fault. */
  details?: Record<string, unknown>;
}

/**
 * An error with a stable `code`. Errors that reach the HTTP layer are turned
 * into `{ success: false, error: { code, message } }` by {@link MockpointError.toResponse}.
 */
export class MockpointError extends Error {
  override readonly name = 'MockpointError';
  readonly [OWN_ERROR] = true;
  readonly code: ErrorCode;
  readonly status: number;
  /** Extra headers sent with the error response. */
  readonly headers: Readonly<Record<string, string>> | undefined;
  /** Sent as `error.details` when present. */
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(code: ErrorCode, message: string, options: MockpointErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = options.status ?? ERROR_STATUS[code];
    this.headers = options.headers;
    this.details = options.details;
  }

  /** The JSON body for this error. */
  toJSON(): ErrorBody {
    const error: ErrorBody['error'] = { code: this.code, message: this.message };
    if (this.details !== undefined) error.details = { ...this.details };
    return { success: false, error };
  }

  /** A complete HTTP response for this error. */
  toResponse(): Response {
    return new Response(JSON.stringify(this.toJSON()), {
      status: this.status,
      headers: { ...this.headers, 'content-type': 'application/json; charset=utf-8' },
    });
  }
}

/** True for any value shaped like a {@link MockpointError} (checked by shape, not `instanceof`). */
export function isMockpointError(value: unknown): value is MockpointError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as MockpointError).code === 'string' &&
    typeof (value as MockpointError).toResponse === 'function'
  );
}
