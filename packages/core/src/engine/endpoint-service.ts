/**
 * The endpoint service: the store with the response cache in front of it. All
 * reads and writes of records go through here so the cache can never serve a
 * record the store has replaced or deleted, and so that a replace, a delete or a
 * reset also empties the queued answers of what it touches.
 *
 * @module
 */

import { RouteCache } from '../answer/routes/route-cache.js';
import { RouteTable } from '../answer/routes/route-table.js';
import { type ChaosSettings, NAMESPACE_CHAOS_KEY } from '../api/chaos.js';
import type { Route } from '../api/route.js';
import type { EndpointRecord, ListPage } from '../api/schemas.js';
import { BoundedNameCache } from '../cache/bounded-name-cache.js';
import type { CollectionStore } from '../collections/collection-store.js';
import { GraphqlMockCache } from '../graphql/graphql-mock-cache.js';
import {
  type GraphqlRunner,
  inlineGraphqlRunner,
  type StoredGraphqlSchema,
  storedGraphqlSchema,
} from '../graphql/graphql-runner.js';
import type { ProtoCompiler } from '../grpc/proto-compiler.js';
import type { AnswerQueue } from '../queue/answer-queue.js';
import { MockpointError } from '../registry/errors.js';
import type { SettingKind, SettingValue, StoredSetting } from '../settings/name-settings.js';
import type { StateStore } from '../state/state-store.js';
import {
  type CountOptions,
  type EndpointStore,
  KeyedMutex,
  type ListOptions,
  type RoutesUpdate,
} from '../store/store.js';
import { TurnBudget } from '../turns/turn-budget.js';
import { SignatureCheck } from '../webhook/signature-check.js';
import { CompiledSettings } from './compiled-settings.js';
import { EndpointChanges } from './endpoint-changes.js';
import { GrpcCatalog } from './grpc-catalog.js';
import { ChaosPlan } from './pipeline/chaos-plan.js';
import { ReadTokens } from './read-tokens.js';
import { type CachedResponse, ResponseCache, toCachedResponse } from './response-cache.js';

/** What the request path reads compiled, by setting kind ({@link EndpointService.compiled}). */
export interface Compiled {
  signature: SignatureCheck;
  chaos: ChaosPlan;
  graphql: StoredGraphqlSchema;
}

export class EndpointService {
  readonly store: EndpointStore;
  readonly cache: ResponseCache;
  /** Queued one-shot answers, answered before the record. */
  readonly queue: AnswerQueue;
  /** Each name's collections (deleted with the name, cleared with every name). */
  readonly collections: CollectionStore;
  /** Each name's state machines (deleted with the name, cleared with every name). */
  readonly states: StateStore;
  /** The withdrawal tokens of record reads after a cache miss (see {@link ReadTokens}). */
  readonly #reading: ReadTokens<CachedResponse | undefined>;
  /** Compiled routes by name (`null`: none), in front of the store like the response cache. */
  readonly routeTables: RouteCache;
  /** The same withdrawal tokens as {@link #reading}, for route reads. */
  readonly #routeReading: ReadTokens<RouteTable | null>;
  /**
   * The settings the request path reads compiled, by kind, in front of the store like the route
   * tables: a signature check, a chaos plan, a GraphQL schema built; the read path asks
   * {@link CompiledSettings.get} first.
   */
  readonly compiled: CompiledSettings<Compiled>;
  /** Builds the stored GraphQL schemas and answers their operations (a worker thread on the daemon). */
  readonly graphqlRunner: GraphqlRunner;
  /** Who parses `.proto` sources, for {@link grpc}. */
  readonly #protoCompiler: ProtoCompiler | undefined;
  #grpc: GrpcCatalog | undefined;
  /** How the catalog routes a name's calls (set by the app, given to the catalog when it is made). */
  #grpcRouting: GrpcCatalog['routing'];
  /** Puts of protobuf definitions, one at a time: a service is checked free and taken in one step. */
  readonly #grpcPuts = new KeyedMutex();
  /**
   * A signal per name that aborts at its next change, made here or by another
   * replica: a streamed answer that ends with `hang` is let go on it.
   */
  readonly changes = new EndpointChanges();
  readonly #unsubscribe: (() => void) | undefined;
  readonly #unsubscribeQueue: () => void;

