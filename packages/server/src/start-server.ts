/**
 * `startServer()`: the daemon without its command line. Opens the backend, builds
 * the app, listens, and closes gracefully.
 *
 * @module
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type Backend,
  type CreateAppOptions,
  createApp,
  type EndpointStore,
  type MockpointApp,
  memoryBackend,
  type TwinCatalog,
} from '@mockpoint/core';
import type { RuntimeServedApp } from '@mockpoint/core/bun';
import { pickLimits, SETTINGS, VERSION } from '@mockpoint/core/defaults';
import { isOwnError } from '@mockpoint/core/internal';
import {
  acceptConnect,
  nodeDeliverySend,
  serve as nodeServe,
  type ServedApp,
  type ServeOptions,
  type TlsOptions,
} from '@mockpoint/core/node';
import { graphqlWorker, protoWorker } from '@mockpoint/core/threads';
import { nodeApiEncoders } from './api-encoders.js';
import type { ServerConfig } from './config.js';
import { DEFAULTS } from './config.js';
import { removeDaemonNote, writeDaemonNote } from './daemon-note.js';
import type { LoadedMockFile } from './mock-file/watch-mock-file.js';
import { backendKind, openBackend } from './open-backend.js';
import { createReporter } from './reporting.js';
import { StartError } from './start-error.js';
import { readTlsFiles } from './tls-files.js';
import { checkTwinProviders, twinCatalog } from './twin-catalog.js';

export { StartError } from './start-error.js';

import { registerMcpRoute } from './mcp-route.js';
import { registerWebRoutes } from './web.js';

/** Options for {@link startServer}: any {@link ServerConfig} field, defaults otherwise. */
export interface StartServerOptions extends Partial<ServerConfig> {
  /** Directory of the web page. @default the page shipped with this package */
  webRoot?: string;
  /** How long in-flight requests may take to finish on close. @default 5000 */
  shutdownGraceMs?: number;
  /** How long start-up waits for `redisUrl` before it fails. @default 5000 */
  redisConnectTimeoutMs?: number;
  /**
   * Use this backend instead of opening one from `memory` / `dataDir` / `redisUrl`
   * (which are then ignored). The server owns it from then on: `close()` closes it,
   * and so does a failed start. Meant for embedding and for tests.
   * @default openBackend(options): Redis with `redisUrl`, memory with `memory: true`, else LevelDB in `dataDir`
   * @example startServer({ port: 0, backend: await levelBackend({ dir: './data' }) })
   */
  backend?: Backend;
  /**
   * Shorthand for `backend: memoryBackend({ store })`: this store, the other parts
   * in memory. Meant for embedding and for tests (e.g. a store that fails).
   * @example startServer({ port: 0, store: new MemoryStore() })
   */
  store?: EndpointStore;
  /**
   * Where the lines about reloads of a watched `configFile` go (one per reload),
   * and those about hosts the file moved from another endpoint (one per host, at
   * start and on reloads).
   * @default standard error
   */
  onConfigReload?: (line: string) => void;
  /**
   * The providers the daemon makes twins of. Meant for tests: a provider of a folder the package
   * does not ship (packages/server/test/twin-third-provider.test.ts).
   * @default the providers of `@mockpoint/twins`, imported on a provider's first twin
   */
  twins?: TwinCatalog;
}

/** A listening daemon. */
export interface RunningServer {
  /** Base URL of the first listening address, e.g. `http://127.0.0.1:16540`. */
  url: string;
  /** Base URL of every listening address, e.g. `http://127.0.0.1:16540` and `http://[::1]:16540`. */
  urls: string[];
  /** The HTTPS URLs (`--https`), else empty. */
  httpsUrls: string[];
  /** The local CA's certificate file, when HTTPS uses it (what clients must trust). */
  caPath: string | undefined;
  /** The URL of each endpoint served at the root of its own port (`--serve`), by name. */
  endpointUrls: Record<string, string>;
  port: number;
  /** Every part of the daemon's state; `describe()` is the start-up line's `(store: …)`. */
  backend: Backend;
  /** The backend's store (`backend.store`). */
  store: EndpointStore;
  /** Things found at start-up that a person should know, one line each (e.g. damaged records skipped). */
  warnings: string[];
  /** Stops accepting, lets in-flight requests finish within the grace period, closes the backend. */
  close(): Promise<void>;
}

const DEFAULT_WEB_ROOT = fileURLToPath(new URL('./web/', import.meta.url));

