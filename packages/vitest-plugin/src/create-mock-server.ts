/**
 * `createMockServer()`: an isolated mockpoint instance in this process, on
 * 127.0.0.1 and a free port, started in a few milliseconds.
 *
 * @module
 */
import { createApp, type LimitOptions, type MockpointApp } from '@mockpoint/core';
import { pickLimits } from '@mockpoint/core/defaults';
import { applyMockFile, loadMockFile } from '@mockpoint/core/files';
import { type ServedApp, serve, type TlsOptions } from '@mockpoint/core/node';
import { connectMockServer, type MockServerClient } from './connect.js';
import { MockServerError } from './errors.js';
import { type InterceptUnmatched, startIntercept } from './intercept.js';
import { type MockStoreKind, openStore } from './open-store.js';
import { twinCatalog } from './twin-catalog.js';

/** Options for {@link createMockServer}: core's {@link LimitOptions} and the server's own. */
export interface CreateMockServerOptions extends LimitOptions {
  /**
   * Where endpoints are kept. `'level'` uses LevelDB in `dir`, or in a temporary
   * directory that `close()` removes.
   * @default 'memory'
   * @example createMockServer({ store: 'level' })
   */
  store?: MockStoreKind;
  /** LevelDB directory for `store: 'level'`; kept on close. @default a new temporary directory */
  dir?: string;
  /** Address to listen on. @default '127.0.0.1' */
  host?: string;
  /**
   * When set, every `/api/*` write needs `Authorization: Bearer <adminToken>`;
   * the returned handle sends it, the code under test must too.
   * @default undefined (off)
   */
  adminToken?: string;
  /**
   * Hosts proxy routes may forward to (`.example.com` also allows its
   * subdomains); a loopback or private address only when the address itself is
   * listed, e.g. a local upstream: `['127.0.0.1']`.
   * @default [] (proxying off)
   * @example createMockServer({ proxyAllowHosts: ['127.0.0.1'] })
   */
  proxyAllowHosts?: readonly string[];
  /**
   * A mock file (`mockpoint.yaml` or `.json`, relative to the working directory)
   * loaded before the server is handed out; a bad file makes this throw with its
   * `file:line:column`, path and code. Tests can add more per test.
   * @default undefined (start empty)
   * @example createMockServer({ config: 'mockpoint.yaml' })
   */
  config?: string;
  /**
   * Hosts besides loopback addresses (127.0.0.0/8, ::1, localhost) that deliveries
   * (`deliver()`, `POST /api/deliveries`) may target: a name, or `.example.com` for
   * it and its subdomains. Others are refused with `DELIVERY_HOST_NOT_ALLOWED`, as
   * the daemon's `MOCKPOINT_DELIVERY_ALLOW_HOSTS` does.
   * @default [] (loopback only)
   * @example createMockServer({ deliveryAllowHosts: ['receiver.internal'] })
   */
  deliveryAllowHosts?: readonly string[];
  /**
   * Hosts that pick an endpoint: a request with that Host is answered by the
   * endpoint with its whole path as the subpath (docs/https.md).
   * @default {}
   * @example createMockServer({ hosts: { 'api.github.com': 'github' } })
   */
  hosts?: Readonly<Record<string, string>>;
  /**
   * Serve HTTPS (HTTP/2 and HTTP/1.1) with a certificate for `localhost`,
   * 127.0.0.1 and ::1 from a CA made for this server in memory: `mock.url` is
   * `https://…` and `mock.ca` is the CA certificate its clients trust
   * (`https.get(url, { ca: mock.ca })`, undici's `new Agent({ connect: { ca } })`). A
   * mapped host (`hosts`) asked for by name (SNI) gets a certificate for that name.
   * @default false
   */
  https?: boolean;
  /**
   * Origins whose requests from this process (the global `fetch`, `node:http`,
   * `node:https`) are answered by this server in-process, with no socket and no
   * base URL change; each origin's host picks its endpoint through `hosts` (one
   * that maps to none is answered `403 HOST_NOT_MOCKED`). `close()` restores
   * every client. One intercepting server at a time per process.
   * @default [] (nothing intercepted)
   * @example createMockServer({ hosts: { 'api.github.com': 'github' }, intercept: ['https://api.github.com'] })
   */
  intercept?: readonly string[];
  /**
   * With `intercept`: requests to other hosts go to the network (`'network'`) or
   * fail with `HOST_NOT_MOCKED` (`'error'`); loopback addresses always go through.
   * @default 'network'
   */
  interceptUnmatched?: InterceptUnmatched;
}

/**
 * A running in-process instance: the {@link MockServerClient} API plus its lifecycle.
 * Dispose it with `close()` or `await using`.
 */
export interface MockServer extends MockServerClient, AsyncDisposable {
  /** The port it listens on. */
  readonly port: number;
  /** The LevelDB directory when `store` is `'level'`, otherwise `undefined`. */
  readonly dir: string | undefined;
  /** With `https: true`, the CA certificate (PEM) its clients must trust; otherwise `undefined`. */
  readonly ca: string | undefined;
  /**
   * Stops listening, drops open connections at once (keep-alive and in-flight
   * ones), closes the store and removes its temporary directory. Idempotent.
   */
  close(): Promise<void>;
}

