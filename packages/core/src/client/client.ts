/**
 * The typed mockpoint client: fetch-based and runtime-agnostic. It talks to a
 * daemon over HTTP, or straight to an app with no socket at all.
 *
 * @module
 */

import type { QueuedAnswer, QueuedAnswerInput } from '../wire/answer-json.js';
import type { SocketClose, SocketFrame, SocketInfo } from '../wire/answer-websocket.js';
import type { Delivery, DeliveryInput, DeliveryPage } from '../wire/delivery-json.js';
import { type ErrorCode, isOwnError, MockpointError, OWN_ERROR } from '../wire/errors.js';
import type { GraphqlPush, GraphqlSchemaBody } from '../wire/graphql-json.js';
import type { HostEntry } from '../wire/host-mapping.js';
import type { JournalEntry, JournalPage, LiveRequest, RequestFilter } from '../wire/journal-json.js';
import { JsonText, scanJson, stringifyExact } from '../wire/json-text.js';
import type { Route, RouteInput } from '../wire/route.js';
import type { EndpointRecord, ListPage } from '../wire/schemas.js';
import type { LimitName } from '../wire/settings.js';
import type { SignatureInput, SignatureView } from '../wire/signature-settings.js';
import { type WatchRequestsOptions, watchRequests } from './watch-requests.js';

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

/** The service could not be reached at all (as opposed to answering with an error). */
export class ConnectionError extends Error {
  override readonly name = 'ConnectionError';
  readonly [OWN_ERROR] = true;
  readonly code = 'CONNECTION_FAILED' satisfies ErrorCode;
  /** The URL that could not be reached. */
  readonly url: string;