/** The backend given, one around the store given, or the one the settings choose. */
async function openServerBackend(options: StartServerOptions): Promise<Backend> {
  if (options.backend) return options.backend;
  if (options.store) return memoryBackend({ ...pickLimits(options), store: options.store });
  return openBackend(options);
}

/**
 * On LevelDB, notes in the data directory where this daemon listens (for a second start refused
 * the directory: daemon-note.ts); returns what removes the note on close.
 */
function noteWhereListening(options: StartServerOptions, listening: readonly Served[]): () => void {
  if (options.backend || options.store || backendKind(options) !== 'level') return () => {};
  const dir = options.dataDir ?? DEFAULTS.dataDir;
  writeDaemonNote(
    dir,
    listening.map((one) => one.url),
  );
  return () => removeDaemonNote(dir);
}

/**
 * The HTTPS certificate and key: the files of `--cert`/`--key`, or one for the
 * daemon's own names signed by the local CA kept in `caDir` (the data directory,
 * or with `--memory` a temporary folder of this run's), loaded only when HTTPS
 * is asked for.
 */
async function tlsMaterial(
  options: StartServerOptions,
  app: MockpointApp,
  caDir = options.dataDir ?? resolve(DEFAULTS.dataDir),
): Promise<{ tls: TlsOptions; caPath: string | undefined }> {
  if (options.tlsCert !== undefined && options.tlsKey !== undefined) {
    return { tls: await readTlsFiles(options.tlsCert, options.tlsKey), caPath: undefined };
  }
  const { loadOrCreateCa, sniCertificates } = await import('@mockpoint/core/tls');
  const ca = await loadOrCreateCa(caDir).catch((error: unknown) => {
    // A file that is not PEM, or a key and certificate of two CAs: the message names the files and what to do.
    if (isOwnError(error) && error.code === 'LOCAL_CA_UNUSABLE')
      throw new StartError('LOCAL_CA_UNUSABLE', error.message, error);
    throw error;
  });
  const names = ['localhost', '127.0.0.1', '::1'];
  if (options.host !== undefined && !['0.0.0.0', '::', ...names].includes(options.host)) names.push(options.host);
  for (const allowed of options.allowedHosts ?? []) {
    const name = allowed.replace(/^\./, '').replace(/:\d+$/, '');
    if (/^[a-z0-9.-]+$/i.test(name) && !names.includes(name)) names.push(name);
  }
  // A mapped host asked for by SNI (directly, or in a CONNECT tunnel) gets a certificate for its
  // pattern, made once and bounded (a flood of names under `*.` signs a bounded number).
  const certificateFor = sniCertificates(ca, { patternOf: (name) => app.mockpoint.hosts.match(name)?.host });
  return { tls: { ...ca.issue(names), certificateFor }, caPath: ca.certPath };
}

/** How the daemon listens on one address: `node:http`, or `Bun.serve`. */
type Serve = (app: MockpointApp, options: ServeOptions) => Promise<RuntimeServedApp & { server?: ServedApp['server'] }>;

/**
 * The one place the runtime picks how the daemon serves. Run by Bun, with
 * `Bun.serve` (the engine's Fetch sink, Bun's own WebSocket upgrade), unless HTTPS
 * or the pass-through proxy is asked for: HTTP/2 by ALPN and the forward proxy need
 * `node:http2`/`node:http`, so then every listener is the Node one (Bun's emulation).
 * `MOCKPOINT_BUN_SERVE=0` keeps the Node listeners on Bun (to compare, or as a way out).
 */
async function pickServe(options: StartServerOptions): Promise<Serve> {
  const onBun = typeof (globalThis as { Bun?: unknown }).Bun !== 'undefined';
  // A forward proxy for unmapped hosts reads absolute-form targets and CONNECT, which Bun.serve never shows.
  const nodeOnly = options.https || options.proxyPassThrough;
  if (!onBun || nodeOnly || process.env.MOCKPOINT_BUN_SERVE === '0') return nodeServe;
  const { serve: bunServe } = await import('@mockpoint/core/bun');
  // Bun.serve has no connection cap nor header/request timeouts: its idle timeout stands for them (docs/runtimes.md).
  return async (app, { port, host, endpoint }) => {
    try {
      return bunServe(app, { port, host, endpoint });
    } catch (error) {
      // Node's listen errors name the address; Bun's do not.
      throw Object.assign(error as Error, { address: host });
    }
  };
}

type Served = Awaited<ReturnType<Serve>>;

/** The addresses the daemon listens on unless told otherwise: this machine only. */
const LOOPBACK = ['127.0.0.1', '::1'] as const;

