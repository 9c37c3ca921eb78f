/**
 * The limits of a mockpoint instance, defined once: `createApp`, the daemon's
 * settings and `createMockServer` all take this type.
 *
 * @module
 */
import { DEFAULT_MAX_DELAY_MS } from './record-defaults.js';

/** The limits of one instance; every field is optional and has a default. */
export interface LimitOptions {
  /** Largest accepted request body, in bytes. @default 5242880 (5 MiB) */
  maxBodyBytes?: number;
  /** Largest accepted `delay`, in milliseconds. @default 60000 */
  maxDelayMs?: number;
  /** Requests kept per endpoint in the journal. @default 100 */
  journalSize?: number;
  /** Approximate bytes all recorded requests may take together. @default 67108864 (64 MiB) */
  journalMaxBytes?: number;
  /** Bytes of pre-serialised responses kept in memory. @default 67108864 (64 MiB) */
  cacheMaxBytes?: number;
  /** Journal streams (`…/requests/stream`) open at once; one more is refused with `TOO_MANY_STREAMS`. @default 1000 */
  maxStreams?: number;
  /** Routes one endpoint may have. @default 10000 */
  maxRoutes?: number;
}

export const DEFAULT_MAX_BODY_BYTES = 5 * 1024 * 1024;
export const DEFAULT_JOURNAL_SIZE = 100;
export const DEFAULT_JOURNAL_MAX_BYTES = 64 * 1024 * 1024;
export const DEFAULT_CACHE_MAX_BYTES = 64 * 1024 * 1024;
export const DEFAULT_MAX_STREAMS = 1000;
export const DEFAULT_MAX_ROUTES = 10_000;

/** The default of every limit. */
export const DEFAULT_LIMITS: Readonly<Required<LimitOptions>> = Object.freeze({
  maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
  maxDelayMs: DEFAULT_MAX_DELAY_MS,
  journalSize: DEFAULT_JOURNAL_SIZE,
  journalMaxBytes: DEFAULT_JOURNAL_MAX_BYTES,
  cacheMaxBytes: DEFAULT_CACHE_MAX_BYTES,
  maxStreams: DEFAULT_MAX_STREAMS,
  maxRoutes: DEFAULT_MAX_ROUTES,
});

/** The names of the limits, e.g. to pick them out of a larger options object. */
export const LIMIT_KEYS = Object.keys(DEFAULT_LIMITS) as ReadonlyArray<keyof LimitOptions>;

/** Every limit of `options`, defaults for the ones not set. */
export function resolveLimits(options: LimitOptions): Required<LimitOptions> {
  const resolved = { ...DEFAULT_LIMITS };
  for (const key of LIMIT_KEYS) {
    const value = options[key];
    if (value !== undefined) resolved[key] = value;
  }
  return resolved;
}

/** Only the limits of `options` (the fields that are set), e.g. to pass them on. */
export function pickLimits(options: LimitOptions): LimitOptions {
  const picked: LimitOptions = {};
  for (const key of LIMIT_KEYS) {
    const value = options[key];
    if (value !== undefined) picked[key] = value;
  }
  return picked;
}

/** The defaults of the Node server's connection limits (`serve()` of `@mockpoint/core/node`). */
export const DEFAULT_CONNECTION_LIMITS = {
  maxConnections: 10_000,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
} as const;

/** A long-poll never holds a request longer than this. */
export const MAX_WAIT_MS = 60_000;

/** The journal keeps at most this many bytes of each request body. */
export const JOURNAL_BODY_LIMIT = 64 * 1024;

/** Names longer than this are neither recorded nor readable (they cannot be valid either). */
export const JOURNAL_NAME_LIMIT = 256;
