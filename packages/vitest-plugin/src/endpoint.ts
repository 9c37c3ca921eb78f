/**
 * Endpoint handles: what `add()` returns. A handle knows its record and its URL,
 * reads its own request journal, and is what the matchers take.
 *
 * @module
 */
import type {
  Endpoint,
  EndpointDefinition,
  ItemOptions,
  JournalEntry,
  MockpointClient,
  QueuedAnswer,
  QueuedAnswerInput,
  QuietOptions,
  Route,
  RouteInput,
  SignatureInput,
  SignatureView,
  Twin,
  TwinInput,
  TwinTrigger,
  TwinTriggered,
  WaitOptions,
} from '@mockpoint/core';
import { hasShape } from '@mockpoint/core/internal';
import { type CollectionHandle, createCollectionHandle } from './collection-handle.js';
import { NameHandle } from './name-handle.js';

/**
 * Anything whose recorded requests can be read: an endpoint handle. The
 * matchers (`toHaveBeenRequested` …) accept this shape.
 */
export interface RequestRecorder {
  /** The endpoint name. */
  readonly name: string;
  /** The requests received so far, oldest first. */
  requests(): Promise<JournalEntry[]>;
}

/**
 * A name and everything below it: its URLs, its routes, its queue and its
 * journal, whether or not it has a record. What `mock.api()` returns; an
 * endpoint handle is one too.
 * @example
 * const github = await mock.api('github', [
 *   { match: { method: 'GET', path: '/repos/:owner/:repo' }, answer: { data: { id: 1 } } },
 * ])
 * await fetch(github.urlFor('/repos/acme/app'))
 * await expect(github).toHaveBeenRequestedWith({ path: '/repos/:owner/:repo' })
 */