/** The listen errors that mean "this machine has no such address" (no IPv6 loopback). */
const NO_SUCH_ADDRESS = new Set(['EADDRNOTAVAIL', 'EAFNOSUPPORT']);

/**
 * Listens on `host`, or with no host on the loopback addresses: 127.0.0.1, and ::1
 * on the same port where the machine has it (so both `curl 127.0.0.1` and
 * `curl [::1]` reach it, and so does `localhost` whichever it resolves to).
 */
async function listen(
  serve: Serve,
  app: MockpointApp,
  port: number,
  host: string | undefined,
  limits: Pick<ServeOptions, 'maxConnections' | 'headersTimeoutMs' | 'requestTimeoutMs' | 'endpoint' | 'tls'>,
): Promise<Served[]> {
  if (host !== undefined) return [await serve(app, { ...limits, port, host })];
  // With port 0 the port picked on 127.0.0.1 may be taken on ::1: pick again then.
  for (let attempt = 1; ; attempt++) {
    const v4 = await serve(app, { ...limits, port, host: LOOPBACK[0] });
    try {
      return [v4, await serve(app, { ...limits, port: v4.port, host: LOOPBACK[1] })];
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (NO_SUCH_ADDRESS.has(code)) return [v4];
      await v4.close();
      if (!(code === 'EADDRINUSE' && port === 0 && attempt < 5)) throw error;
    }
  }
}

/**
 * Starts the daemon. `opening` is the backend `openBackend(options)` is already opening, made the
 * server's as one it opened itself: the CLI starts opening the store while the daemon's modules
 * still load (cli.ts).
 * @example const server = await startServer({ port: 0, memory: true }); await server.close()
 */
export async function startServer(
  options: StartServerOptions = {},
  opening?: Promise<Backend>,
): Promise<RunningServer> {
  const port = options.port ?? DEFAULTS.port;
  const host = options.host;
  // The reporter and `--twin`'s providers first, so that a failure to load the one or a provider the
  // daemon does not ship leaves no backend open (one already opening is closed).
  const reporter = await checkTwinProviders(options.twin)
    .then(() => createReporter(options.serverReportingDsn, VERSION))
    .catch(async (error: unknown) => {
      await opening?.then(
        (backend) => backend.close(),
        () => {},
      );
      throw error;
    });
  const backend = await (opening ?? openServerBackend(options));
  // Schemas are built and their operations answered in a worker thread, started by the first of them.
  const graphqlRunner = graphqlWorker({ log: (line) => process.stderr.write(`${line}\n`) });
  // .proto sources are parsed in another, started by the first of them (docs/grpc.md).
  const protoCompiler = protoWorker();
  const threads = { close: async () => void (await Promise.all([graphqlRunner.close(), protoCompiler.close()])) };
  const app = serverApp(options, backend, { graphqlRunner, protoCompiler }, reporter);
  // `--twin stripe=12111`: the provider's twin under its name, before the first request (docs/twins.md).
  // A twin kept from before (LevelDB, Redis) keeps its `unseen` choice (PUT …/twin with "unseen": "examples").
  for (const provider of Object.keys(options.twin ?? {})) {
    const kept = await backend.store.getSetting('twin', provider);
    const unseen = kept?.provider === provider ? kept.unseen : undefined;
    await backend.store.setSetting('twin', provider, { provider, ...(unseen === undefined ? {} : { unseen }) });
  }

  await storedPartsLoaded(app);

  // The mock file is in before the first request can arrive; a bad one stops start-up.
  const mockFile =
    options.configFile === undefined
      ? undefined
      : await loadMockFile(options.configFile, options, app, threads, backend);

  const limits = {
    maxConnections: options.maxConnections,
    headersTimeoutMs: options.headersTimeoutMs,
    requestTimeoutMs: options.requestTimeoutMs,
  };
  const serve = await pickServe(options);
  // What listens, and (with --memory) the local CA's temporary folder of this run's, removed on close.
  const opened: Opened = { served: [], caDir: undefined };
  const served = opened.served;
  const removeCaDir = async (): Promise<void> => {
    if (opened.caDir !== undefined) await rm(opened.caDir, { recursive: true, force: true });
  };
  /** A start-up that fails once listening began closes what it opened: the listeners, the mock file, the backend. */
  const closeOpened = async (): Promise<void> => {
    await Promise.all(served.map((one) => one.close()));
    await mockFile?.close();
    await threads.close();
    await backend.close();
    await removeCaDir();
  };

  // Ready means ready: the CA is on disk and every port listens before any answers. The slow part
  // (the CA's key, ~1 s on first use) comes first; the daemon's own port (where /api/health is
  // asked) listens last, so a client that saw health answer finds the HTTPS port listening.
  let tls: HttpsServed | undefined;
  try {
    tls = options.https ? await serveHttps(serve, app, options, limits, opened) : undefined;
  } catch (error) {
    await closeOpened();
    throw error;
  }

  const endpointUrls: Record<string, string> = {};
  // Each endpoint served at the root of its own port (`--serve name=port`), then the daemon's port.
  const ports: [string | undefined, number][] = [
    ...Object.entries(options.serve ?? {}),
    ...Object.entries(options.twin ?? {}),
    [undefined, port],
  ];
  let main: Served[] = [];
  for (const [endpoint, at] of ports) {
    try {
      const one = await listen(serve, app, at, host, { ...limits, endpoint });
      if (endpoint !== undefined) endpointUrls[endpoint] = (one[0] as Served).url;
      else {
        main = one;
        // The daemon's own port takes CONNECT (HTTPS_PROXY, and undici's proxy agent for http:// too):
        // a mapped host's tunnel is answered inside, by the HTTPS server or the plain one.
        const secure = tls?.servers[0]?.server;
        for (const plain of one) if (plain.server) acceptConnect(plain.server, secure, app);
      }
      served.push(...one);
    } catch (error) {
      await closeOpened();
      throw listenError(error, at, endpoint, host);
    }
  }

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      await mockFile?.close();
      // A .proto parse in progress is not waited for (it may take its whole time bound): its PUT is
      // answered PROTO_WORKER_FAILED at once, so the connections close within the grace.
      await Promise.all([
        ...served.map((one) => one.close({ graceMs: options.shutdownGraceMs ?? 5000 })),
        protoCompiler.close(),
      ]);
      await threads.close();
      await backend.close();
      forgetNote();
      await removeCaDir();
      await reporter?.flush();
    })();
    return closing;
  };
  const [first] = main as [Served];
  const forgetNote = noteWhereListening(options, [...main, ...(tls?.servers ?? [])]);
  return {
    url: first.url,
    urls: main.map((one) => one.url),
    endpointUrls,
    httpsUrls: tls?.urls ?? [],
    caPath: tls?.ca,
    port: first.port,
    backend,
    store: backend.store,
    warnings: [...backend.warnings],
    close,
  };
}

