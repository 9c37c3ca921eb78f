/**
 * `createApp()`: the mockpoint Hono app. It never listens; the server package,
 * `createMockServer()` or `app.request()` in a test drives it.
 *
 * @module
 */

import { type Context, Hono } from 'hono';
import { ProxySettings } from '../answer/proxy/proxy-settings.js';
import type { Upstream } from '../answer/proxy/upstream.js';
import { OpenStreams } from '../answer/stream/open-streams.js';
import { OpenSockets, socketShareOf } from '../answer/websocket/open-sockets.js';
import { Clock } from '../clock/clock.js';
import { ClockSync } from '../clock/shared-clock.js';
import { EndpointHandler } from '../engine/endpoint-handler.js';
import { EndpointService } from '../engine/endpoint-service.js';
import type { GraphqlRunner } from '../graphql/graphql-runner.js';
import type { ProtoCompiler } from '../grpc/proto-compiler.js';
import { hostGuard } from '../hosts/host-guard.js';
import { HostTable } from '../hosts/host-table.js';
import { StoredHosts } from '../hosts/stored-hosts.js';
import { JournalFeed, type JournalFeedOptions } from '../journal/journal-feed.js';
import { MAX_TIMED_MOVES, StateTimers } from '../state/state-timers.js';
import type { Backend, BackendParts } from '../store/backend.js';
import { boundedParts } from '../store/bounded-store.js';
import { memoryBackend } from '../store/memory/backend.js';
import { type TwinCatalog, TwinTable } from '../twin/twin-table.js';
import type { DeliverySend } from '../webhook/delivery-send.js';
import { DeliveryWorker } from '../webhook/delivery-worker.js';
import { isMockpointError, MockpointError } from '../wire/errors.js';
import { type LimitOptions, resolveLimits } from '../wire/limits.js';
import { isValidName } from '../wire/rules.js';
import { createSchemas } from '../wire/schemas.js';
import { sessionOfHeaders } from '../wire/session.js';
import { VERSION } from '../wire/version.js';
import { type ApiEncoders, apiEncoding } from './api-encoding.js';
import { type AppNamespace, apiAuth } from './auth.js';
import type { AppContext, ResolvedAppOptions } from './context.js';
import { HeldWork } from './held-work.js';
import { badNamespace, heldUntilAnswered, namespaceDispatch } from './namespace-dispatch.js';
import { unlessNamespaceGone } from './namespace-gone.js';
import { NamespaceTable, sameNamespace } from './namespace-table.js';
import type { RouteDoc } from './openapi.js';
import { originGuard } from './origin-guard.js';
import { registerAddRoute } from './routes/add.js';
import { registerChaosRoutes } from './routes/chaos.js';
import { registerClockRoutes } from './routes/clock.js';
import { registerCollectionItemRoutes } from './routes/collection-items.js';
import { registerCollectionRoutes } from './routes/collections.js';
import { registerCoverageRoutes } from './routes/coverage.js';
import { registerDeliveryRoutes } from './routes/deliveries.js';
import { registerEndpointRoutes } from './routes/endpoint-routes.js';
import { registerGraphqlRoutes } from './routes/graphql.js';
import { registerGrpcRoutes } from './routes/grpc.js';
import { registerGrpcCalls } from './routes/grpc-calls.js';
import { registerHostRoutes } from './routes/hosts.js';
import { registerJournalRoutes } from './routes/journal.js';
import { registerJournalHarRoutes } from './routes/journal-har.js';
import { registerJournalPactRoutes } from './routes/journal-pact.js';
import { registerJournalStreamRoutes } from './routes/journal-stream.js';
import { registerManageRoutes } from './routes/manage.js';
import { refuseNestedNamespaces, registerNamespaceRoutes } from './routes/namespaces.js';
import { registerQueueRoutes } from './routes/queue.js';
import { endpointResponder, type Responder, registerMappedHosts, registerReadRoutes } from './routes/read.js';
import { registerServiceRoutes } from './routes/service.js';
import { registerSignatureRoutes } from './routes/signature.js';
import { registerSocketRoutes } from './routes/sockets.js';
import { registerStateRoutes } from './routes/state.js';
import { registerTwinRoutes } from './routes/twin.js';
import { registerUnhandledRoutes } from './routes/unhandled.js';
import { registerUnknownNameRoutes } from './routes/unknown-names.js';
import { registerVerifyRoutes } from './routes/verify.js';

