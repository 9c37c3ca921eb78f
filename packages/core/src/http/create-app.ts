/**
 * `createApp()`: the mockpoint Hono app. It never listens; the server package,
 * `createMockServer()` or `app.request()` in a test drives it.
 *
 * @module
 */

import { Hono, type MiddlewareHandler } from 'hono';
import type { Upstream } from '../answer/proxy/upstream.js';
import type { OpenSockets } from '../answer/websocket/open-sockets.js';
import type { Step } from '../engine/pipeline/step.js';
import type { GraphqlRunner } from '../graphql/graphql-runner.js';
import type { ProtoCompiler } from '../grpc/proto-compiler.js';
import type { JournalFeedOptions } from '../journal/journal-feed.js';
import { isMockpointError, MockpointError } from '../registry/errors.js';
import { type LimitOptions, resolveLimits } from '../registry/limits.js';
import { VERSION } from '../registry/version.js';
import type { Backend, BackendParts } from '../store/backend.js';
import { boundedParts } from '../store/bounded-store.js';
import { memoryBackend } from '../store/memory/backend.js';
import { WorkBudget } from '../turns/work-budget.js';
import type { TwinCatalog } from '../twin/twin-table.js';
import type { DeliverySend } from '../webhook/delivery-send.js';
import type { ApiEncoders } from './api-encoding.js';
import { useApiGuards } from './api-guards.js';
import { buildAppContext } from './app-context-build.js';
import { notFoundAnswer, registerRoutes } from './app-routes.js';
import { type AppNamespace, apiAuth } from './auth.js';
import type { AppContext, ResolvedAppOptions } from './context.js';
import { type ErrorResponder, endpointFetch } from './endpoint-fetch.js';
import { type EarlyAnswer, registerOnFirstUse } from './first-use.js';
import { HeldWork } from './held-work.js';
import { fetchFrontDoor } from './namespace-dispatch.js';
import { NamespaceEarly } from './namespace-early.js';
import { unlessNamespaceGone } from './namespace-gone.js';
import { NamespaceTable, sameNamespace } from './namespace-table.js';
import type { RouteDoc } from './openapi.js';
import { registerGrpcCalls } from './routes/grpc-calls.js';
import { endpointResponder, type Responder, registerMappedHosts } from './routes/read.js';
import { SharedDocs } from './shared-docs.js';
import { SharedRouter } from './shared-router.js';

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
   * answer (host rules, pattern/host-rules.ts: `.example.com` also allows its
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
   * @internal Not in the published declarations: a test's answer pipeline, with a
   * step of its own, walked by every protocol's requests and calls alike. Its last
   * step must always answer.
   * @default the pipeline of engine/endpoint-handler.ts (`PIPELINE`)
   */
  steps?: readonly Step[];
  /**
   * Hosts besides loopback addresses (127.0.0.0/8, ::1, localhost) that deliveries
   * may be sent to (host rules, pattern/host-rules.ts: `.example.com` also allows its
   * subdomains, `host:port` that port only, IPv6 as `::1` or `[::1]`). Others are refused
   * with `DELIVERY_HOST_NOT_ALLOWED`, so a shared daemon cannot be made to reach other machines.
   * @default []
   * @example createApp({ deliveryAllowHosts: ['receiver.internal'] })
   */
  deliveryAllowHosts?: readonly string[];
  /**
   * Hosts proxy routes (`answer: { proxy: { url } }`) may forward to
   * (host rules, pattern/host-rules.ts: `.example.com` also allows its subdomains,
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
   * The budget of expensive work (a twin's large answers and whole-state reads) every app of the
   * daemon shares (turns/work-budget.ts): past it, such work waits briefly, then is refused as the
   * provider's rate limit with `Retry-After`. A namespace's app is given its default app's.
   * @default a new budget of 16 MiB of work under way at once, made by the default namespace's app
   * @example createApp({ workBudget: new WorkBudget({ units: 8 * 1024 * 1024 }) })
   */
  workBudget?: WorkBudget;
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
   * page, so that `/ns/{ns}/` serves the page of that namespace. Called on the
   * app's first use (a request, a route added, its routes read), after the API's
   * routes are registered (first-use.ts).
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
  | 'twins'
  | 'options'
  | 'proxy'
  | 'hosts'
  | 'clock'
  | 'timers'
> & {
  /** The route docs behind `GET /api/openapi.json`: a namespace's app shares its with every other namespace's (shared-docs.ts). */
  readonly docs: readonly RouteDoc[];
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

/**
 * The namespaces of the default namespace's app: each made with the same
 * options over its own backend (its store bounded), never with the static
 * `hosts` (those are the default namespace's), and with the runtime's
 * WebSocket upgrade its `serve()` gave the default one (`rootSockets`).
 */
function namespaceTable(
  options: CreateAppOptions,
  resolved: ResolvedAppOptions,
  backend: Backend,
  rootSockets: () => OpenSockets,
): NamespaceTable | undefined {
  if (options.namespace !== undefined || backend.namespaces === undefined) return undefined;
  const shared: CreateAppOptions = { ...options, hosts: undefined };
  for (const part of PART_NAMES) delete shared[part];
  const { registry } = backend.namespaces;
  // Every namespace's app has the same routes: their docs are made once, by the first (shared-docs.ts).
  const docs = new SharedDocs();
  const early = new NamespaceEarly({ ...resolved, apiEncoders: options.apiEncoders });
  return new NamespaceTable(backend.namespaces, {
    max: resolved.maxNamespaces,
    make: (parts, entry, fresh) => {
      // Fresh parts of a store no other process writes hold nothing: nothing of theirs is read at start.
      const empty = fresh && parts.store.changes === undefined;
      const app = createApp({
        ...shared,
        backend: boundedParts(parts, resolved.maxEndpointsPerNamespace, empty),
        namespace: {
          name: entry.name,
          tokenHash: entry.tokenHash,
          gone: async () => !sameNamespace(await registry.get(entry.name), entry),
          docs,
          early,
          resolved,
          empty,
        },
      });
      // Made on a request, after the runtime's serve() set the default app's upgrade.
      app.mockpoint.sockets.fetchUpgrade = rootSockets().fetchUpgrade;
      // Its WebSockets count against the server's share of the connection cap, with the default app's.
      app.mockpoint.sockets.shareTotal(rootSockets());
      return app;
    },
    report: (error) => options.onUnexpectedError?.(error, { method: 'SWEEP', url: '/api/namespaces' }),
  });
}

/**
 * The app's middleware, in the order it runs: the front door (a namespace's request first:
 * namespace-dispatch.ts), then gRPC calls, mapped hosts and the API's guards.
 */
function useMiddleware(app: Hono, ctx: AppContext, namespaces: NamespaceTable | undefined, options: CreateAppOptions) {
  const resolved = ctx.options;
  // A request that names a namespace is that namespace's app's, before anything of this one's.
  const front = fetchFrontDoor(ctx, namespaces);
  app.use('*', front.door);
  registerGrpcCalls(app, ctx);
  registerMappedHosts(app, ctx, front.mappedHost);
  useApiGuards(
    app,
    resolved,
    apiAuth({ adminToken: resolved.adminToken, namespace: options.namespace }),
    options.apiEncoders,
  );
}

/** A namespace's answers before its API is registered (namespace-early.ts); none for the default namespace. */
function earlyAnswer(
  ctx: AppContext,
  options: CreateAppOptions,
  errorResponse: (error: unknown, request: Request) => Response | Promise<Response>,
): EarlyAnswer | undefined {
  const { namespace } = options;
  if (namespace?.early === undefined) return undefined;
  const early = namespace.early;
  let auth: MiddlewareHandler | undefined;
  let respond: Responder | undefined;
  return (request, env, full) =>
    early.answer(request, env, () => {
      auth ??= apiAuth({ adminToken: ctx.options.adminToken, namespace });
      respond ??= endpointResponder(ctx);
      return { ctx, auth, respond, errorResponse, full };
    });
}

const CTX = Symbol('mockpoint.context');
const ERROR_RESPONSE = Symbol('mockpoint.errorResponse');
const FETCH_ENDPOINT = Symbol('mockpoint.fetchEndpoint');

/**
 * {@link MockpointApp.mockpoint}: the parts of `ctx` as they are, read through it (a part made on
 * first use stays unmade until then), and `fetchEndpoint` made on its first read: a Node daemon
 * answers a namespace's endpoints natively and never reads it. A class, not an object literal with
 * getters (which V8 keeps as a dictionary): one is made per namespace, and the hot path reads it.
 */
class AppServices implements MockpointServices {
  // Kept under symbols, not private names: a view made with `Object.create(app.mockpoint)` reads through them too.
  readonly [CTX]: AppContext;
  readonly [ERROR_RESPONSE]: ErrorResponder;
  [FETCH_ENDPOINT]: Responder | undefined;
  readonly namespaces: NamespaceTable | undefined;
  readonly held: HeldWork;
  readonly hostsLoaded: Promise<void>;
  readonly clockLoaded: Promise<void>;

  constructor(ctx: AppContext, namespaces: NamespaceTable | undefined, held: HeldWork, errorResponse: ErrorResponder) {
    this[CTX] = ctx;
    this[ERROR_RESPONSE] = errorResponse;
    this.namespaces = namespaces;
    this.held = held;
    this.hostsLoaded = ctx.storedHosts.ready;
    this.clockLoaded = ctx.clockSync.loaded;
  }

  get backend(): Backend {
    return this[CTX].backend;
  }
  get endpoints(): AppContext['endpoints'] {
    return this[CTX].endpoints;
  }
  get journal(): AppContext['journal'] {
    return this[CTX].journal;
  }
  get feed(): AppContext['feed'] {
    return this[CTX].feed;
  }
  get streams(): AppContext['streams'] {
    return this[CTX].streams;
  }
  get sockets(): AppContext['sockets'] {
    return this[CTX].sockets;
  }
  get handler(): AppContext['handler'] {
    return this[CTX].handler;
  }
  get deliveries(): AppContext['deliveries'] {
    return this[CTX].deliveries;
  }
  get twins(): AppContext['twins'] {
    return this[CTX].twins;
  }
  get options(): ResolvedAppOptions {
    return this[CTX].options;
  }
  get proxy(): AppContext['proxy'] {
    return this[CTX].proxy;
  }
  get hosts(): AppContext['hosts'] {
    return this[CTX].hosts;
  }
  get clock(): AppContext['clock'] {
    return this[CTX].clock;
  }
  get timers(): AppContext['timers'] {
    return this[CTX].timers;
  }
  get docs(): readonly RouteDoc[] {
    return this[CTX].docs;
  }
  get fetchEndpoint(): Responder {
    this[FETCH_ENDPOINT] ??= endpointFetch(this[CTX], this[ERROR_RESPONSE]);
    return this[FETCH_ENDPOINT];
  }
}

/**
 * Creates the mockpoint app.
 * @example
 * const app = createApp({ store: new MemoryStore() })
 * await app.request('/api/endpoint/add', { method: 'PUT', body: JSON.stringify({ name: 'a', data: 1 }) })
 */
export function createApp(given: CreateAppOptions = {}): MockpointApp {
  // The default namespace's app makes the daemon's budget; its namespaces' apps get it with its options.
  const options = given.workBudget === undefined ? { ...given, workBudget: new WorkBudget() } : given;
  const resolved = options.namespace?.resolved ?? resolveOptions(options);
  const backend = appBackend(options);
  const ctx = buildAppContext(options, resolved, backend);
  const namespaces = namespaceTable(options, resolved, backend, () => ctx.sockets);
  // A namespace's app (one per test session) matches over the matcher every namespace shares.
  const app = options.namespace === undefined ? new Hono() : new Hono({ router: new SharedRouter() });
  const errorResponse = appErrorResponse(options);
  app.onError((error, c) => errorResponse(error, c.req.raw));
  app.notFound(notFoundAnswer(ctx));
  const made: MockpointApp = Object.assign(app, {
    mockpoint: new AppServices(ctx, namespaces, new HeldWork(options.namespace?.name), errorResponse),
  });
  // The API (and what `extend` adds after it) on the app's first use: a daemon serving stored
  // endpoints, and a namespace's app, may never need it (first-use.ts).
  registerOnFirstUse(
    app,
    () => {
      options.namespace?.docs?.lend(ctx);
      useMiddleware(app, ctx, namespaces, options);
      registerRoutes(app, ctx, namespaces, options.namespace);
      options.namespace?.docs?.keep(ctx);
      options.extend?.(made);
    },
    earlyAnswer(ctx, options, errorResponse),
  );
  return made;
}