/** What start-up has opened so far, closed again when a later step fails. */
interface Opened {
  served: Served[];
  caDir: string | undefined;
}

/** The HTTPS listeners: the CA's certificate path, their URLs and servers. */
interface HttpsServed {
  ca: string | undefined;
  urls: string[];
  servers: Served[];
}

/**
 * The parts kept in the store, read before the first request: the clock other replicas moved (on
 * Redis; a Redis gone meanwhile stops start-up) and the hosts mapped through the API before. A store
 * that cannot be read whole (a damaged table) still starts, degraded as for records: the mappings
 * that could not be read are said on one line; the next change of hosts reloads them all.
 */
async function storedPartsLoaded(app: MockpointApp): Promise<void> {
  await app.mockpoint.clockLoaded;
  try {
    await app.mockpoint.hostsLoaded;
  } catch (error) {
    process.stderr.write(
      `mockpoint: warning: the host mappings kept in the store could not be read (${(error as Error).message}); hosts mapped through the API answer again after \`mockpoint repair\` (docs/reliability.md)\n`,
    );
  }
}

/** The HTTPS port listening with the local CA's (or the given) certificate; what it opens goes into `opened`. */
async function serveHttps(
  serve: Serve,
  app: MockpointApp,
  options: StartServerOptions,
  limits: Pick<ServeOptions, 'maxConnections' | 'headersTimeoutMs' | 'requestTimeoutMs'>,
  opened: Opened,
): Promise<HttpsServed> {
  let material: { tls: TlsOptions; caPath: string | undefined };
  try {
    if (options.memory && options.tlsCert === undefined) opened.caDir = await mkdtemp(join(tmpdir(), 'mockpoint-ca-'));
    material = await tlsMaterial(options, app, opened.caDir);
  } catch (error) {
    if (error instanceof StartError) throw error;
    throw new StartError('LISTEN_FAILED', `cannot serve HTTPS: ${(error as Error).message}`, error);
  }
  const at = options.httpsPort ?? DEFAULTS.httpsPort;
  try {
    const secure = await listen(serve, app, at, options.host, { ...limits, tls: material.tls });
    opened.served.push(...secure);
    return { ca: material.caPath, urls: secure.map((one) => one.url), servers: secure };
  } catch (error) {
    const cause = error as NodeJS.ErrnoException;
    throw cause.code === 'EADDRINUSE'
      ? new StartError(
          'PORT_IN_USE',
          `HTTPS port ${at} is already in use; choose another with --https-port or ${SETTINGS.httpsPort.env}`,
          error,
        )
      : new StartError('LISTEN_FAILED', `cannot serve HTTPS: ${cause.message}`, error);
  }
}