/**
 * Options for {@link createApp}: the {@link LimitOptions}, the state (a `backend`,
 * or some of its parts, the others then made in memory) and the rest.
 */
export interface CreateAppOptions extends LimitOptions, Partial<BackendParts> {
  /**
   * Every part of the shared state as one object (records, journal, queue,
   * deliveries, replay memory). Give it, or give parts one by one (`store`,
   * `journal`, `queue`, `deliveries`, `replays`: the others are made in memory),
   * not both. The app does not close it: its owner does.
   * @default memoryBackend() with the parts given
   * @example createApp({ backend: await levelBackend({ dir: './data' }) }) // from @mockpoint/core/level
   * @example createApp({ backend: await redisBackend({ url: 'redis://127.0.0.1:6379' }) }) // shared by every replica
   * @example createApp({ store: new MemoryStore() })
   */
  backend?: Backend;
  /**
   * Hosts besides IP addresses and `localhost` that `/api/*` and the web page
   * answer (host rules, wire/host-rules.ts: `.example.com` also allows its
   * subdomains, `name:port` that port only); other Hosts get 403
   * `HOST_NOT_ALLOWED`. `/endpoint/*` answers any Host.
   * @default []
   * @example createApp({ allowedHosts: ['mocks.internal', '.example.com'] })
   */
  allowedHosts?: readonly string[];
  /**
   * Hosts that pick an endpoint, fixed for the app's life: a request with that
   * `Host` (or, through the forward proxy, that target) is answered by the
   * endpoint with its whole path as the subpath, and never reaches `/api` or the
   * page. `*.stripe.com` maps every name below `stripe.com`. The admin API adds
   * more per endpoint (`PUT /api/endpoints/{name}/hosts`). See docs/https.md.
   * @default {}
   * @example createApp({ hosts: { 'api.github.com': 'github', '*.stripe.com': 'stripe' } })
   */
  hosts?: Readonly<Record<string, string>>;
  /**
   * Origins besides the daemon's own (the request's scheme and Host) whose pages
   * may write to `/api` (`Origin` header, e.g. `http://localhost:3000`). A write
   * from any other origin gets 403 `CROSS_ORIGIN`; requests without `Origin`
   * (curl, the SDKs) are not checked, nor is `/endpoint/*`.
   * @default []
   * @example createApp({ allowedOrigins: ['http://localhost:5173'] })
   */
  allowedOrigins?: readonly string[];
  /**
   * How the journal streams (`…/requests/stream`) behave; their number is bounded by `maxStreams`.
   * @default { heartbeatMs: 15000, maxBufferedBytes: 4194304, retryMs: 1000 }
   * @example createApp({ journalStreams: { heartbeatMs: 5000 } }) // behind a proxy that closes idle connections after 10 s
   */
  journalStreams?: Omit<JournalFeedOptions, 'maxStreams'>;
  /**
   * How deliveries' requests go out. `fetch` runs everywhere; on Node,
   * `nodeDeliverySend()` from `@mockpoint/core/node` takes several times less CPU
   * per request (the daemon uses it).
   * @default fetchDeliverySend()
   * @example createApp({ deliverySend: nodeDeliverySend() })
   */
  deliverySend?: DeliverySend;
  /**
   * The providers this app makes twins of (`PUT /api/endpoints/{name}/twin`
   * `{ provider }`, docs/twins.md), loaded on first use; the daemon gives
   * `@mockpoint/twins`'. A twin of a document given whole needs none.
   * @default none
   */
  twins?: TwinCatalog;
  /**
   * The clock of routes' rate limits (docs/rate-limits.md), in ms: a test moves
   * it on to refill a bucket instead of waiting.
   * @default Date.now
   */
  rateLimitNow?: () => number;
  /**
   * Hosts besides loopback addresses (127.0.0.0/8, ::1, localhost) that deliveries
   * may be sent to (host rules, wire/host-rules.ts: `.example.com` also allows its
   * subdomains, `host:port` that port only, IPv6 as `::1` or `[::1]`). Others are refused
   * with `DELIVERY_HOST_NOT_ALLOWED`, so a shared daemon cannot be made to reach other machines.
   * @default []
   * @example createApp({ deliveryAllowHosts: ['receiver.internal'] })
   */
  deliveryAllowHosts?: readonly string[];
  /**
   * Hosts proxy routes (`answer: { proxy: { url } }`) may forward to
   * (host rules, wire/host-rules.ts: `.example.com` also allows its subdomains,
   * `host:port` that port only); empty: proxying is off. A loopback, private or
   * link-local address is reached only when the address itself is listed
   * (`127.0.0.1`, or `127.0.0.1:8080` for one port), also when a listed name resolves to it.
   * @default [] (proxying off)
   * @example createApp({ proxyAllowHosts: ['api.example.com', '127.0.0.1:8080'] })
   */
  proxyAllowHosts?: readonly string[];
  /**
   * Through the forward proxy (Node's listener), pass a host that is mapped to
   * no endpoint on to the network instead of refusing it with
   * `HOST_NOT_MOCKED`; only hosts `proxyAllowHosts` allows, with its SSRF rules
   * (`MOCKPOINT_PROXY_PASS_THROUGH`). @default false
   */
  proxyPassThrough?: boolean;
  /**
   * How proxy routes send requests. Serving on Node (`@mockpoint/core/node`) uses one
   * that checks every address a name resolves to; elsewhere `fetch`.
   * @default fetchUpstream (Node adapters: nodeUpstream)
   */
  upstream?: Upstream;
  /**
   * Content codings for `/api` JSON answers of 1 KiB or more, given to clients that
   * accept them (`Accept-Encoding`); never `/endpoint/*` answers nor event streams.
   * `GET` answers carry an `ETag` (and `If-None-Match` gets `304`) either way.
   * @default {} (answers are sent uncompressed)
   * @example createApp({ apiEncoders: { gzip: gzipEncoder } })
   */
  apiEncoders?: ApiEncoders;
  /**
   * Who builds stored GraphQL schemas and answers schema-mode operations
   * (docs/graphql.md). On Node, Bun and Deno give `graphqlWorker()` from
   * `@mockpoint/core/threads` (a worker thread: the event loop never builds a
   * schema; the daemon does) and close it with the server; the default builds
   * and answers on the event loop (where there are no threads: Workers).
   * @default inlineGraphqlRunner()
   * @example createApp({ graphqlRunner: graphqlWorker() })
   */
  graphqlRunner?: GraphqlRunner;
  /**
   * Who parses `.proto` sources into descriptors (docs/grpc.md): on Node, Bun and
   * Deno give `protoWorker()` from `@mockpoint/core/threads` (a worker thread
   * with a time bound: the event loop never parses a `.proto`; the daemon does)
   * and close it with the server; the default parses on the event loop.
   * @default inlineProtoCompiler()
   * @example createApp({ protoCompiler: protoWorker() })
   */
  protoCompiler?: ProtoCompiler;
  /** When set, every `/api/*` write needs `Authorization: Bearer <adminToken>`. @default undefined (off) */
  adminToken?: string;
  /**
   * Adds to the app what this package does not make (routes, middleware), and
   * to every namespace's app alike: the daemon adds its MCP route and the web
   * page, so that `/ns/{ns}/` serves the page of that namespace.
   * @default undefined
   * @example createApp({ extend: (app) => app.get('/hello', (c) => c.text('hi')) })
   */
  extend?: (app: MockpointApp) => void;
  /**
   * The namespace this app serves (made by the default namespace's app for each
   * namespace: docs/sessions.md); absent for the default namespace, whose app
   * also serves every namespace of its backend.
   * @default undefined
   */
  namespace?: AppNamespace;
  /** Version reported by `/api/health`. @default the core package version */
  version?: string;
  /**
   * Called with every unexpected error (answered as 500 INTERNAL), e.g. to report it.
   * @example createApp({ onUnexpectedError: (error) => Sentry.captureException(error) })
   */
  onUnexpectedError?: (error: unknown, request: { method: string; url: string }) => void;
}

