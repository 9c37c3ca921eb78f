/**
 * The parts of one app (its {@link AppContext}): the endpoint service and
 * handler, the journal feed, streams and sockets, hosts, proxy settings,
 * deliveries, the clock and its timers, each over the app's backend and
 * bounded by its resolved options.
 *
 * @module
 */
import { ProxySettings } from '../answer/proxy/proxy-settings.js';
import { OpenStreams } from '../answer/stream/open-streams.js';
import { OpenSockets, socketShareOf } from '../answer/websocket/open-sockets.js';
import { createSchemas, type Schemas } from '../api/schemas.js';
import { Clock } from '../clock/clock.js';
import { ClockSync } from '../clock/shared-clock.js';
import { EndpointHandler } from '../engine/endpoint-handler.js';
import { EndpointService } from '../engine/endpoint-service.js';
import { HostTable } from '../hosts/host-table.js';
import { StoredHosts } from '../hosts/stored-hosts.js';
import { JournalFeed } from '../journal/journal-feed.js';
import { MAX_TIMED_MOVES, StateTimers } from '../state/state-timers.js';
import type { Backend } from '../store/backend.js';
import { TwinTable } from '../twin/twin-table.js';
import { checkSubscriptionTarget } from '../webhook/delivery-target.js';
import { DeliveryWorker } from '../webhook/delivery-worker.js';
import type { AppContext, ResolvedAppOptions } from './context.js';
import type { CreateAppOptions } from './create-app.js';
import type { RouteDoc } from './openapi.js';

/**
 * The request schemas for a delay limit, built once per limit and shared by
 * every app that has it (they are never changed): a namespace's app is made
 * per test session, and building them is two thirds of `createApp()` (6.7 of
 * 10 ms, measured).
 */
const SCHEMAS = new Map<number, Schemas>();
function schemasFor(maxDelayMs: number): Schemas {
  let schemas = SCHEMAS.get(maxDelayMs);
  if (schemas === undefined) {
    schemas = createSchemas({ maxDelayMs });
    SCHEMAS.set(maxDelayMs, schemas);
  }
  return schemas;
}

/** The app's WebSocket connections, bounded by its limits. */
function openSockets(
  journal: Backend['journal'],
  resolved: ResolvedAppOptions,
  options: CreateAppOptions,
): OpenSockets {
  return new OpenSockets({
    journal,
    maxPerName: resolved.maxSocketsPerName,
    maxTotal: socketShareOf(resolved.maxConnections),
    idleTimeoutMs: resolved.socketIdleTimeoutMs,
    messageTimeoutMs: resolved.socketMessageTimeoutMs,
    maxFrameBytes: resolved.maxSocketFrameBytes,
    graphqlEvents: resolved.graphqlSubscriptionEvents,
    graphqlIntervalMs: resolved.graphqlSubscriptionIntervalMs,
    report: (error, request) => {
      try {
        options.onUnexpectedError?.(error, request);
      } catch {
        // reporting never takes a connection down
      }
    },
  });
}

/** The parts of an app over `backend`, as `options` and their resolved limits make them. */
export function buildAppContext(options: CreateAppOptions, resolved: ResolvedAppOptions, backend: Backend): AppContext {
  const { journal } = backend;
  const endpoints = new EndpointService(
    backend.store,
    resolved.cacheMaxBytes,
    backend.queue,
    backend.collections,
    backend.states,
    options.graphqlRunner,
    options.protoCompiler,
  );
  const proxy = new ProxySettings({
    allowHosts: resolved.proxyAllowHosts,
    upstream: options.upstream,
    maxRecordBytes: resolved.maxBodyBytes,
    maxRoutes: resolved.maxRoutes,
  });
  const sockets = openSockets(journal, resolved, options);
  // The app's clock: each namespace's app has its own (docs/clock.md), kept in the backend where replicas share it.
  const clock = new Clock();
  const clockSync = new ClockSync(clock, backend.clock, (error) =>
    options.onUnexpectedError?.(error, { method: 'CLOCK', url: '/api/clock' }),
  );
  const timers = new StateTimers({
    clock,
    states: backend.states,
    max: MAX_TIMED_MOVES,
    report: (error) => options.onUnexpectedError?.(error, { method: 'TIMER', url: '/api/clock' }),
  });
  const hosts = new HostTable(Object.entries(options.hosts ?? {}).map(([host, name]) => ({ host, name })));
  const deliveries = new DeliveryWorker({
    store: backend.deliveries,
    allowHosts: resolved.deliveryAllowHosts,
    maxBodyBytes: resolved.maxBodyBytes,
    send: options.deliverySend,
    clock,
    // A subscriber's delivery succeeded: its event's pending_webhooks counts down (Stripe's).
    onDelivered: ({ name, event }) => void twins.delivered(name, event).catch(() => undefined),
  });
  // A twin's webhooks go out through the app's delivery engine.
  const twins = new TwinTable({
    collections: backend.collections,
    setting: (name) => backend.store.getSetting('twin', name),
    catalog: options.twins,
    now: () => clock.now(),
    maxAnswerBytes: resolved.maxCollectionBytes,
    limits: { maxCollectionItems: resolved.maxCollectionItems, maxCollectionBytes: resolved.maxCollectionBytes },
    deliver: (members, from, twin) => deliveries.create(members, { from, ...(twin === undefined ? {} : { twin }) }),
    // A webhook endpoint takes what the provider takes; one to a host not allowed has its deliveries kept as not sent.
    checkTarget: (url) => checkSubscriptionTarget(url, resolved.deliveryAllowHosts),
    // One budget of expensive work for the whole daemon: every namespace's app is given the default one's.
    ...(options.workBudget === undefined ? {} : { budget: options.workBudget }),
    follow: (listener) => endpoints.changes.follow(listener),
    // Replicas on one Redis take a twin's changes in turns there too (docs/twins.md).
    ...(backend.turns === undefined ? {} : { turns: backend.turns }),
  });
  return new BuiltContext(options, resolved, backend, {
    endpoints,
    proxy,
    sockets,
    clock,
    clockSync,
    timers,
    hosts,
    deliveries,
    twins,
  });
}