/** The one-line start error for port `at` (the daemon's, or `endpoint`'s of `--serve`) that could not listen. */
function listenError(error: unknown, at: number, endpoint: string | undefined, host: string | undefined): StartError {
  const cause = error as NodeJS.ErrnoException & { address?: string };
  // The address that failed (with the loopback default, one of two), as the error names it.
  const address = cause.address ?? host ?? LOOPBACK.join(' and ');
  const where = `${address.includes(':') ? `[${address}]` : address}:${at}`;
  const choose =
    endpoint === undefined
      ? `choose another with --port or ${SETTINGS.port.env}`
      : `choose another for ${endpoint} in --serve or ${SETTINGS.serve.env} (a twin: --twin or ${SETTINGS.twin.env})`;
  return cause.code === 'EADDRINUSE'
    ? new StartError('PORT_IN_USE', `port ${at} is already in use (${where}); ${choose}`, error)
    : new StartError('LISTEN_FAILED', `cannot listen on ${where}: ${cause.message}`, error);
}

/** The daemon's app over `backend`: the API, the MCP route and the web page. */
function serverApp(
  options: StartServerOptions,
  backend: Backend,
  threads: Pick<CreateAppOptions, 'graphqlRunner' | 'protoCompiler'>,
  reporter: Awaited<ReturnType<typeof createReporter>>,
): MockpointApp {
  const app = createApp({
    backend,
    ...threads,
    // Sent with node:http (keep-alive agents): several times less CPU per attempt than fetch.
    deliverySend: nodeDeliverySend(),
    // The providers' twins, loaded on first use (docs/twins.md).
    twins: options.twins ?? twinCatalog,
    ...pickLimits(options),
    adminToken: options.adminToken,
    allowedHosts: options.allowedHosts,
    hosts: options.hosts,
    allowedOrigins: options.allowedOrigins,
    deliveryAllowHosts: options.deliveryAllowHosts,
    // /api JSON answers compressed for clients that take it (a journal shrinks about fourfold).
    apiEncoders: nodeApiEncoders,
    proxyAllowHosts: options.proxyAllowHosts,
    proxyPassThrough: options.proxyPassThrough,
    onUnexpectedError: (error, request) => {
      console.error('mockpoint: unexpected error:', error);
      reporter?.capture(error, request);
    },
    // The default namespace's app and every namespace's: /ns/{ns}/ serves that namespace's page.
    extend: (made) => {
      registerMcpRoute(made);
      registerWebRoutes(made, {
        root: options.webRoot ?? DEFAULT_WEB_ROOT,
        clientReportingDsn: options.clientReportingDsn,
      });
    },
  });
  return app;
}

/** The mock file, in before the first request can arrive; a bad one stops start-up (closing what was opened). */
async function loadMockFile(
  configFile: string,
  options: StartServerOptions,
  app: MockpointApp,
  threads: { close(): Promise<void> },
  backend: Backend,
): Promise<LoadedMockFile> {
  try {
    // Loaded only for a mock file: its checks bring the whole `graphql` package (a schema is
    // built to be checked), about 14 MB of heap a daemon without --config never needs.
    const { loadAndWatch } = await import('./mock-file/watch-mock-file.js');
    const report = options.onConfigReload ?? ((line) => process.stderr.write(`${line}\n`));
    // A file that is no mock file (a json-server database, a twin setting) is said at start, once.
    let readAsTold = false;
    return await loadAndWatch(
      configFile,
      { url: 'http://localhost', token: options.adminToken, fetch: async (request) => app.fetch(request) },
      {
        watch: options.watchConfig,
        maxBodyBytes: options.maxBodyBytes,
        maxRoutes: options.maxRoutes,
        report,
        onReadAs: (note) => {
          if (!readAsTold) report(`mockpoint: ${note}`);
          readAsTold = true;
        },
      },
    );
  } catch (error) {
    await threads.close();
    await backend.close();
    throw error;
  }
}