export interface MockApi extends RequestRecorder {
  /** Public URL (the bare one) to give to the code under test. */
  readonly url: string;
  /**
   * The URL of a path below the name, e.g. for one route.
   * @example hook.urlFor('/users/42?page=2') // http://127.0.0.1:41234/endpoint/hook/users/42?page=2
   */
  urlFor(subpath: string): string;
  /**
   * Waits (server-side long-poll) until `count` requests have arrived and returns them.
   * @throws MockpointError `WAIT_TIMEOUT`, naming what did arrive, after `timeout` ms.
   */
  waitForRequests(options?: WaitOptions): Promise<JournalEntry[]>;
  /** Forgets the requests recorded so far. */
  clearRequests(): Promise<void>;
  /**
   * Proves that no request (matching `match`, when given) arrives within `within` ms.
   * @throws MockpointError `UNEXPECTED_REQUEST`, naming the request, as soon as one arrives.
   * @example await hook.expectNoRequests({ within: 500 }) // the webhook is not sent again
   */
  expectNoRequests(options: QuietOptions): Promise<void>;
  /**
   * Queues one-shot answers: the next requests get them in order, each once
   * (`times` repeats one), before the routes and the record answer; absent fields
   * fall back to what would answer without the queue. A `fault` (`reset`, `close`,
   * `hang`) fails the request at the network level.
   * @example await hook.queue([{ statusCode: 503, times: 2 }]) // 503, 503, then the record
   */
  queue(answers: QueuedAnswerInput[]): Promise<QueuedAnswer[]>;
  /** The answers still queued, first answer first. */
  getQueue(): Promise<QueuedAnswer[]>;
  /** @deprecated Use {@link getQueue}: the handle reads every setting with `get…`, puts it with `set…` and removes it with `clear…` (docs/vitest.md). */
  queued(): Promise<QueuedAnswer[]>;
  /** Drops the queued answers (and releases requests hanging on a queued `hang`). */
  clearQueue(): Promise<void>;
  /** The routes, in the order they are tried. */
  getRoutes(): Promise<Route[]>;
  /** @deprecated Use {@link getRoutes}: the handle reads every setting with `get…`, puts it with `set…` and removes it with `clear…` (docs/vitest.md). */
  routes(): Promise<Route[]>;
  /** Replaces every route at once (all or none); resolves with them as stored, ids given. */
  setRoutes(routes: RouteInput[]): Promise<Route[]>;
  /** Appends routes after the ones there are (all or none); resolves with every route. */
  addRoutes(routes: RouteInput[]): Promise<Route[]>;
  /** Removes every route (the record, if any, stays). */
  clearRoutes(): Promise<void>;
  /** Removes the route `id`. @throws MockpointError `NOT_FOUND` when there is none. */
  removeRoute(id: string): Promise<void>;
  /**
   * Checks the signature of every request to this name (and below it) from now
   * on: each recorded request gets `signature: { scheme, status, reason }` (match
   * on it with `{ signature: 'valid' }`); with `enforce`, one that is not valid is
   * answered `401 SIGNATURE_INVALID`. Resolves with the check, secrets masked.
   * @example await hook.setSignature({ scheme: 'stripe', secret: 'whsec_test', enforce: true })
   */
  setSignature(check: SignatureInput): Promise<SignatureView>;
  /** The signature check, secrets masked. @throws MockpointError `NOT_FOUND` when there is none. */
  getSignature(): Promise<SignatureView>;
  /** Stops checking signatures. */
  clearSignature(): Promise<void>;
  /** @deprecated Use {@link clearSignature}: the handle reads every setting with `get…`, puts it with `set…` and removes it with `clear…` (docs/vitest.md). */
  removeSignature(): Promise<void>;
  /**
   * Puts the GraphQL schema (SDL) GraphQL requests to this name are answered
   * from: deterministic data shaped by it, GraphQL errors, introspection
   * (docs/graphql.md); routes matching `match.graphql` answer first.
   * @example await api.setGraphqlSchema(readFileSync('schema.graphql', 'utf8'))
   */
  setGraphqlSchema(sdl: string): Promise<void>;
  /** The GraphQL schema as its SDL text. @throws MockpointError `NOT_FOUND` when there is none. */
  getGraphqlSchema(): Promise<string>;
  /** Removes the GraphQL schema. */
  clearGraphqlSchema(): Promise<void>;
  /** @deprecated Use {@link getGraphqlSchema}: the handle reads every setting with `get…`, puts it with `set…` and removes it with `clear…` (docs/vitest.md). */
  graphqlSchema(): Promise<string>;
  /** @deprecated Use {@link clearGraphqlSchema}: the handle reads every setting with `get…`, puts it with `set…` and removes it with `clear…` (docs/vitest.md). */
  removeGraphqlSchema(): Promise<void>;
  /**
   * Makes this name a stateful twin of a provider the server ships or of an
   * OpenAPI document (docs/twins.md): what the code under test creates is kept.
   * @throws MockpointError `INVALID_TWIN`.
   * @example await api.setTwin({ document: openapi, profile: { name: 'notes' } })
   */
  setTwin(twin: TwinInput): Promise<Twin>;
  /** The twin. @throws MockpointError `TWIN_NOT_FOUND` when there is none. */
  getTwin(): Promise<Twin>;
  /** Removes the twin (its objects stay in the collections). */
  clearTwin(): Promise<void>;
  /**
   * Sends one of the twin's provider events on demand, as `stripe trigger` does
   * (docs/twins.md#trigger-an-event): kept, delivered to its subscribers, and to `to`.
   * @throws MockpointError `UNKNOWN_TWIN_EVENT` (listing the events), `TWIN_NOT_FOUND`.
   * @example await api.triggerTwin({ event: 'payment_intent.succeeded', to: receiverUrl })
   */
  triggerTwin(trigger: TwinTrigger): Promise<TwinTriggered>;
  /**
   * The name's scenarios (docs/state.md): every one its routes look at or
   * move, and every one set or moved, at its value (`started` when never moved).
   * @example expect(await api.getState()).toEqual({ default: 'paid' })
   */
  getState(): Promise<Record<string, string>>;
  /** @deprecated Use {@link getState}: the handle reads every setting with `get…`, puts it with `set…` and removes it with `clear…` (docs/vitest.md). */
  state(): Promise<Record<string, string>>;
  /**
   * Sets scenarios (a value of the `default` scenario, or scenario → value; those
   * left out are at `started`); what is set is also the start {@link reset} returns to.
   */
  setState(state: string | Record<string, string>): Promise<Record<string, string>>;
  /**
   * Returns the name's collections to their seed and its state to its start
   * (routes, record and queue stay); `journal: true` also forgets its requests.
   */
  reset(options?: { journal?: boolean }): Promise<void>;
  /**
   * A handle for one of the name's collections, typed by its items' type:
   * `list()`, `get(id)`, `insert(item)`, `update(id, patch)` (a merge),
   * `remove(id)`, and `replace(items)`, which also sets the collection's seed.
   * Item writes leave the seed alone: {@link reset} takes them back.
   * `idField` names the field that holds the ids when it is not `id`.
   * @example
   * const users = api.collection<User>('users')
   * const { id } = await users.insert({ name: 'Grace' })
   * expect(await users.get(id)).toMatchObject({ name: 'Grace' })
   */
  collection<T = Record<string, unknown>>(collection: string, options?: ItemOptions): CollectionHandle<T>;
}