  constructor(url: string, cause: unknown) {
    super(`cannot reach mockpoint at ${url}: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.url = url;
  }
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

/** A name with a GraphQL schema and neither a record nor routes, as the list shows it (docs/graphql.md). */
export interface SchemaOnlyEntry {
  name: string;
  graphql: true;
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

/** Default of {@link WaitOptions.timeout}. */
const DEFAULT_WAIT_MS = 4000;
/** Longest single long-poll the server allows; longer waits are chained. */
const MAX_POLL_MS = 60_000;

/**
 * Creates a client.
 * @example
 * const client = createClient({ baseUrl: 'http://localhost:16540' })
 * await client.add({ name: 'hook', data: { ok: true } })
 * const [request] = await client.waitForRequests('hook')
 */
export function createClient(options: ClientOptions) {
  const base = options.baseUrl.replace(/\/+$/, '');
  const send: (request: Request) => Promise<Response> =
    options.fetch ??
    (options.app ? async (request) => (options.app as Fetchable).fetch(request) : (request) => fetch(request));

  const url = (path: string) => `${base}${path}`;
  const seg = (name: string) => encodeURIComponent(name);
  const endpointUrl = (name: string, subpath = '') => url(`/endpoint/${seg(name)}${subpathOf(subpath)}`);

  async function call(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<Response> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const target = url(path);
    let response: Response;
    try {
      response = await send(
        new Request(target, { method, headers, signal, body: body === undefined ? undefined : bodyText(body) }),
      );
    } catch (error) {
      throw toConnectionError(target, error, signal);
    }
    if (response.ok) return response;
    throw await toError(response, method, target);
  }

  async function json<T>(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
    return (await (await call(method, path, body, signal)).json()) as T;
  }

  /** One journal read; a long-poll when `wait` is given. */
  function journalPage(
    name: string,
    query: { count?: number; after?: number; wait?: number; match?: RequestFilter },
    signal?: AbortSignal,
  ): Promise<JournalAnswer> {
    const params = new URLSearchParams();
    if (query.count !== undefined) params.set('count', String(query.count));
    if (query.after) params.set('after', String(query.after));
    if (query.wait !== undefined) params.set('wait', String(query.wait));
    if (query.match !== undefined) params.set('match', JSON.stringify(query.match));
    const qs = params.size ? `?${params}` : '';
    return json<JournalAnswer>('GET', `/api/endpoints/${seg(name)}/requests${qs}`, undefined, signal);
  }

  /**
   * An `after` cursor across several reads of one journal. When the journal
   * starts anew between reads (another `journalId`: the daemon restarted, ids
   * begin again at 1), the cursor goes back to 0 (everything in the new journal
   * is newer than what was seen) and the read that used the old one is stale.
   */
  function journalCursor(after: number, first?: JournalAnswer) {
    let journalId = first?.journalId;
    return {
      after,
      /** Whether `page` was read with a cursor from another journal (then read again). */
      stale(page: JournalAnswer): boolean {
        const changed = journalId !== undefined && page.journalId !== journalId;
        journalId = page.journalId;
        if (changed && this.after !== 0) {
          this.after = 0;
          return true;
        }
        return false;
      },
    };
  }

  const describeSeen = (requests: JournalEntry[]) => requests.map((r) => `${r.method} ${r.path}`).join(', ') || 'none';

  return {
    /** The base URL this client talks to. */
    baseUrl: base,

    /**
     * The public URL of an endpoint, e.g. for the code under test; with a
     * `subpath`, the URL of that path below it (what its routes answer).
     * @example client.endpointUrl('github', '/repos/acme/app') // http://…/endpoint/github/repos/acme/app
     */
    endpointUrl,

    /** Creates an endpoint (`PUT /api/endpoint/add`); throws `NAME_TAKEN` when it exists. */
    async add<T>(endpoint: { name: string } & EndpointDefinition<T>): Promise<Endpoint<T>> {
      const { success: _success, ...record } = await json<Endpoint<T> & { success: true }>(
        'PUT',
        '/api/endpoint/add',
        endpoint,
      );
      return record;
    },

    /** Creates or replaces an endpoint; `created` tells which. */
    async put<T>(name: string, definition: EndpointDefinition<T>): Promise<Endpoint<T> & { created: boolean }> {
      const response = await call('PUT', `/api/endpoints/${seg(name)}`, definition);
      return { ...((await response.json()) as Endpoint<T>), created: response.status === 201 };
    },

    /**
     * The stored `data` of an endpoint as its exact JSON text (big integers,
     * `1e400`, `-0` and key order as sent); throws `NOT_FOUND` when there is none.
     */
    async dataText(name: string): Promise<string> {
      const text = await (await call('GET', `/api/endpoints/${seg(name)}`)).text();
      return scanJson(text).members?.get('data') ?? 'null';
    },

    /**
     * Reads an endpoint record with its `data` as a {@link JsonText}: the stored
     * text exactly (big integers, `1.0`, `-0`, escapes and key order as sent), for
     * code that shows or edits it; throws `NOT_FOUND` when there is none.
     */
    async getExact(name: string): Promise<Endpoint<JsonText>> {
      const members = scanJson(await (await call('GET', `/api/endpoints/${seg(name)}`)).text()).members;
      const field = (key: string) => JSON.parse(members?.get(key) ?? 'null') as unknown;
      return {
        name: field('name') as string,
        data: new JsonText(members?.get('data') ?? 'null'),
        statusCode: field('statusCode') as number,
        delay: field('delay') as number,
      };
    },

    /** Reads an endpoint record; throws `NOT_FOUND` when there is none. */
    get<T = unknown>(name: string): Promise<Endpoint<T>> {
      return json('GET', `/api/endpoints/${seg(name)}`);
    },

    /** One page of endpoints in name order, with their `total`; pass `next` as `after` for the next one. */
    list(page: ListQuery = {}): Promise<ListAnswer> {
      return json('GET', `/api/endpoints${listQuery(page, false)}`);
    },

    /** Like {@link list}, without the records' `data` (name, status and delay only: a small answer). */
    summaries(page: ListQuery = {}): Promise<SummaryAnswer> {
      return json('GET', `/api/endpoints${listQuery(page, true)}`);
    },

    /** Deletes an endpoint; throws `NOT_FOUND` when there is none. */
    async remove(name: string): Promise<void> {
      await call('DELETE', `/api/endpoints/${seg(name)}`);
    },

    /** Removes every endpoint, collection and recorded request. */
    async reset(): Promise<void> {
      await call('DELETE', '/api/endpoints');
    },

    /**
     * Requests received at an endpoint (known or not), oldest first; only ids
     * greater than `after`, and only those matching `match`, when given.
     */
    async requests(name: string, options: { after?: number; match?: RequestFilter } = {}): Promise<JournalEntry[]> {
      return (await journalPage(name, options)).requests;
    },

    /**
     * One read of a name's journal, with the `journalId` (compare it between reads:
     * a new one means ids started again). With `wait`, the server holds the answer
     * up to that many ms until `count` requests newer than `after` exist.
     */
    journal(
      name: string,
      read: { after?: number; wait?: number; count?: number; signal?: AbortSignal } = {},
    ): Promise<JournalAnswer> {
      const query = new URLSearchParams();
      if (read.wait) query.set('wait', String(read.wait));
      if (read.count !== undefined) query.set('count', String(read.count));
      if (read.after) query.set('after', String(read.after));
      const qs = query.size ? `?${query}` : '';
      return json('GET', `/api/endpoints/${seg(name)}/requests${qs}`, undefined, read.signal);
    },

    /** Forgets the requests recorded for a name. */
    async clearRequests(name: string): Promise<void> {
      await call('DELETE', `/api/endpoints/${seg(name)}/requests`);
    },

    /**
     * Waits until at least `count` requests have arrived at `name` (server-side
     * long-poll: no polling loop), and returns them. Throws `WAIT_TIMEOUT`, saying
     * what did arrive, when they do not arrive in time.
     */
    async waitForRequests(name: string, wait: WaitOptions = {}): Promise<JournalEntry[]> {
      const count = wait.count ?? 1;
      const timeout = wait.timeout ?? DEFAULT_WAIT_MS;
      const deadline = Date.now() + timeout;
      const cursor = journalCursor(wait.after ?? 0);
      for (;;) {
        wait.signal?.throwIfAborted();
        const remaining = Math.max(0, deadline - Date.now());
        const page = await journalPage(
          name,
          { count, after: cursor.after, wait: Math.min(remaining, MAX_POLL_MS), match: wait.match },
          wait.signal,
        );
        if (cursor.stale(page)) continue;
        if (page.complete) return page.requests;
        wait.signal?.throwIfAborted();
        if (Date.now() >= deadline) {
          const which = wait.match === undefined ? '' : ` matching ${JSON.stringify(wait.match)}`;
          throw new MockpointError(
            'WAIT_TIMEOUT',
            `expected ${count} request(s)${which} to "${name}" within ${timeout} ms, received ${page.requests.length} (${describeSeen(page.requests)})`,
          );
        }
      }
    },

    /**
     * Proves that no request (matching `match`, when given) arrives at `name` for
     * `within` ms: resolves after the quiet period, and throws
     * `UNEXPECTED_REQUEST`, naming the request, as soon as one arrives.
     * @example await client.expectNoRequests('hook', { within: 500 }) // not sent again
     */
    async expectNoRequests(name: string, quiet: QuietOptions): Promise<void> {
      if (!Number.isFinite(quiet.within) || quiet.within < 0) {
        throw new TypeError(`expectNoRequests() needs within >= 0 milliseconds, received ${String(quiet.within)}`);
      }
      const started = Date.now();
      const deadline = started + quiet.within;
      let first: JournalAnswer | undefined;
      if (quiet.after === undefined) first = await journalPage(name, {}, quiet.signal);
      const cursor = journalCursor(quiet.after ?? first?.requests.at(-1)?.id ?? 0, first);
      for (;;) {
        quiet.signal?.throwIfAborted();
        const remaining = Math.max(0, deadline - Date.now());
        const page = await journalPage(
          name,
          { count: 1, after: cursor.after, wait: Math.min(remaining, MAX_POLL_MS), match: quiet.match },
          quiet.signal,
        );
        if (cursor.stale(page)) continue;
        if (page.requests.length > 0) {
          const which = quiet.match === undefined ? '' : ` matching ${JSON.stringify(quiet.match)}`;
          throw new MockpointError(
            'UNEXPECTED_REQUEST',
            `expected no request${which} to "${name}" within ${quiet.within} ms, but received ${describeSeen(page.requests)} after ${Date.now() - started} ms`,
          );
        }
        quiet.signal?.throwIfAborted();
        if (Date.now() >= deadline) return;
      }
    },

    /**
     * Queues one-shot answers for `name`: the next requests get them in order,
     * each once (`times` repeats one), before the stored record answers. Absent
     * fields fall back to the record; a `data` that is a {@link JsonText} is sent as its
     * exact text. Resolves with everything queued now.
     * @throws MockpointError `QUEUE_FULL` past the bound (nothing is queued).
     * @example await client.queue('hook', [{ statusCode: 503, times: 2 }, { fault: 'reset' }])
     */
    async queue(name: string, answers: QueuedAnswerInput[]): Promise<QueuedAnswer[]> {
      return (await json<{ answers: QueuedAnswer[] }>('POST', `/api/endpoints/${seg(name)}/queue`, { answers }))
        .answers;
    },

    /** The answers still queued for `name`, first answer first (`times` is what remains). */
    async queued(name: string): Promise<QueuedAnswer[]> {
      return (await json<{ answers: QueuedAnswer[] }>('GET', `/api/endpoints/${seg(name)}/queue`)).answers;
    },

    /** Drops the answers queued for `name` (requests hanging on a queued `hang` are released). */
    async clearQueue(name: string): Promise<void> {
      await call('DELETE', `/api/endpoints/${seg(name)}/queue`);
    },

    /**
     * Sends a webhook to a receiver under test (`POST /api/deliveries`): signed
     * afresh on every attempt, retried on its schedule, tampered with when asked.
     * Resolves at once with the delivery (`pending`); {@link waitForDelivery}
     * waits for its outcome. `data` may be a {@link JsonText} for exact bytes.
     * @example
     * const sent = await client.deliver({ url: 'http://127.0.0.1:3000/webhooks', data: { type: 'order.paid' },
     *   sign: { scheme: 'standard', secret: 'whsec_…' }, retry: { delaysMs: [100, 500] } })
     * const done = await client.waitForDelivery(sent.id) // done.state: 'delivered' | 'failed'
     */
    async deliver(input: DeliveryInput): Promise<Delivery> {
      return json<Delivery>('POST', '/api/deliveries', input);
    },

    /** One delivery with every attempt so far. */
    async delivery(id: string): Promise<Delivery> {
      return json<Delivery>('GET', `/api/deliveries/${seg(id)}`);
    },

    /** Recent deliveries, newest first. */
    async deliveries(options: { limit?: number } = {}): Promise<Delivery[]> {
      const qs = options.limit === undefined ? '' : `?limit=${options.limit}`;
      return (await json<DeliveryPage>('GET', `/api/deliveries${qs}`)).deliveries;
    },

    /** Cancels a pending delivery; `DELIVERY_FINISHED` when it is no longer pending. */
    async cancelDelivery(id: string): Promise<Delivery> {
      return json<Delivery>('DELETE', `/api/deliveries/${seg(id)}`);
    },

    /**
     * Waits until a delivery is no longer pending (delivered, failed or
     * cancelled) and resolves it with every attempt; throws `WAIT_TIMEOUT`,
     * saying what the attempts got, when it is still pending after `timeout` ms.
     */
    async waitForDelivery(id: string, wait: { timeout?: number; signal?: AbortSignal } = {}): Promise<Delivery> {
      const timeout = wait.timeout ?? DEFAULT_WAIT_MS;
      const deadline = Date.now() + timeout;
      for (;;) {
        wait.signal?.throwIfAborted();
        const remaining = Math.max(0, deadline - Date.now());
        const qs = `?wait=${Math.min(remaining, MAX_POLL_MS)}`;
        const delivery = await json<Delivery>('GET', `/api/deliveries/${seg(id)}${qs}`, undefined, wait.signal);
        if (delivery.state !== 'pending') return delivery;
        wait.signal?.throwIfAborted();
        if (Date.now() >= deadline) {
          const got = delivery.attempts.map((a) => a.error?.code ?? String(a.status)).join(', ') || 'no attempt yet';
          throw new MockpointError(
            'WAIT_TIMEOUT',
            `delivery ${id} is still pending after ${timeout} ms (attempts: ${got}; next at ${delivery.nextAttemptAt ?? 'unknown'})`,
          );
        }
      }
    },

    /**
     * The routes of `name`, in the order they are tried (`[]` when it has none).
     * Each answer's `data` is parsed: use a {@link JsonText} when sending numbers
     * a JavaScript number cannot hold.
     */
    async routes(name: string): Promise<Route[]> {
      return (await json<{ routes: Route[] }>('GET', `/api/endpoints/${seg(name)}/routes`)).routes;
    },

    /**
     * Replaces every route of `name` at once (an empty list clears them) and
     * resolves with the routes as stored, ids generated where absent. A bad route
     * is refused (400, `error.details.index` names it) and nothing changes.
     * @example
     * await client.setRoutes('github', [
     *   { match: { method: 'GET', path: '/repos/:owner/:repo' }, answer: { data: { id: 1, name: 'app' } } },
     * ])
     */
    async setRoutes(name: string, routes: RouteInput[]): Promise<Route[]> {
      return (await json<{ routes: Route[] }>('PUT', `/api/endpoints/${seg(name)}/routes`, { routes })).routes;
    },

    /** Appends routes after those `name` has (all or none) and resolves with every route now. */
    async addRoutes(name: string, routes: RouteInput[]): Promise<Route[]> {
      return (await json<{ routes: Route[] }>('POST', `/api/endpoints/${seg(name)}/routes`, { routes })).routes;
    },

    /** Removes every route of `name` (its record, if any, stays). */
    async clearRoutes(name: string): Promise<void> {
      await call('DELETE', `/api/endpoints/${seg(name)}/routes`);
    },

    /** Removes the route `id` of `name`; throws `NOT_FOUND` when there is none. */
    async removeRoute(name: string, id: string): Promise<void> {
      await call('DELETE', `/api/endpoints/${seg(name)}/routes/${seg(id)}`);
    },

    /**
     * The WebSocket connections open for `name` on this server, oldest first
     * (see docs/websocket.md). A socket lives in the server that accepted it.
     */
    async sockets(name: string): Promise<SocketInfo[]> {
      return (await json<{ sockets: SocketInfo[] }>('GET', `/api/endpoints/${seg(name)}/sockets`)).sockets;
    },

    /**
     * Sends one message now to every open connection of `name`, or to one
     * (`connection`: its id); resolves with how many it went to.
     * @throws MockpointError `SOCKET_NOT_FOUND` (the connection is not open here), `INVALID_WEBSOCKET`.
     * @example await client.sendSocket('chat', { json: { type: 'notice', text: 'hi' } })
     */
    async sendSocket(
      name: string,
      frame: Omit<SocketFrame, 'delay'>,
      options: { connection?: string } = {},
    ): Promise<number> {
      const body = { ...options, ...frame };
      return (await json<{ count: number }>('POST', `/api/endpoints/${seg(name)}/sockets/send`, body)).count;
    },

    /**
     * Pushes an event to the active graphql-ws subscriptions of `name` (those
     * of `operationName`, or the one `subscription` id, when given; on one
     * `connection`, or all): a `next` with this result, and/or `complete`.
     * Resolves with how many subscriptions it reached. See docs/graphql.md.
     * @example await client.pushGraphql('gh', { operationName: 'OnStar', next: { data: { starred: { id: '1' } } } })
     */
    async pushGraphql(name: string, push: GraphqlPush): Promise<number> {
      return (await json<{ count: number }>('POST', `/api/endpoints/${seg(name)}/sockets/send`, push)).count;
    },

    /**
     * Closes every open connection of `name`, or one (`connection`): a close
     * frame with `code` (default 1000) and `reason`, or `drop: true` to cut the
     * connection without one. Resolves with how many it closed.
     */
    async closeSockets(
      name: string,
      close: Omit<SocketClose, 'delay'> & { connection?: string } = {},
    ): Promise<number> {
      return (await json<{ count: number }>('POST', `/api/endpoints/${seg(name)}/sockets/close`, close)).count;
    },

    /**
     * Every collection of `name` (`{}` when none), items parsed (use
     * {@link collectionText} for their exact text). See docs/state.md.
     */
    async collections(name: string): Promise<Record<string, unknown[]>> {
      return json('GET', `/api/endpoints/${seg(name)}/collections`);
    },

    /**
     * Replaces every collection of `name`; what is set is also the seed that
     * {@link resetEndpoint} returns to. Items are JSON objects (a {@link JsonText}
     * keeps an item's exact text). Resolves with the collections as stored.
     * @throws MockpointError `INVALID_COLLECTION`, `COLLECTION_TOO_LARGE`.
     * @example await client.setCollections('api', { users: [{ id: 1, name: 'Ada' }] })
     */
    setCollections(name: string, collections: Record<string, readonly unknown[]>): Promise<Record<string, unknown[]>> {
      return json('PUT', `/api/endpoints/${seg(name)}/collections`, collections);
    },

    /** The items of one collection of `name`, in order; throws `COLLECTION_NOT_FOUND` when there is none. */
    collection(name: string, collection: string): Promise<unknown[]> {
      return json('GET', `/api/endpoints/${seg(name)}/collections/${seg(collection)}`);
    },

    /** One collection's items as their exact JSON text (big integers, key order as stored). */
    async collectionText(name: string, collection: string): Promise<string> {
      return (await call('GET', `/api/endpoints/${seg(name)}/collections/${seg(collection)}`)).text();
    },

    /** Replaces (or creates) one collection of `name`, which becomes its seed too; the others stay. */
    setCollection(name: string, collection: string, items: readonly unknown[]): Promise<unknown[]> {
      return json('PUT', `/api/endpoints/${seg(name)}/collections/${seg(collection)}`, items);
    },

    /** Removes one collection of `name` and its seed; throws `COLLECTION_NOT_FOUND` when there is none. */
    async removeCollection(name: string, collection: string): Promise<void> {
      await call('DELETE', `/api/endpoints/${seg(name)}/collections/${seg(collection)}`);
    },

    /**
     * One item of a collection of `name`, by id (as a resource route's URL names
     * it: `1` finds `1` and `"1"`), parsed (use {@link itemText} for its exact
     * text); `idField` names the field that holds the ids when it is not `id`.
     * @throws MockpointError `ITEM_NOT_FOUND`.
     * @example const user = await client.item<User>('api', 'users', 1)
     */
    item<T = unknown>(name: string, collection: string, id: string | number, options: ItemOptions = {}): Promise<T> {
      return json('GET', itemPath(name, collection, id, options));
    },

    /** One item's exact JSON text (big integers, key order as stored). @throws MockpointError `ITEM_NOT_FOUND`. */
    async itemText(name: string, collection: string, id: string | number, options: ItemOptions = {}): Promise<string> {
      return (await call('GET', itemPath(name, collection, id, options))).text();
    },

    /**
     * Adds an item at the end of a collection of `name` (making the collection),
     * as a `POST` to a resource route does: its own id when it has a truthy one,
     * else the next one. The seed stays (a reset takes the item away). A
     * {@link JsonText} keeps the item's exact text. Resolves with the item as stored.
     * @throws MockpointError `ID_TAKEN`, `INVALID_ITEM`, `COLLECTION_TOO_LARGE`.
     * @example const { id } = await client.insertItem<User>('api', 'users', { name: 'Grace' })
     */
    insertItem<T = unknown>(
      name: string,
      collection: string,
      item: Partial<NoInfer<T>> | JsonText,
      options: ItemOptions = {},
    ): Promise<T> {
      return json('POST', itemPath(name, collection, undefined, options), item);
    },

    /**
     * Replaces the item whose id is `id` by `item` (the id kept); the seed stays.
     * @throws MockpointError `ITEM_NOT_FOUND`, `INVALID_ITEM`, `COLLECTION_TOO_LARGE`.
     */
    replaceItem<T = unknown>(
      name: string,
      collection: string,
      id: string | number,
      item: Partial<NoInfer<T>> | JsonText,
      options: ItemOptions = {},
    ): Promise<T> {
      return json('PUT', itemPath(name, collection, id, options), item);
    },

    /**
     * Merges `patch` into the item whose id is `id` (JSON Merge Patch, RFC 7396:
     * nested objects merge, `null` removes a field); the id and every field the
     * patch leaves alone keep their exact text. The seed stays.
     * @throws MockpointError `ITEM_NOT_FOUND`, `INVALID_ITEM`, `COLLECTION_TOO_LARGE`.
     * @example await client.updateItem<User>('api', 'users', 1, { role: 'admin' })
     */
    updateItem<T = unknown>(
      name: string,
      collection: string,
      id: string | number,
      patch: MergePatch<NoInfer<T>> | JsonText,
      options: ItemOptions = {},
    ): Promise<T> {
      return json('PATCH', itemPath(name, collection, id, options), patch);
    },

    /** Removes the item whose id is `id`; the seed stays. @throws MockpointError `ITEM_NOT_FOUND`. */
    async removeItem(name: string, collection: string, id: string | number, options: ItemOptions = {}): Promise<void> {
      await call('DELETE', itemPath(name, collection, id, options));
    },

    /**
     * Returns the collections of `name` to their seed and its state to its start
     * (its routes, record and queue stay); with `journal: true` also forgets the
     * requests recorded for it.
     */
    async resetEndpoint(name: string, options: { journal?: boolean } = {}): Promise<void> {
      await call('POST', `/api/endpoints/${seg(name)}/reset${options.journal ? '?journal=true' : ''}`);
    },

    /**
     * Returns every name's collections to their seed and state to its start
     * (routes, records and queues stay); with `journal: true` also forgets every
     * recorded request. What `useMockServer({ resetBetweenTests: true })` does after each test.
     */
    async resetAll(options: { journal?: boolean } = {}): Promise<void> {
      await call('POST', `/api/reset${options.journal ? '?journal=true' : ''}`);
    },

    /**
     * The scenarios of `name` (docs/state.md): every one its routes look at or
     * move, and every one set or moved, at its value (`started` when never moved).
     * @example expect(await client.state('api')).toEqual({ default: 'paid' })
     */
    state(name: string): Promise<Record<string, string>> {
      return json('GET', `/api/endpoints/${seg(name)}/state`);
    },

    /**
     * Sets the scenarios of `name` (a value of the `default` scenario, or
     * scenario → value; those left out are at `started`); what is set is also
     * the start {@link resetEndpoint} returns to.
     * @throws MockpointError `INVALID_STATE`.
     * @example await client.setState('api', { checkout: 'paid' })
     */
    setState(name: string, state: string | Record<string, string>): Promise<Record<string, string>> {
      return json('PUT', `/api/endpoints/${seg(name)}/state`, typeof state === 'string' ? { default: state } : state);
    },

    /**
     * Checks the signature of every request to `name` (and its subpaths) from now
     * on: each journal entry gets `signature: { scheme, status, reason }`, and
     * with `enforce` a request whose signature is not valid is answered
     * `401 SIGNATURE_INVALID`. Resolves with the check as stored, secrets masked.
     * @throws MockpointError `UNKNOWN_SIGNATURE_SCHEME`, `INVALID_SIGNATURE_SECRET`, `INVALID_SIGNATURE_OPTIONS`.
     * @example await client.setSignature('hook', { scheme: 'standard', secret: 'whsec_…', enforce: true })
     */
    setSignature(name: string, check: SignatureInput): Promise<SignatureView> {
      return json('PUT', `/api/endpoints/${seg(name)}/signature`, check);
    },

    /** The signature check of `name`, each secret masked; throws `NOT_FOUND` when it has none. */
    getSignature(name: string): Promise<SignatureView> {
      return json('GET', `/api/endpoints/${seg(name)}/signature`);
    },

    /** Stops checking the signatures of requests to `name` (nothing happens when it had no check). */
    async removeSignature(name: string): Promise<void> {
      await call('DELETE', `/api/endpoints/${seg(name)}/signature`);
    },

    /**
     * Puts the GraphQL schema (SDL) that answers GraphQL requests to `name` and
     * its subpaths (schema mode, docs/graphql.md); kept byte for byte.
     * @throws MockpointError `INVALID_GRAPHQL_SCHEMA` (the message gives line and column), `GRAPHQL_SCHEMA_TOO_LARGE`.
     * @example await client.setGraphqlSchema('gh', await readFile('schema.graphql', 'utf8'))
     */
    async setGraphqlSchema(name: string, sdl: string): Promise<void> {
      await call('PUT', `/api/endpoints/${seg(name)}/graphql`, { schema: sdl } satisfies GraphqlSchemaBody);
    },

    /** The GraphQL schema of `name` as its SDL text, byte for byte; throws `NOT_FOUND` when it has none. */
    async graphqlSchema(name: string): Promise<string> {
      return (await json<GraphqlSchemaBody>('GET', `/api/endpoints/${seg(name)}/graphql`)).schema;
    },

    /** Removes the GraphQL schema of `name` (nothing happens when it had none). */
    async removeGraphqlSchema(name: string): Promise<void> {
      await call('DELETE', `/api/endpoints/${seg(name)}/graphql`);
    },

    /**
     * Every host mapped to an endpoint (docs/https.md): those of `MOCKPOINT_HOSTS`
     * (`source: 'settings'`) and those set through the API or a mock file (`'api'`), in host order.
     */
    async hosts(): Promise<HostEntry[]> {
      return (await json<{ hosts: HostEntry[] }>('GET', '/api/hosts')).hosts;
    },

    /** The hosts mapped to `name` (an empty list when none). */
    async hostsOf(name: string): Promise<HostEntry[]> {
      return (await json<{ hosts: HostEntry[] }>('GET', `/api/endpoints/${seg(name)}/hosts`)).hosts;
    },

    /**
     * Replaces the hosts the API maps to `name` (`api.github.com`, `*.stripe.com`; those of
     * `MOCKPOINT_HOSTS` stay) and answers its mappings now; `HOST_TAKEN` when another name has one.
     * Kept in the daemon's store (durable with LevelDB or Redis) until removed, with the name, or by `DELETE /api/endpoints`.
     * @example await client.setHosts('github', ['api.github.com'])
     */
    async setHosts(name: string, hosts: readonly string[]): Promise<HostEntry[]> {
      return (await json<{ hosts: HostEntry[] }>('PUT', `/api/endpoints/${seg(name)}/hosts`, { hosts })).hosts;
    },

    /** Removes the hosts the API mapped to `name` (nothing happens when it had none). */
    async removeHosts(name: string): Promise<void> {
      await call('DELETE', `/api/endpoints/${seg(name)}/hosts`);
    },

    /**
     * The requests to `name` (to every name when undefined) as they arrive, from
     * the journal stream: an async iterator that reconnects by itself and resumes
     * without a gap or a duplicate (`Last-Event-ID`), also across a daemon restart.
     * Ends when `signal` aborts or the loop is left.
     * @example
     * for await (const request of client.watchRequests('hook', { match: { method: 'POST' }, signal })) {
     *   console.log(request.receivedAt, request.method, request.json)
     * }
     */
    watchRequests(name?: string, watch: WatchRequestsOptions = {}): AsyncGenerator<LiveRequest, void, undefined> {
      return watchRequests({ send, url, token: options.token, toError }, name, watch);
    },

    /** Sends a request to the endpoint's public URL and returns the raw response. */
    read(name: string, init: RequestInit = {}): Promise<Response> {
      // No `this`: the methods work when destructured from the client.
      const target = endpointUrl(name);
      return send(new Request(target, init)).catch((error: unknown) => {
        throw toConnectionError(target, error, init.signal ?? undefined);
      });
    },

    /**
     * One admin API call as it is answered, error statuses included (only a
     * failure to get any answer throws, as a {@link ConnectionError}): `path`
     * starts with `/api/`, `body` goes as is. For tools that relay the API's
     * own answers byte for byte (the MCP server of `mockpoint mcp`).
     * @example const answer = await client.apiCall('GET', '/api/endpoints?limit=10')
     */
    apiCall(
      method: string,
      path: string,
      init: { body?: string; contentType?: string; signal?: AbortSignal } = {},
    ): Promise<Response> {
      const headers: Record<string, string> = {};
      if (init.body !== undefined) headers['content-type'] = init.contentType ?? 'application/json';
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      const target = url(path);
      return send(new Request(target, { method, headers, body: init.body, signal: init.signal })).catch(
        (error: unknown) => {
          throw toConnectionError(target, error, init.signal);
        },
      );
    },

    /** `GET /api/health`. */
    health(): Promise<Health> {
      return json('GET', '/api/health');
    },
  };
}

/** A request body as JSON text; every {@link JsonText} in it (a record's or a queued answer's `data`) goes as its own text. */
function bodyText(body: unknown): string {
  return stringifyExact(body);
}

/** A subpath as it goes after `/endpoint/{name}`: with one leading slash, or nothing for the bare URL. */
function subpathOf(subpath: string): string {
  if (subpath === '' || subpath === '/') return '';
  return subpath.startsWith('/') ? subpath : `/${subpath}`;
}

/** The admin path of a collection's items (no id) or of one item, with its `idField` query. */
function itemPath(name: string, collection: string, id: string | number | undefined, options: ItemOptions): string {
  const seg = encodeURIComponent;
  const items = `/api/endpoints/${seg(name)}/collections/${seg(collection)}/items`;
  const query = options.idField === undefined ? '' : `?idField=${seg(options.idField)}`;
  return `${id === undefined ? items : `${items}/${seg(String(id))}`}${query}`;
}

function listQuery(page: ListQuery, summary: boolean): string {
  const query = new URLSearchParams();
  if (page.limit !== undefined) query.set('limit', String(page.limit));
  if (page.prefix) query.set('prefix', page.prefix);
  if (page.contains) query.set('contains', page.contains);
  if (page.after !== undefined) query.set('after', page.after);
  if (summary) query.set('summary', 'true');
  if (page.requests) query.set('requests', 'true');
  return query.size ? `?${query}` : '';
}

/**
 * A failure to get any answer, as a {@link ConnectionError}, whatever the runtime
 * made of it (Node's `TypeError: fetch failed`, Bun's error with a string `code`,
 * Deno's `TypeError`). mockpoint's own errors (e.g. a closed in-process server)
 * and aborts asked for by the caller pass unchanged.
 */
function toConnectionError(target: string, error: unknown, signal?: AbortSignal): unknown {
  if (signal?.aborted || isOwnError(error)) return error;
  return new ConnectionError(target, error);
}

async function toError(response: Response, method: string, target: string): Promise<MockpointError> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { error?: { code?: string; message?: string } };
    if (body.error?.code && body.error.message) {
      return new MockpointError(body.error.code as ErrorCode, body.error.message, { status: response.status });
    }
  } catch {
    // not a mockpoint error body: reported below
  }
  return new MockpointError(
    'UNEXPECTED_RESPONSE',
    `${method} ${target} answered ${response.status} without a mockpoint error body: ${text.slice(0, 200)}`,
    { status: response.status },
  );
}
