/**
 * `startServer()`: the daemon without its command line. Opens the store, builds
 * the app, listens, and closes gracefully.
 *
 * @module
 */
import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AnswerQueue, createApp, type EndpointStore, MemoryStore, type MockpointApp } from '@mockpoint/core';
import { pickLimits, SETTINGS, VERSION } from '@mockpoint/core/defaults';
import { MockpointError } from '@mockpoint/core/internal';
import { LevelStore } from '@mockpoint/core/level';
import { nodeDeliverySend, type ServedApp, type ServeOptions, serve } from '@mockpoint/core/node';
import { RedisStore } from '@mockpoint/core/redis';
import { nodeApiEncoders } from './api-encoders.js';
import type { ServerConfig } from './config.js';
import { DEFAULTS } from './config.js';
import { type LoadedMockFile, loadAndWatch } from './mock-file/watch-mock-file.js';
import { createReporter } from './reporting.js';
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
   * Use this store instead of opening one from `memory` / `dataDir` (which are then
   * ignored). The server owns it from then on: `close()` closes it, and so does a
   * failed start. Meant for embedding and for tests (e.g. a store that fails).
   * @default a LevelStore in `dataDir`, or a MemoryStore with `memory: true`
   * @example startServer({ port: 0, store: new MemoryStore() })
   */
  store?: EndpointStore;
  /**
   * Where the lines about reloads of a watched `configFile` go (one per reload).
   * @default standard error
   */
  onConfigReload?: (line: string) => void;
}

/** A listening daemon. */
export interface RunningServer {
  /** Base URL of the first listening address, e.g. `http://127.0.0.1:16540`. */
  url: string;
  /** Base URL of every listening address, e.g. `http://127.0.0.1:16540` and `http://[::1]:16540`. */
  urls: string[];
  port: number;
  store: EndpointStore;
  /** Things found at start-up that a person should know, one line each (e.g. damaged records skipped). */
  warnings: string[];
  /** Stops accepting, lets in-flight requests finish within the grace period, closes the store. */
  close(): Promise<void>;
}

/** A start-up failure with a stable code (the CLI prints its message as one line). */
export class StartError extends MockpointError {
  override readonly name = 'StartError';
  declare readonly code: 'PORT_IN_USE' | 'LISTEN_FAILED' | 'DATA_DIR_UNUSABLE' | 'REDIS_UNREACHABLE';
  constructor(code: StartError['code'], message: string, cause?: unknown) {
    super(code, message, { cause });
  }
}

const DEFAULT_WEB_ROOT = fileURLToPath(new URL('./web/', import.meta.url));

/**
 * Creates `dir` and its missing parents. Not `mkdirSync(dir, { recursive: true })`:
 * on some file systems (procfs) that loops forever instead of failing.
 */
function ensureDir(dir: string): void {
  try {
    mkdirSync(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      if (!statSync(dir).isDirectory()) throw new Error('it exists and is not a directory');
      return;
    }
    const parent = dirname(dir);
    if (code !== 'ENOENT' || parent === dir) throw error;
    ensureDir(parent);
    mkdirSync(dir); // fails (once) if the parent still refuses it
  }
}

async function openStore(options: StartServerOptions): Promise<EndpointStore> {
  if (options.store) return options.store;
  if (options.redisUrl !== undefined) {
    try {
      return await RedisStore.open({ url: options.redisUrl, connectTimeoutMs: options.redisConnectTimeoutMs });
    } catch (error) {
      throw new StartError('REDIS_UNREACHABLE', `${SETTINGS.redisUrl.env}: ${(error as Error).message}`, error);
    }
  }
  if (options.memory) return new MemoryStore();
  const dir = options.dataDir ?? DEFAULTS.dataDir;
  try {
    ensureDir(dir);
  } catch (error) {
    throw new StartError(
      'DATA_DIR_UNUSABLE',
      `cannot create data directory ${dir}: ${(error as Error).message}`,
      error,
    );
  }
  return LevelStore.open({ dir });
}

