/**
 * The typed mockpoint client: fetch-based and runtime-agnostic. It talks to a
 * daemon over HTTP, or straight to an app with no socket at all.
 *
 * @module
 */

import type { JournalPage, RequestFilter } from '../api/journal-json.js';
import type { EndpointRecord, ListPage } from '../api/schemas.js';
import type { JsonText } from '../codec/json-text.js';
import type { LimitName } from '../registry/settings.js';
import { chaosMethods } from './chaos.js';
import { clockMethods } from './clock.js';
import { collectionMethods } from './collections.js';
import { contractMethods } from './contracts.js';
import { deliveryMethods } from './deliveries.js';
import { endpointMethods } from './endpoints.js';
import { graphqlSchemaMethods } from './graphql-schema.js';
import { grpcMethods } from './grpc-definitions.js';
import { hostMethods } from './hosts.js';
import { journalMethods } from './journal.js';
import { namespaceMethods } from './namespaces.js';
import { queueMethods } from './queue.js';
import { routeMethods } from './routes.js';
import { serviceMethods } from './service.js';
import { signatureMethods } from './signature.js';
import { socketMethods } from './sockets.js';
import { stateMethods } from './state.js';
import { createTransport } from './transport.js';
import { twinMethods } from './twin.js';

export { ConnectionError } from './transport.js';

/** Something with a Fetch-API `fetch`, e.g. the app returned by `createApp()`. */
export interface Fetchable {
  fetch(request: Request): Response | Promise<Response>;
}

/** Options for {@link createClient}. */
export interface ClientOptions {
  /**
   * Base URL of the service, path prefix included when behind a proxy.
   * @example 'http://localhost:16540'
   */
  baseUrl: string;
  /** Admin token, sent as `Authorization: Bearer <token>`. @default undefined */
  token?: string;
  /**
   * Where requests go instead of the network: an app (`createApp()`) or a fetch function.
   * @default globalThis.fetch
   * @example createClient({ baseUrl: 'http://app.local', app: createApp() })
   */
  app?: Fetchable;
  /**
   * A fetch function to send every request with (e.g. one that adds headers or
   * records traffic). Takes precedence over `app`. @default globalThis.fetch
   */
  fetch?: (request: Request) => Promise<Response>;
}

/**
 * An endpoint as stored, with its data typed. `data` is parsed into JavaScript
 * values, so numbers beyond double precision (e.g. 64-bit ids) come back rounded
 * here although the server keeps and serves them exactly: use
 * {@link MockpointClient.dataText} for the exact text.
 */
export interface Endpoint<T = unknown> {
  name: string;
  data: T;
  statusCode: number;
  delay: number;
}

/** What defines an endpoint besides its name. */
export interface EndpointDefinition<T = unknown> {
  /**
   * The answer. A {@link JsonText} is sent as its exact text, e.g.
   * `JsonText.parse('{"id":12345678901234567890}')` for numbers a JavaScript number cannot hold.
   */
  data: T | JsonText;
  /** 200–599. @default 200 */
  statusCode?: number;
  /** Milliseconds. @default 0 */
  delay?: number;
}

/** Options of the item methods (`item`, `insertItem`, …): the field that holds each item's id. */
export interface ItemOptions {
  /** As a resource route's `idField` (1-64 characters). @default 'id' */
  idField?: string;
}

/**
 * A JSON Merge Patch (RFC 7396) of a `T`: any of its fields, nested objects in
 * part, `null` to remove a field (arrays are replaced whole).
 * @example const patch: MergePatch<User> = { address: { city: 'Paris' }, nickname: null }
 */
export type MergePatch<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [K in keyof T]?: MergePatch<T[K]> | null }
    : T;

/** Options for {@link MockpointClient.waitForRequests}. */
export interface WaitOptions {
  /** How many requests to wait for. @default 1 */
  count?: number;
  /**
   * Give up after this many milliseconds, with a `WAIT_TIMEOUT` error saying what
   * did arrive. The default stays under Vitest's 5 s test timeout, so that error
   * is what a test reports. @default 4000
   */
  timeout?: number;
  /** Stops waiting (the pending long-poll is cancelled) when aborted. */
  signal?: AbortSignal;
  /**
   * Count only requests with a greater id: pass the last id you saw to wait for
   * new ones. @default 0 (every recorded request counts)
   */
  after?: number;
  /**
   * Count (and return) only requests matching this filter; the server applies it,
   * so unrelated traffic neither ends the wait nor travels back.
   * @default undefined (every request counts)
   * @example { method: 'POST', body: { type: 'order.paid' } }
   */
  match?: RequestFilter;
}