/**
 * A stored endpoint whose data has type `T`.
 * @example
 * const hook = await mock.add<{ ok: boolean }>({ name: 'hook', data: { ok: true } })
 * await sendWebhook(hook.url)
 * const [request] = await hook.waitForRequests()
 */
export interface MockEndpoint<T = unknown> extends MockApi {
  /** The data it answers with (as of the last `add`/`replace` through this handle). */
  readonly data: T;
  /** The status it answers with. */
  readonly statusCode: number;
  /** Milliseconds it waits before answering. */
  readonly delay: number;
  /**
   * Replaces data, status and delay (e.g. a 500 that turns into a 200 between retries);
   * resolves with this handle, updated. Its routes stay.
   */
  replace(definition: EndpointDefinition<T>): Promise<this>;
  /** Deletes the endpoint and its routes (its recorded requests stay readable). */
  remove(): Promise<void>;
}

/** The {@link MockApi} implementation; one per `api()`. */
class ApiHandle extends NameHandle implements MockApi {
  constructor(client: MockpointClient, name: string) {
    super(client, name, client.endpointUrl(name));
  }

  urlFor(subpath: string): string {
    return this.client.endpointUrl(this.name, subpath);
  }

  requests(): Promise<JournalEntry[]> {
    return this.client.requests(this.name);
  }

  waitForRequests(options?: WaitOptions): Promise<JournalEntry[]> {
    return this.client.waitForRequests(this.name, options);
  }

  clearRequests(): Promise<void> {
    return this.client.clearRequests(this.name);
  }

  expectNoRequests(options: QuietOptions): Promise<void> {
    return this.client.expectNoRequests(this.name, options);
  }

  queue(answers: QueuedAnswerInput[]): Promise<QueuedAnswer[]> {
    return this.client.queue(this.name, answers);
  }

  getQueue(): Promise<QueuedAnswer[]> {
    return this.client.getQueue(this.name);
  }

  queued(): Promise<QueuedAnswer[]> {
    return this.getQueue();
  }

  clearQueue(): Promise<void> {
    return this.client.clearQueue(this.name);
  }

  getRoutes(): Promise<Route[]> {
    return this.client.getRoutes(this.name);
  }

  routes(): Promise<Route[]> {
    return this.getRoutes();
  }

  setRoutes(routes: RouteInput[]): Promise<Route[]> {
    return this.client.setRoutes(this.name, routes);
  }

  addRoutes(routes: RouteInput[]): Promise<Route[]> {
    return this.client.addRoutes(this.name, routes);
  }

  clearRoutes(): Promise<void> {
    return this.client.clearRoutes(this.name);
  }

  setSignature(check: SignatureInput): Promise<SignatureView> {
    return this.client.setSignature(this.name, check);
  }

  getSignature(): Promise<SignatureView> {
    return this.client.getSignature(this.name);
  }

  clearSignature(): Promise<void> {
    return this.client.clearSignature(this.name);
  }

  removeSignature(): Promise<void> {
    return this.clearSignature();
  }