/** The app returned by {@link createApp}: a Hono app plus its services. */
export type MockpointApp = Hono & {
  /** The backend, store, cache, queue and journal behind the routes. */
  readonly mockpoint: MockpointServices;
};

/** What {@link MockpointApp.mockpoint} holds. */
type MockpointServices = Pick<
  AppContext,
  | 'backend'
  | 'endpoints'
  | 'journal'
  | 'feed'
  | 'streams'
  | 'sockets'
  | 'handler'
  | 'deliveries'
  | 'options'
  | 'proxy'
  | 'hosts'
  | 'clock'
  | 'timers'
> & {
  /** What the app holds open for its clients now (held-work.ts): a namespace's delete ends it. */
  readonly held: HeldWork;
  /**
   * Answers `request` as endpoint `name` (a valid name, not looked up by Host), exactly as
   * `/endpoint/{name}` of the app does, without its routing: for an adapter whose runtime
   * hands over Fetch requests (Bun). `env` is the runtime's (Bun's server: for an upgrade);
   * `target` (path and query under /endpoint/) replaces the URL's. Errors are answered as the
   * app answers them.
   */
  readonly fetchEndpoint: Responder;
  /**
   * The namespaces this app serves besides the default one (`/ns/{ns}/…`,
   * `mockpoint-session`), each an app of its own; absent in a namespace's app
   * and where the backend keeps no namespaces.
   */
  readonly namespaces: NamespaceTable | undefined;
  /**
   * Resolves once {@link AppContext.hosts} holds the host mappings kept in the
   * store (set through the API before a restart, or by another replica); rejects
   * when the store could not be read. Await it before serving.
   */
  readonly hostsLoaded: Promise<void>;
  /**
   * Resolves once the clock shows the backend's (another replica's change, on Redis);
   * at once where the backend keeps no clock. Await it before serving.
   */
  readonly clockLoaded: Promise<void>;
};