/** Options for {@link MockpointClient.expectNoRequests}. */
export interface QuietOptions {
  /** How long nothing may arrive, in milliseconds (chained long-polls past 60 s). */
  within: number;
  /**
   * Count only requests with a greater id. @default the newest id when the call
   * starts (only requests arriving during the window count); `0` counts every
   * recorded request
   */
  after?: number;
  /** Count only requests matching this filter. @default undefined (every request counts) */
  match?: RequestFilter;
  /** Stops waiting when aborted. */
  signal?: AbortSignal;
}

/** Health check answer. */
export interface Health {
  status: 'ok' | 'degraded' | 'unavailable';
  /** Why the status is not `ok`. */
  reason?: string;
  version: string;
  store: string;
  /** Journal long-polls the server (this replica) holds now. */
  longPolls: number;
  /** The server's limits (every setting marked as a limit in the settings table), e.g. to check input against. */
  limits: Record<LimitName, number>;
}

/** What {@link MockpointClient.list} asks for. */
export interface ListQuery {
  /** Page size, 1–1000. @default 100 */
  limit?: number;
  /** Only names after this one: the `next` of the previous page. */
  after?: string;
  /** Only names starting with this (case-sensitive). */
  prefix?: string;
  /** Only endpoints whose name or data (its JSON text) contains this, ignoring case (reads every record). */
  contains?: string;
  /** Give each listed name `requests`: how many requests its journal holds (up to the journal's size). */
  requests?: boolean;
}

/** A name with routes and no record, as the list shows it. */
export interface RoutesOnlyEntry {
  name: string;
  /** How many routes it has. */
  routes: number;
  /** With `requests: true`: how many requests its journal holds. */
  requests?: number;
}

/**
 * A name with neither a record nor routes that holds a GraphQL schema, protobuf definitions, hosts,
 * chaos or collections, as the list shows it: each it holds `true` (docs/files.md#what-export-holds).
 */
export interface SchemaOnlyEntry {
  name: string;
  graphql?: true;
  grpc?: true;
  hosts?: true;
  chaos?: true;
  signature?: true;
  twin?: true;
  collections?: true;
  /** It has none (absent), as a record without routes. */
  routes?: undefined;
  /** With `requests: true`: how many requests its journal holds. */
  requests?: number;
}

/**
 * A record as the list shows it: with its route count when it has routes, and
 * with `requests: true` how many requests its journal holds.
 */
export type ListedRecord = EndpointRecord & { routes?: number; requests?: number };

/**
 * A page of the list: records and names with routes and no record, in name
 * order, with the total number of names (with the prefix, when given).
 */
export interface ListAnswer extends Omit<ListPage, 'endpoints'> {
  endpoints: (ListedRecord | RoutesOnlyEntry | SchemaOnlyEntry)[];
  total: number;
}

/** A page of the list without the records' `data`. */
export interface SummaryAnswer extends Omit<ListAnswer, 'endpoints'> {
  endpoints: (Omit<ListedRecord, 'data'> | RoutesOnlyEntry | SchemaOnlyEntry)[];
}

/** One read of a journal: its entries and the id of the journal they come from. */
export interface JournalAnswer extends JournalPage {
  /** Changes when the journal starts anew (a restarted daemon): ids start again at 1. */
  journalId: string;
}

/** The typed client returned by {@link createClient}. */
export type MockpointClient = ReturnType<typeof createClient>;

/**
 * Creates a client.
 * @example
 * const client = createClient({ baseUrl: 'http://localhost:16540' })
 * await client.add({ name: 'hook', data: { ok: true } })
 * const [request] = await client.waitForRequests('hook')
 */
export function createClient(options: ClientOptions) {
  const transport = createTransport(options);
  return {
    /** The base URL this client talks to. */
    baseUrl: transport.base,

    /**
     * The public URL of an endpoint, e.g. for the code under test; with a
     * `subpath`, the URL of that path below it (what its routes answer).
     * @example client.endpointUrl('github', '/repos/acme/app') // http://…/endpoint/github/repos/acme/app
     */
    endpointUrl: transport.endpointUrl,
    ...endpointMethods(transport),
    ...journalMethods(transport),
    ...contractMethods(transport),
    ...queueMethods(transport),
    ...deliveryMethods(transport),
    ...routeMethods(transport),
    ...socketMethods(transport),
    ...collectionMethods(transport),
    ...stateMethods(transport),
    ...clockMethods(transport),
    ...signatureMethods(transport),
    ...chaosMethods(transport),
    ...graphqlSchemaMethods(transport),
    ...grpcMethods(transport),
    ...hostMethods(transport),
    ...twinMethods(transport),
    ...namespaceMethods(transport),
    ...serviceMethods(transport),
  };
}