/** The shared answer queue; the store is closed when it cannot be opened. */
async function openQueue(store: RedisStore): Promise<AnswerQueue> {
  try {
    return await store.openAnswerQueue();
  } catch (error) {
    await store.close();
    throw error;
  }
}

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
  app: MockpointApp,
  port: number,
  host: string | undefined,
  limits: Pick<ServeOptions, 'maxConnections' | 'headersTimeoutMs' | 'requestTimeoutMs'>,
): Promise<ServedApp[]> {
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
 * The LevelDB store's durable deliveries; when damaged data keeps them from being
 * read, the daemon still starts (degraded, as health says) with deliveries kept in
 * memory, and says so in one line: `mockpoint repair` is the way back.
 */
async function openLevelDeliveries(
  store: LevelStore,
): Promise<Awaited<ReturnType<LevelStore['openDeliveries']>> | undefined> {
  try {
    return await store.openDeliveries();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    console.error(
      `mockpoint: warning: the pending deliveries could not be read (${reason}); new deliveries are kept in memory until the data directory is repaired (mockpoint repair)`,
    );
    return undefined;
  }
}

/**
 * Starts the daemon.
 * @example const server = await startServer({ port: 0, memory: true }); await server.close()
 */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const port = options.port ?? DEFAULTS.port;
  const host = options.host;
  // The reporter first, so that a failure to load it leaves no store open.
  const reporter = await createReporter(options.serverReportingDsn, VERSION);
  const store = await openStore(options);
  const app = createApp({
    store,
    // Replicas on one Redis share the journal too: a webhook to one is listed by, and wakes a long-poll on, every other.
    journal:
      store instanceof RedisStore
        ? store.openJournal({ size: options.journalSize, maxBytes: options.journalMaxBytes })
        : undefined,
    // …and the answer queue: each queued answer is given once, whichever replica a request reaches.
    queue: store instanceof RedisStore ? await openQueue(store) : undefined,
    // …and deliveries: pending retries outlive a restart (LevelDB) or any replica (Redis); in memory they do not.
    deliveries:
      store instanceof RedisStore
        ? store.openDeliveries()
        : store instanceof LevelStore
          ? await openLevelDeliveries(store)
          : undefined,
    // Sent with node:http (keep-alive agents): several times less CPU per attempt than fetch.
    deliverySend: nodeDeliverySend(),
    // …and the webhook ids already seen, so a replay to another replica is told as one.
    replays: store instanceof RedisStore ? store.openReplayGuard() : undefined,
    ...pickLimits(options),
    adminToken: options.adminToken,
    allowedHosts: options.allowedHosts,
    allowedOrigins: options.allowedOrigins,
    deliveryAllowHosts: options.deliveryAllowHosts,
    // /api JSON answers compressed for clients that take it (a journal shrinks about fourfold).
    apiEncoders: nodeApiEncoders,
    proxyAllowHosts: options.proxyAllowHosts,
    onUnexpectedError: (error, request) => {
      console.error('mockpoint: unexpected error:', error);
      reporter?.capture(error, request);
    },
  });
  registerWebRoutes(app, { root: options.webRoot ?? DEFAULT_WEB_ROOT, clientReportingDsn: options.clientReportingDsn });

  // The mock file is in before the first request can arrive; a bad one stops start-up.
  let mockFile: LoadedMockFile | undefined;
  if (options.configFile !== undefined) {
    try {
      mockFile = await loadAndWatch(
        options.configFile,
        { url: 'http://localhost', token: options.adminToken, fetch: async (request) => app.fetch(request) },
        {
          watch: options.watchConfig,
          maxBodyBytes: options.maxBodyBytes,
          maxRoutes: options.maxRoutes,
          report: options.onConfigReload ?? ((line) => process.stderr.write(`${line}\n`)),
        },
      );
    } catch (error) {
      await store.close();
      throw error;
    }
  }

  let served: ServedApp[];
  try {
    served = await listen(app, port, host, {
      maxConnections: options.maxConnections,
      headersTimeoutMs: options.headersTimeoutMs,
      requestTimeoutMs: options.requestTimeoutMs,
    });
  } catch (error) {
    await mockFile?.close();
    await store.close();
    const cause = error as NodeJS.ErrnoException & { address?: string };
    // The address that failed (with the loopback default, one of two), as the error names it.
    const address = cause.address ?? host ?? LOOPBACK.join(' and ');
    const where = `${address.includes(':') ? `[${address}]` : address}:${port}`;
    throw cause.code === 'EADDRINUSE'
      ? new StartError(
          'PORT_IN_USE',
          `port ${port} is already in use (${where}); choose another with --port or ${SETTINGS.port.env}`,
          error,
        )
      : new StartError('LISTEN_FAILED', `cannot listen on ${where}: ${cause.message}`, error);
  }

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      await mockFile?.close();
      await Promise.all(served.map((one) => one.close({ graceMs: options.shutdownGraceMs ?? 5000 })));
      await store.close();
      await reporter?.flush();
    })();
    return closing;
  };
  const warnings: string[] = [];
  if (store instanceof LevelStore && store.unreadableAtOpen > 0) {
    warnings.push(
      `data directory ${store.dir}: ${store.unreadableAtOpen} endpoint write(s) in the write-ahead log could not be read (damaged, or torn by a failed write) and were skipped; everything else was loaded`,
    );
  }
  if (store instanceof LevelStore && store.damagedTables.length > 0) {
    warnings.push(`data directory ${store.dir}: ${store.health().reason ?? 'damaged table files'}`);
  }
  const [first] = served as [ServedApp];
  return { url: first.url, urls: served.map((one) => one.url), port: first.port, store, warnings, close };
}

/** The `(store: …)` part of the start-up line. */
export function describeStore(store: EndpointStore, config: ServerConfig): string {
  if (store instanceof RedisStore) {
    const durability =
      store.durable === false
        ? ' - NOT durable: this Redis does not fsync every write (set appendonly yes, appendfsync always)'
        : store.durable === true
          ? ', appendfsync always'
          : '';
    return `redis at ${store.location}${durability}`;
  }
  return config.memory ? 'memory (nothing is written to disk)' : `level at ${config.dataDir}`;
}