/** The parts {@link buildAppContext} makes before the context itself. */
type MadeParts = Pick<
  AppContext,
  'endpoints' | 'proxy' | 'sockets' | 'clock' | 'clockSync' | 'timers' | 'hosts' | 'deliveries' | 'twins'
>;

/**
 * The {@link AppContext}: a class, not an object literal with getters (which V8 keeps as a
 * dictionary), since one is made per namespace (a test session's) and the hot path reads it. The
 * journal's live streams (`feed`) are made on their first read: a namespace seldom streams its journal.
 */
class BuiltContext implements AppContext {
  readonly options: ResolvedAppOptions;
  readonly backend: Backend;
  readonly endpoints: AppContext['endpoints'];
  readonly journal: AppContext['journal'];
  readonly streams = new OpenStreams();
  readonly sockets: AppContext['sockets'];
  readonly handler: AppContext['handler'];
  readonly hosts: AppContext['hosts'];
  readonly storedHosts: AppContext['storedHosts'];
  readonly proxy: AppContext['proxy'];
  readonly deliveries: AppContext['deliveries'];
  readonly clock: AppContext['clock'];
  readonly clockSync: AppContext['clockSync'];
  readonly timers: AppContext['timers'];
  readonly twins: AppContext['twins'];
  docs: RouteDoc[];
  describe: RouteDoc[] | undefined;
  readonly #journalStreams: CreateAppOptions['journalStreams'];
  #feed: JournalFeed | undefined;

  constructor(options: CreateAppOptions, resolved: ResolvedAppOptions, backend: Backend, made: MadeParts) {
    this.options = resolved;
    this.backend = backend;
    this.endpoints = made.endpoints;
    this.journal = backend.journal;
    this.sockets = made.sockets;
    this.hosts = made.hosts;
    this.storedHosts = new StoredHosts(made.hosts, backend.store, options.namespace?.empty === true);
    this.proxy = made.proxy;
    this.deliveries = made.deliveries;
    this.clock = made.clock;
    this.clockSync = made.clockSync;
    this.timers = made.timers;
    this.twins = made.twins;
    this.#journalStreams = options.journalStreams;
    this.handler = new EndpointHandler({
      endpoints: made.endpoints,
      journal: backend.journal,
      replays: backend.replays,
      onUnexpectedError: options.onUnexpectedError,
      proxy: made.proxy,
      maxBodyBytes: resolved.maxBodyBytes,
      collectionLimits: resolved,
      ...(options.workBudget === undefined ? {} : { workBudget: options.workBudget }),
      sockets: made.sockets,
      rateLimitNow: options.rateLimitNow,
      steps: options.steps,
      rateBucketStore: backend.rateBuckets,
      clock: made.clock,
      timers: made.timers,
      twins: made.twins,
    });
    this.docs = [];
    this.describe = this.docs;
  }

  get feed(): JournalFeed {
    this.#feed ??= new JournalFeed(this.journal, { ...this.#journalStreams, maxStreams: this.options.maxStreams });
    return this.#feed;
  }

  // Built on the first read (the API's routes, registered on the app's first use): a daemon
  // that only serves stored endpoints never builds them (docs/performance.md, "ready").
  get schemas(): Schemas {
    return schemasFor(this.options.maxDelayMs);
  }
}
