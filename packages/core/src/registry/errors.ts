/**
 * The error model shared by every mockpoint package: one base error with a stable
 * machine-readable `code` from the registry (error-codes.ts), the HTTP status it maps
 * to, and the JSON body every error response uses. The server, the client, the CLI
 * and the Vitest package throw this class (or a subclass of it).
 *
 * @module
 */

import { ERROR_STATUS, type ErrorCode } from './error-status.js';
import { hasShape } from './shape.js';

export type { ErrorCode } from './error-status.js';

/** The JSON body of every error response. */
export interface ErrorBody {
  success: false;
  error: { code: ErrorCode; message: string; details?: Record<string, unknown> };
}

/**
 * Set to `true` on every error mockpoint raises itself, in any of its packages
 * (every {@link MockpointError}, including `ConnectionError`, the CLI's errors and
 * the Vitest package's `MockServerError`).
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
  override readonly name: string = 'MockpointError';
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
    this.status = options.status ?? ERROR_STATUS[code] ?? 500;
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
  return hasShape(value, { code: 'string', toResponse: 'function' });
}

/**
 * Node's (and undici's) error code of a failed connection (`ECONNREFUSED`, `ENOTFOUND`, …), looking
 * through `cause`s: `fetch` wraps it in a TypeError. `undefined` when no code is found.
 */
export function connectionErrorCode(error: unknown): string | undefined {
  let current = error as { code?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; current !== undefined && current !== null && depth < 4; depth++) {
    if (typeof current.code === 'string') return current.code;
    current = current.cause as typeof current;
  }
  return undefined;
}