/** An intercepted request, answered in-process by its host's endpoint; a host mapped to none gets `403 HOST_NOT_MOCKED`. */
async function answerIntercepted(
  app: MockpointApp,
  inProcess: (request: Request) => Promise<Response>,
  request: Request,
): Promise<Response> {
  const { host } = new URL(request.url);
  if (app.mockpoint.hosts.lookup(host) === undefined) {
    const mapped = app.mockpoint.hosts.list().map((entry) => entry.host);
    return Response.json(
      {
        success: false,
        error: {
          code: 'HOST_NOT_MOCKED',
          message: `"${host}" is intercepted but mapped to no endpoint (mapped: ${mapped.join(', ') || 'none'}); add it to createMockServer({ hosts })`,
          details: { host, mapped },
        },
      },
      { status: 403 },
    );
  }
  // fetch sends no Host header of its own: the journal keeps the host the request was for.
  if (request.headers.has('host')) return inProcess(request);
  const headers = new Headers(request.headers);
  headers.set('host', host);
  return inProcess(new Request(request, { headers }));
}

/**
 * Starts a mock server.
 * @example
 * await using mock = await createMockServer()
 * const hook = await mock.add({ name: 'hook', data: { ok: true } })
 * await fetch(hook.url, { method: 'POST', body: '{}' })
 * expect(await hook.requests()).toHaveLength(1)
 */
export async function createMockServer(options: CreateMockServerOptions = {}): Promise<MockServer> {
  const host = options.host ?? '127.0.0.1';
  const opened = await openStore(options.store ?? 'memory', options.dir);
  const app = createApp({
    store: opened.store,
    ...pickLimits(options),
    adminToken: options.adminToken,
    deliveryAllowHosts: options.deliveryAllowHosts,
    proxyAllowHosts: options.proxyAllowHosts,
    hosts: options.hosts,
    // The providers' twins (setTwin({ provider })), @mockpoint/twins imported on first use.
    twins: twinCatalog,
    onUnexpectedError: (error) => console.error('mockpoint: unexpected error:', error),
  });
  let served: ServedApp;
  let ca: string | undefined;
  try {
    let tls: TlsOptions | undefined;
    if (options.https) {
      // Loaded only when asked for: plain servers never load the X.509 code.
      const { createCa, sniCertificates } = await import('@mockpoint/core/tls');
      const authority = createCa();
      ca = authority.certPem;
      // A mapped host asked for by SNI gets a certificate for its pattern, as from the daemon.
      const certificateFor = sniCertificates(authority, {
        patternOf: (name) => app.mockpoint.hosts.match(name)?.host,
      });
      tls = { ...authority.issue(['localhost', '127.0.0.1', '::1', host]), certificateFor };
    }
    // overrideGlobalObjects: false — a test library must not swap the test's own Request/Response.
    served = await serve(app, { port: 0, host, overrideGlobalObjects: false, tls });
  } catch (error) {
    await opened.dispose();
    throw new MockServerError('LISTEN_FAILED', `cannot listen on ${host}: ${(error as Error).message}`, {
      cause: error,
    });
  }

  // The typed client talks to the app directly (no socket, no keep-alive to wait for);
  // the code under test uses the real URL. Each call gets its own AbortController,
  // tracked while it runs, so close() can abort pending long-polls (one listener per
  // call on the caller's signal, removed when the call ends: nothing accumulates).
  let closed = false;
  const inFlight = new Set<AbortController>();
  const inProcess = async (request: Request): Promise<Response> => {
    if (closed) throw new MockServerError('SERVER_CLOSED', 'this mock server has been closed');
    const controller = new AbortController();
    const forward = () => controller.abort(request.signal.reason);
    if (request.signal.aborted) forward();
    else request.signal.addEventListener('abort', forward, { once: true });
    inFlight.add(controller);
    try {
      return await app.fetch(new Request(request, { signal: controller.signal }));
    } finally {
      inFlight.delete(controller);
      request.signal.removeEventListener('abort', forward);
    }
  };
  const url = `${options.https ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${served.port}`;
  const client = connectMockServer({ url, token: options.adminToken, fetch: inProcess });
  if (options.config !== undefined) {
    try {
      const file = loadMockFile(options.config, { maxBodyBytes: options.maxBodyBytes, maxRoutes: options.maxRoutes });
      await applyMockFile(file, { url, token: options.adminToken, fetch: inProcess });
    } catch (error) {
      await served.close({ graceMs: 0 });
      await opened.dispose();
      throw error;
    }
  }

  let stopIntercept: (() => void) | undefined;
  if (options.intercept !== undefined && options.intercept.length > 0) {
    try {
      stopIntercept = startIntercept(
        options.intercept,
        (request) => answerIntercepted(app, inProcess, request),
        options.interceptUnmatched,
      );
    } catch (error) {
      await served.close({ graceMs: 0 });
      await opened.dispose();
      throw error;
    }
  }

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      stopIntercept?.();
      closed = true;
      for (const controller of inFlight) {
        controller.abort(new MockServerError('SERVER_CLOSED', 'this mock server has been closed'));
      }
      // A test server has nothing worth waiting for: delayed answers and idle
      // keep-alive sockets would otherwise hold close() for seconds.
      await served.close({ graceMs: 0 });
      await opened.dispose();
    })();
    return closing;
  };

  return { ...client, port: served.port, dir: opened.dir, ca, close, [Symbol.asyncDispose]: close };
}