/**
 * The request schemas for a delay limit, built once per limit and shared by
 * every app that has it (they are never changed): a namespace's app is made
 * per test session, and building them is two thirds of `createApp()` (6.7 of
 * 10 ms, measured).
 */
const SCHEMAS = new Map<number, ReturnType<typeof createSchemas>>();
function schemasFor(maxDelayMs: number): ReturnType<typeof createSchemas> {
  let schemas = SCHEMAS.get(maxDelayMs);
  if (schemas === undefined) {
    schemas = createSchemas({ maxDelayMs });
    SCHEMAS.set(maxDelayMs, schemas);
  }
  return schemas;
}

/** For each documented path, the methods it answers; matches `{param}` segments. */
function allowedMethods(docs: RouteDoc[]): (path: string) => string[] {
  const byPath = new Map<string, { pattern: RegExp; methods: string[] }>();
  for (const doc of docs) {
    let route = byPath.get(doc.path);
    if (route === undefined) {
      const source = doc.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
      route = { pattern: new RegExp(`^${source}$`), methods: [] };
      byPath.set(doc.path, route);
    }
    route.methods.push(doc.method.toUpperCase());
  }
  for (const route of byPath.values()) {
    // Hono answers HEAD wherever it answers GET.
    if (route.methods.includes('GET') && !route.methods.includes('HEAD')) route.methods.push('HEAD');
  }
  return (path) => [...byPath.values()].filter((r) => r.pattern.test(path)).flatMap((r) => r.methods);
}

const PART_NAMES = [
  'store',
  'journal',
  'queue',
  'deliveries',
  'replays',
  'collections',
  'states',
] as const satisfies ReadonlyArray<keyof BackendParts>;

/** The app's backend: the one given, or a memory one around the parts given. */
function appBackend(options: CreateAppOptions): Backend {
  if (options.backend === undefined) return memoryBackend(options);
  const given = PART_NAMES.filter((part) => options[part] !== undefined);
  if (given.length > 0) {
    throw new TypeError(
      `createApp: give either \`backend\` or its parts, not both (also given: ${given.join(', ')}); build the backend with those parts instead`,
    );
  }
  return options.backend;
}

function resolveOptions(options: CreateAppOptions): ResolvedAppOptions {
  return {
    ...resolveLimits(options),
    adminToken: options.adminToken === '' ? undefined : options.adminToken,
    allowedHosts: options.allowedHosts ?? [],
    allowedOrigins: options.allowedOrigins ?? [],
    deliveryAllowHosts: options.deliveryAllowHosts ?? [],
    proxyAllowHosts: options.proxyAllowHosts ?? [],
    proxyPassThrough: options.proxyPassThrough ?? false,
    version: options.version ?? VERSION,
  };
}

/**
 * Creates the mockpoint app.
 * @example
 * const app = createApp({ store: new MemoryStore() })
 * await app.request('/api/endpoint/add', { method: 'PUT', body: JSON.stringify({ name: 'a', data: 1 }) })
 */
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