  constructor(
    store: EndpointStore,
    cacheMaxBytes: number,
    queue: AnswerQueue,
    collections: CollectionStore,
    states: StateStore,
    graphqlRunner: GraphqlRunner = inlineGraphqlRunner(),
    protoCompiler?: ProtoCompiler,
  ) {
    this.store = store;
    this.#protoCompiler = protoCompiler;
    this.graphqlRunner = graphqlRunner;
    this.collections = collections;
    this.states = states;
    this.cache = new ResponseCache(cacheMaxBytes);
    this.routeTables = new RouteCache(cacheMaxBytes);
    const cacheable = () => this.#cacheable;
    this.#reading = new ReadTokens(this.cache, cacheable);
    this.#routeReading = new ReadTokens(this.routeTables, cacheable);
    this.compiled = new CompiledSettings<Compiled>(
      store,
      {
        signature: { cache: new BoundedNameCache(), compile: (settings) => new SignatureCheck(settings) },
        // A change starts a plan's sequence again.
        chaos: { cache: new BoundedNameCache(), compile: (settings) => new ChaosPlan(settings) },
        graphql: {
          cache: new GraphqlMockCache(undefined, undefined, (name) => graphqlRunner.forget(name)),
          compile: (sdl, name) => storedGraphqlSchema(name, sdl),
        },
      },
      cacheable,
    );
    this.queue = queue;
    // A shared store: another process's write to a name withdraws what we hold for it.
    this.#unsubscribe = store.changes?.subscribe((name) => {
      if (name === undefined) this.#forgetAll();
      else this.#forget(name);
      this.changes.changed(name);
    });
    // Pushes and clears, from this process or (a shared queue) any other.
    this.#unsubscribeQueue = queue.onChange((name) => this.changes.changed(name));
  }

  /**
   * Which name holds which gRPC service, and each name's server (docs/grpc.md): made on its first
   * use (a namespace's app, one per test session, seldom serves gRPC).
   */
  get grpc(): GrpcCatalog {
    if (this.#grpc === undefined) {
      this.#grpc = new GrpcCatalog(this.store, this.#protoCompiler);
      this.#grpc.routing = this.#grpcRouting;
      // Forgotten with the compiled settings, by the one forget of a change.
      this.compiled.register('grpc', this.#grpc);
    }
    return this.#grpc;
  }

  /** Sets how the catalog routes a name's calls, unless that is set already (routes/grpc-calls.ts). */
  routeGrpc(routing: NonNullable<GrpcCatalog['routing']>): void {
    if (this.#grpc !== undefined) this.#grpc.routing ??= routing;
    else this.#grpcRouting ??= routing;
  }

  /** Whether the cache may be filled now: a shared store must be delivering changes. */
  get #cacheable(): boolean {
    return this.store.changes?.live !== false;
  }

  /** The ready-to-send response for `name`, or `undefined` when there is none. */
  response(name: string): Promise<CachedResponse | undefined> {
    return this.#reading.read(name, async () => {
      const record = await this.store.get(name);
      return record && toCachedResponse(name, record.data, record.statusCode, record.delay);
    });
  }

  /**
   * The compiled routes of `name` (`null` when it has none), read and compiled
   * once per change; the read path calls {@link RouteCache.get} first.
   */
  routeTable(name: string): Promise<RouteTable | null> {
    return this.#routeReading.read(name, async () => {
      const budget = new TurnBudget();
      const routes = await this.store.getRoutes(name);
      if (routes.length === 0) return null;
      // Reading took a turn's budget (a long list, a large answer): compile between other requests.
      return budget.spent ? RouteTable.inTurns(routes, budget) : new RouteTable(routes);
    });
  }

  /** The routes of `name`, in order. */
  routes(name: string): Promise<Route[]> {
    return this.store.getRoutes(name);
  }

  /** Changes the routes of `name` atomically (see `EndpointStore.updateRoutes`); the compiled table is dropped. */
  updateRoutes(name: string, update: RoutesUpdate): Promise<Route[]> {
    return this.#changing(name, this.#routeReading, () => this.store.updateRoutes(name, update));
  }

  /** The setting `kind` of `name` as stored (`undefined` when it has none): a signature's secrets included (never answered as they are). */
  setting<K extends SettingKind>(kind: K, name: string): Promise<StoredSetting<K> | undefined> {
    return this.store.getSetting(kind, name);
  }

  /**
   * Sets or (with `undefined`) removes the setting `kind` of `name` (checked by the caller); what is
   * compiled of it is forgotten and the change announced. Resolves whether it had one.
   */
  setSetting<K extends Exclude<SettingKind, 'grpc'>>(
    kind: K,
    name: string,
    value: SettingValue<K> | undefined,
  ): Promise<boolean> {
    return this.#changing(name, this.#settingReads(kind), () => this.store.setSetting(kind, name, value));
  }

  /** What is held of a name's setting `kind` (compiled, or built: the gRPC catalog), forgotten in one place. */
  #settingReads(kind: SettingKind): { forget(name: string): void } {
    return { forget: (changed) => this.compiled.forget(changed, kind) };
  }

  /** The namespace's own chaos (`/api/chaos`), for every name without chaos of its own. */
  namespaceChaos(): Promise<ChaosSettings | undefined> {
    return this.setting('chaos', NAMESPACE_CHAOS_KEY);
  }

  /** Sets or (with `undefined`) removes the namespace's own chaos; resolves whether it had some. */
  setNamespaceChaos(settings: ChaosSettings | undefined): Promise<boolean> {
    return this.setSetting('chaos', NAMESPACE_CHAOS_KEY, settings);
  }

  /** The protobuf definitions of `name` as kept (their JSON text; `undefined` when it has none). */
  grpcDefinitions(name: string): Promise<string | undefined> {
    return this.store.getSetting('grpc', name);
  }

  /**
   * Keeps `text`, the checked definitions of `name` declaring `services` (or,
   * with `undefined`, removes them); resolves whether it had some. A service
   * another name holds is refused with `SERVICE_TAKEN`, nothing changed. (Checked
   * in this process: two replicas putting one service at once may both win.)
   */
  setGrpc(name: string, definitions: { text: string; services: readonly string[] } | undefined): Promise<boolean> {
    return this.#grpcPuts.run('', async () => {
      if (definitions !== undefined) {
        const owners = await this.grpc.owners();
        for (const service of definitions.services) {
          const owner = owners.get(service);
          if (owner !== undefined && owner !== name) {
            throw new MockpointError(
              'SERVICE_TAKEN',
              `the service ${service} belongs to "${owner}"; a service belongs to one endpoint`,
              {
                details: { service, endpoint: owner },
              },
            );
          }
        }
      }
      return this.#changing(name, this.#settingReads('grpc'), () =>
        this.store.setSetting('grpc', name, definitions?.text),
      );
    });
  }

  /** Runs a write to what `reads` caches of `name`; whatever it did, that is forgotten and the change announced. */
  async #changing<T>(name: string, reads: { forget(name: string): void }, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } finally {
      reads.forget(name);
      this.changes.changed(name);
    }
  }

  get(name: string): Promise<EndpointRecord | undefined> {
    return this.store.get(name);
  }

  list(options: ListOptions): Promise<ListPage> {
    return this.store.list(options);
  }

  count(options?: CountOptions): Promise<number> {
    return this.store.count(options);
  }

  /** Creates a record; `false` when the name is taken (nothing changes). */
  async create(record: EndpointRecord): Promise<boolean> {
    const token = this.#writing(record.name);
    let created = false;
    try {
      created = await this.store.create(record);
    } finally {
      if (created) {
        this.#written(record, token);
        this.changes.changed(record.name);
      } else if (token !== undefined) this.#reading.release(record.name, token);
    }
    return created;
  }

  /** Creates or replaces a record; its queued answers are dropped (they were meant for the old one). */
  async put(record: EndpointRecord): Promise<{ created: boolean }> {
    try {
      const token = this.#writing(record.name);
      const result = await this.store.put(record);
      this.#written(record, token);
      return result;
    } catch (error) {
      // A failed write may still have landed: forget whatever we held.
      this.#forget(record.name);
      throw error;
    } finally {
      this.changes.changed(record.name);
      await this.queue.clear(record.name);
    }
  }

  /** Deletes a record, its routes, queued answers, collections and state; `false` when there was none of them. */
  async delete(name: string): Promise<boolean> {
    // A name holding queued answers only is a name too (it is listed, and counts under a namespace's cap).
    const hadQueue = this.queue.pending(name);
    try {
      const [deleted, hadCollections, hadStates] = await Promise.all([
        this.store.delete(name),
        this.collections.delete(name),
        this.states.delete(name),
      ]);
      return deleted || hadCollections || hadStates || hadQueue;
    } finally {
      this.#forget(name);
      this.changes.changed(name);
      await this.queue.clear(name);
    }
  }

  /** Removes every record, every queued answer, every collection and every state. */
  async clear(): Promise<void> {
    try {
      await Promise.all([this.store.clear(), this.collections.clear(), this.states.clear()]);
    } finally {
      this.#forgetAll();
      this.changes.changed(undefined);
      await this.queue.clearAll();
    }
  }

  /** Stops following the store's changes (the store itself is closed by its owner). */
  close(): void {
    this.#unsubscribe?.();
    this.#unsubscribeQueue();
  }

  #forget(name: string): void {
    this.#reading.forget(name);
    this.#routeReading.forget(name);
    this.compiled.forget(name);
  }

  #forgetAll(): void {
    this.#reading.forgetAll();
    this.#routeReading.forgetAll();
    this.compiled.forgetAll();
  }

  /**
   * With a shared store, a write takes a token like a read does: a change from
   * another process that lands while our write is in flight withdraws it, and
   * our write then does not cache a record that may already be superseded.
   */
  #writing(name: string): symbol | undefined {
    if (this.store.changes === undefined) return undefined;
    return this.#reading.take(name);
  }

  #written(record: EndpointRecord, token: symbol | undefined): void {
    const stands = token === undefined || this.#reading.stands(record.name, token);
    this.#reading.withdraw(record.name);
    if (!stands || !this.#cacheable) {
      this.cache.delete(record.name);
      return;
    }
    this.cache.set(record.name, toCachedResponse(record.name, record.data, record.statusCode, record.delay));
  }
}