  setGraphqlSchema(sdl: string): Promise<void> {
    return this.client.setGraphqlSchema(this.name, sdl);
  }

  getGraphqlSchema(): Promise<string> {
    return this.client.getGraphqlSchema(this.name);
  }

  clearGraphqlSchema(): Promise<void> {
    return this.client.clearGraphqlSchema(this.name);
  }

  graphqlSchema(): Promise<string> {
    return this.getGraphqlSchema();
  }

  removeGraphqlSchema(): Promise<void> {
    return this.clearGraphqlSchema();
  }

  setTwin(twin: TwinInput): Promise<Twin> {
    return this.client.setTwin(this.name, twin);
  }

  getTwin(): Promise<Twin> {
    return this.client.getTwin(this.name);
  }

  clearTwin(): Promise<void> {
    return this.client.clearTwin(this.name);
  }

  triggerTwin(trigger: TwinTrigger): Promise<TwinTriggered> {
    return this.client.triggerTwin(this.name, trigger);
  }

  removeRoute(id: string): Promise<void> {
    return this.client.removeRoute(this.name, id);
  }

  getState(): Promise<Record<string, string>> {
    return this.client.getState(this.name);
  }

  state(): Promise<Record<string, string>> {
    return this.getState();
  }

  setState(state: string | Record<string, string>): Promise<Record<string, string>> {
    return this.client.setState(this.name, state);
  }

  reset(options?: { journal?: boolean }): Promise<void> {
    return this.client.resetEndpoint(this.name, options);
  }

  collection<T = Record<string, unknown>>(collection: string, options?: ItemOptions): CollectionHandle<T> {
    return createCollectionHandle<T>(this.client, this.name, collection, options);
  }

  /** What test reporters and `console.log` show. */
  toJSON(): { name: string; url: string } {
    return { name: this.name, url: this.url };
  }
}

/** A handle for `name` bound to `client` (the name need not have a record). */
export function createApiHandle(client: MockpointClient, name: string): MockApi {
  return new ApiHandle(client, name);
}

/** The {@link MockEndpoint} implementation; one per `add()`. */
class EndpointHandle<T> extends ApiHandle implements MockEndpoint<T> {
  #record: Endpoint<T>;

  constructor(client: MockpointClient, record: Endpoint<T>) {
    super(client, record.name);
    this.#record = record;
  }

  get data(): T {
    return this.#record.data;
  }

  get statusCode(): number {
    return this.#record.statusCode;
  }

  get delay(): number {
    return this.#record.delay;
  }

  async replace(definition: EndpointDefinition<T>): Promise<this> {
    const { created: _created, ...record } = await this.client.put(this.name, definition);
    this.#record = record;
    return this;
  }

  remove(): Promise<void> {
    return this.client.remove(this.name);
  }

  /** What test reporters and `console.log` show. */
  override toJSON(): Endpoint<T> & { url: string } {
    return { ...this.#record, url: this.url };
  }
}

/** Wraps a stored record in a handle bound to `client`. */
export function createEndpointHandle<T>(client: MockpointClient, record: Endpoint<T>): MockEndpoint<T> {
  return new EndpointHandle(client, record);
}

/** An endpoint handle that can also check a quiet period (what `toHaveBeenRequestedWithin` takes). */
export interface QuietRecorder extends RequestRecorder {
  expectNoRequests(options: QuietOptions): Promise<void>;
}

/** Anything whose state can be read: an endpoint handle (what `toHaveState` takes). */
export interface StateHolder {
  /** The endpoint name. */
  readonly name: string;
  /** Its scenarios at their values. */
  state(): Promise<Record<string, string>>;
}

/** True for anything shaped like a {@link StateHolder} (by shape, as {@link isRequestRecorder}). */
export function isStateHolder(value: unknown): value is StateHolder {
  return hasShape(value, { name: 'string', state: 'function' });
}

/** True for anything shaped like a {@link RequestRecorder} (by shape: handles may come from two builds). */
export function isRequestRecorder(value: unknown): value is RequestRecorder {
  return hasShape(value, { name: 'string', requests: 'function' });
}