/** Whether a request's host is mapped to an endpoint here, as registerMappedHosts reads it. */
function mappedHostOf(ctx: AppContext): (request: Request) => Promise<boolean> {
  return async (request) => {
    if (!ctx.storedHosts.loaded) await ctx.storedHosts.ready.catch(() => undefined);
    if (ctx.hosts.size === 0) return false;
    return ctx.hosts.lookup(request.headers.get('host') ?? new URL(request.url).host) !== undefined;
  };
}

/** Every route of the API, in the order they are matched. */
function registerRoutes(
  app: Hono,
  ctx: AppContext,
  namespaces: NamespaceTable | undefined,
  namespace: AppNamespace | undefined,
): void {
  registerReadRoutes(app, ctx);
  registerHostRoutes(app, ctx);
  registerAddRoute(app, ctx);
  registerManageRoutes(app, ctx);
  registerEndpointRoutes(app, ctx);
  registerQueueRoutes(app, ctx);
  registerCollectionRoutes(app, ctx);
  registerCollectionItemRoutes(app, ctx);
  registerStateRoutes(app, ctx);
  registerClockRoutes(app, ctx);
  registerSocketRoutes(app, ctx);
  registerSignatureRoutes(app, ctx);
  registerChaosRoutes(app, ctx);
  registerTwinRoutes(app, ctx);
  registerGraphqlRoutes(app, ctx);
  registerGrpcRoutes(app, ctx);
  registerJournalRoutes(app, ctx);
  registerJournalStreamRoutes(app, ctx);
  registerJournalHarRoutes(app, ctx);
  registerJournalPactRoutes(app, ctx);
  registerUnknownNameRoutes(app, ctx);
  registerVerifyRoutes(app, ctx);
  registerUnhandledRoutes(app, ctx);
  registerCoverageRoutes(app, ctx);
  if (namespaces !== undefined) registerNamespaceRoutes(app, ctx, namespaces);
  else if (namespace !== undefined) refuseNestedNamespaces(app, namespace.name);
  registerDeliveryRoutes(app, ctx);
  registerServiceRoutes(app, ctx);
}

/** How the app answers an error: a MockpointError as itself (404 where its namespace went under it), else 500. */
function appErrorResponse(
  options: CreateAppOptions,
): (error: unknown, request: Request) => Response | Promise<Response> {
  return (error, request) => {
    if (isMockpointError(error)) {
      const own = options.namespace;
      // A namespace deleted while this request was under way: its parts closed under it.
      if (error.code === 'STORE_UNAVAILABLE' && own?.gone !== undefined) {
        return unlessNamespaceGone(error, own).then((answer) => answer.toResponse());
      }
      return error.toResponse();
    }
    options.onUnexpectedError?.(error, request);
    return new MockpointError('INTERNAL', 'internal error; see the server log', { cause: error }).toResponse();
  };
}

/** The answer to a path no route takes: 405 naming the methods a known path allows, else 404. */
function notFoundAnswer(ctx: AppContext): (c: Context) => Response {
  let allowed: ((path: string) => string[]) | undefined;
  return (c) => {
    allowed ??= allowedMethods(ctx.docs);
    const methods = allowed(c.req.path);
    if (methods.length > 0) {
      const response = new MockpointError(
        'METHOD_NOT_ALLOWED',
        `${c.req.method} is not allowed on ${c.req.path}; use ${methods.join(', ')}`,
      ).toResponse();
      response.headers.set('allow', methods.join(', '));
      return response;
    }
    return new MockpointError(
      'ROUTE_NOT_FOUND',
      `no route for ${c.req.method} ${c.req.path}; see GET /api/openapi.json`,
    ).toResponse();
  };
}

/**
 * The namespaces of the default namespace's app: each made with the same
 * options over its own backend (its store bounded), never with the static
 * `hosts` (those are the default namespace's).
 */
function namespaceTable(
  options: CreateAppOptions,
  resolved: ResolvedAppOptions,
  backend: Backend,
): NamespaceTable | undefined {
  if (options.namespace !== undefined || backend.namespaces === undefined) return undefined;
  const shared: CreateAppOptions = { ...options, hosts: undefined };
  for (const part of PART_NAMES) delete shared[part];
  const { registry } = backend.namespaces;
  return new NamespaceTable(backend.namespaces, {
    max: resolved.maxNamespaces,
    make: (parts, entry) =>
      createApp({
        ...shared,
        backend: boundedParts(parts, resolved.maxEndpointsPerNamespace),
        namespace: {
          name: entry.name,
          tokenHash: entry.tokenHash,
          gone: async () => !sameNamespace(await registry.get(entry.name), entry),
        },
      }),
    report: (error) => options.onUnexpectedError?.(error, { method: 'SWEEP', url: '/api/namespaces' }),
  });
}

