/**
 * The limits of a mockpoint instance, defined once: `createApp`, the daemon's
 * settings and `createMockServer` all take this type.
 *
 * @module
 */
import { LIMIT_NAMES, type LimitName, SETTINGS } from './settings.js';

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
  /** Events one streamed answer may have. @default 10000 */
  maxStreamEvents?: number;
  /** Largest sum of a streamed answer's delays, in milliseconds. @default 600000 (10 minutes) */
  maxStreamMs?: number;
  /** Routes one endpoint name may have. @default 10000 */
  maxRoutes?: number;
  /** Items one collection may hold. @default 10000 */
  maxCollectionItems?: number;
  /** Bytes of JSON text one collection's items may add up to. @default 16777216 (16 MiB) */
  maxCollectionBytes?: number;
  /** Largest WebSocket message either way, in bytes. @default 1048576 (1 MiB) */
  maxSocketFrameBytes?: number;
  /** WebSocket connections one endpoint name may hold open. @default 1000 */
  maxSocketsPerName?: number;
  /** Milliseconds a WebSocket connection may go without a message, ping or pong either way (then closed with 1001). @default 300000 (5 minutes) */
  socketIdleTimeoutMs?: number;
  /** Milliseconds a WebSocket client may take to send one whole message, all its fragments (then closed with 1008). @default 30000 */
  socketMessageTimeoutMs?: number;
  /** UTF-8 bytes of one endpoint's GraphQL schema (SDL). @default 4194304 (4 MiB) */
  maxGraphqlSchemaBytes?: number;
  /** Bytes of one endpoint's protobuf definitions (the `.proto` sources' UTF-8, or the descriptor set's bytes). @default 4194304 (4 MiB) */
  maxGrpcDefinitionsBytes?: number;
  /** Largest gRPC-family request message, in bytes (more: `RESOURCE_EXHAUSTED`). @default 4194304 (4 MiB) */
  maxGrpcMessageBytes?: number;
  /** Messages a client may send on one gRPC-family call (more: `RESOURCE_EXHAUSTED`). @default 10000 */
  maxGrpcStreamMessages?: number;
  /** Native gRPC calls one HTTP/2 connection may have open at once (more: `RESOURCE_EXHAUSTED`). @default 100 */
  maxGrpcStreams?: number;
  /** Events a GraphQL subscription over graphql-ws gets from the schema before `complete` (0: none). @default 3 */
  graphqlSubscriptionEvents?: number;
  /** Milliseconds before each of those events. @default 1000 */
  graphqlSubscriptionIntervalMs?: number;
  /** Open client connections per listening address (adapters that listen apply it). @default 10000 */
  maxConnections?: number;
  /** Journal streams (`…/requests/stream`) open at once; one more is refused with `TOO_MANY_STREAMS`. @default 1000 */
  maxStreams?: number;
  /** Namespaces (test sessions) that may exist at once (0: namespaces off); one more is refused with `TOO_MANY_NAMESPACES`. @default 10000 */
  maxNamespaces?: number;
  /** Endpoints one namespace may hold; one more is refused with `TOO_MANY_ENDPOINTS` (the default namespace is not bounded). @default 10000 */
  maxEndpointsPerNamespace?: number;
}

// LimitOptions has exactly the limits of the settings table (a compile error otherwise).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const limitsMatchSettings: Same<keyof LimitOptions, LimitName> = true;
void limitsMatchSettings;

export const DEFAULT_MAX_BODY_BYTES = SETTINGS.maxBodyBytes.default;
export const DEFAULT_JOURNAL_SIZE = SETTINGS.journalSize.default;
export const DEFAULT_JOURNAL_MAX_BYTES = SETTINGS.journalMaxBytes.default;
export const DEFAULT_CACHE_MAX_BYTES = SETTINGS.cacheMaxBytes.default;
export const DEFAULT_MAX_STREAMS = SETTINGS.maxStreams.default;
export const DEFAULT_MAX_ROUTES = SETTINGS.maxRoutes.default;

/**
 * How many times the body limit one routes list may take (`PUT`/`POST
 * /api/endpoints/{name}/routes`): each route's answer is held to the body limit
 * on its own, and a list is many of them. GitHub's OpenAPI description imports
 * to 9 MB of routes; 8 × the default 5 MiB is 40 MiB.
 */
export const ROUTES_BODY_FACTOR = 8;

/** The largest routes list body, in bytes, under the body limit `maxBodyBytes`. */
export function routesBodyBytes(maxBodyBytes: number): number {
  return maxBodyBytes * ROUTES_BODY_FACTOR;
}

/** The default of every limit, from the settings table. */
export const DEFAULT_LIMITS: Readonly<Required<LimitOptions>> = Object.freeze(
  Object.fromEntries(LIMIT_NAMES.map((name) => [name, SETTINGS[name].default])) as Required<LimitOptions>,
);

/** The names of the limits, e.g. to pick them out of a larger options object. */
export const LIMIT_KEYS: ReadonlyArray<keyof LimitOptions> = LIMIT_NAMES;

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
  maxConnections: SETTINGS.maxConnections.default,
  headersTimeoutMs: SETTINGS.headersTimeoutMs.default,
  requestTimeoutMs: SETTINGS.requestTimeoutMs.default,
} as const;

/** A long-poll never holds a request longer than this. */
export const MAX_WAIT_MS = 60_000;

/** The journal keeps at most this many bytes of each request body. */
export const JOURNAL_BODY_LIMIT = 64 * 1024;

/** Names longer than this are neither recorded nor readable (they cannot be valid either). */
export const JOURNAL_NAME_LIMIT = 256;