export function createApp(options: CreateAppOptions = {}): MockpointApp {
  const resolved = resolveOptions(options);
  const backend = appBackend(options);
  const namespaces = namespaceTable(options, resolved, backend);
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
  // A twin's webhooks go out through the app's delivery engine (made below, with the context).
  const twins = new TwinTable({
    collections: backend.collections,
    catalog: options.twins,
    now: () => clock.now(),
    deliver: (members) => ctx.deliveries.create(members),
    changes: (name) => endpoints.changes.signal(name),
  });
  const ctx: AppContext = {
    twins,
    proxy,
    sockets,
    hosts,
    storedHosts: new StoredHosts(hosts, backend.store),
    options: resolved,
    backend,
    endpoints,
    journal,
    feed: new JournalFeed(journal, { ...options.journalStreams, maxStreams: resolved.maxStreams }),
    streams: new OpenStreams(),
    handler: new EndpointHandler({
      endpoints,
      journal,
      replays: backend.replays,
      onUnexpectedError: options.onUnexpectedError,
      proxy,
      maxBodyBytes: resolved.maxBodyBytes,
      collectionLimits: resolved,
      sockets,
      rateLimitNow: options.rateLimitNow,
      rateBucketStore: backend.rateBuckets,
      clock,
      timers,
      twins,
    }),
    clock,
    clockSync,
    timers,
    deliveries: new DeliveryWorker({
      store: backend.deliveries,
      allowHosts: resolved.deliveryAllowHosts,
      maxBodyBytes: resolved.maxBodyBytes,
      send: options.deliverySend,
      clock,
    }),
    schemas: schemasFor(resolved.maxDelayMs),
    docs: [],
  };
  const app = new Hono();

  const errorResponse = appErrorResponse(options);
  app.onError((error, c) => errorResponse(error, c.req.raw));
  const respondEndpoint = endpointResponder(ctx);
  const fetchEndpoint: Responder = (request, name, env, target, split, host) => {
    // A request that names a namespace by its headers is that namespace's (Bun's fast path comes here).
    const ns = namespaces === undefined ? undefined : sessionOfHeaders(request.headers);
    if (ns !== undefined && namespaces !== undefined) {
      if (!isValidName(ns)) return badNamespace(ns).toResponse();
      const made = (async () => namespaces.app(ns))();
      return made.then(
        // Held work of the namespace's (Bun's fast path): its delete answers it, and it is use.
        (nsApp) => heldUntilAnswered(nsApp, ns, nsApp.mockpoint.fetchEndpoint(request, name, env, target, split, host)),
        (error: unknown) => errorResponse(error, request),
      );
    }
    try {
      const response = respondEndpoint(request, name, env, target, split, host);
      return response instanceof Promise ? response.catch((error: unknown) => errorResponse(error, request)) : response;
    } catch (error) {
      return errorResponse(error, request);
    }
  };
  app.notFound(notFoundAnswer(ctx));
  // A request that names a namespace is that namespace's app's, before anything of this one's.
  if (namespaces !== undefined) app.use('*', namespaceDispatch(namespaces, mappedHostOf(ctx)));
  registerGrpcCalls(app, ctx);
  registerMappedHosts(app, ctx);
  app.use('*', hostGuard(resolved.allowedHosts));
  app.use('/api/*', originGuard(resolved.allowedOrigins));
  app.use('/api/*', apiAuth({ adminToken: resolved.adminToken, namespace: options.namespace }));
  app.use('/api/*', apiEncoding({ encoders: options.apiEncoders }));

  registerRoutes(app, ctx, namespaces, options.namespace);

  const made: MockpointApp = Object.assign(app, {
    mockpoint: {
      backend,
      endpoints: ctx.endpoints,
      journal: ctx.journal,
      feed: ctx.feed,
      streams: ctx.streams,
      sockets,
      handler: ctx.handler,
      deliveries: ctx.deliveries,
      options: resolved,
      proxy,
      hosts: ctx.hosts,
      clock,
      timers,
      held: new HeldWork(options.namespace?.name),
      hostsLoaded: ctx.storedHosts.ready,
      clockLoaded: clockSync.loaded,
      namespaces,
      fetchEndpoint,
    },
  });
  options.extend?.(made);
  return made;
}
