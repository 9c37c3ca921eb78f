/**
 * A daemon holding a provider's twin (docs/twins.md) for the twin tests: the built daemon on
 * LevelDB (a temp data directory), on a redis-server the test started, or in memory, the twin put
 * at a name of its own (the Redis tests of a file share one redis-server, {@link useTwinRedis}) and
 * served at the root of a port of its own (`--serve`), where the providers' SDKs point. And a
 * receiver of webhooks on 127.0.0.1.
 *
 * @module
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestRedis, type TestRedis } from '@mockpoint/testkit/redis-server';
import examples from '@octokit/webhooks-examples/api.github.com/index.json' with { type: 'json' };
import { afterAll, expect } from 'vitest';
import {
  type CliOptions,
  type Daemon,
  makeTempDir,
  requestJson,
  sharedDaemon,
  startDaemon,
  useDaemons,
} from './daemon.js';
import { type FuzzHealth, watchWhileFuzzing } from './watch-health.js';

/** Where the daemon keeps its state: LevelDB, the redis-server at a socket, or memory. */
export type TwinStore = 'level' | 'memory' | { redis: string };

/** A started daemon with a twin. */
export interface TwinDaemon {
  daemon: Daemon;
  /** The name holding the twin. */
  name: string;
  /** The root of the port serving the name (`http://127.0.0.1:PORT`). */
  root: string;
  /** The port of {@link root}. */
  port: string;
  /** Where mockpoint's API for the twin's name is: the daemon's URL, or its namespace's (`…/ns/team…`), for a client or `--url`. */
  api: string;
}

let names = 0;

/** The file's redis-server, from {@link useTwinRedis}. */
export interface TwinRedis {
  /** The redis-server, started on the first call (a file whose tests never ask starts none). */
  redis(): Promise<TestRedis>;
  /** The store a test of `kind` gives {@link twinDaemon}: LevelDB, or the file's redis-server. */
  store(kind: 'level' | 'redis'): Promise<TwinStore>;
}

/**
 * The hooks of a twin test file that runs on LevelDB and on Redis ({@link useDaemons}: the
 * processes of a test SIGKILLed after it) and the one redis-server its tests share, removed after
 * the last test once the daemons are gone. Call it once, at the top level of the file.
 */
export function useTwinRedis(): TwinRedis {
  useDaemons();
  let started: Promise<TestRedis> | undefined;
  // Registered after useDaemons' hooks, so it runs before the temp directories go.
  afterAll(async () => {
    const redis = await started?.catch(() => undefined);
    started = undefined;
    await redis?.dispose();
  });
  const redis = () => {
    started ??= startTestRedis();
    return started;
  };
  return {
    redis,
    store: async (kind) => (kind === 'level' ? 'level' : { redis: (await redis()).socket }),
  };
}

/** Where a state test's twin lives: a store, or a namespace (`team…`) of a daemon on the file's redis-server. */
export type TwinPlace = 'memory' | 'level' | 'redis' | 'namespace';

/** Every {@link TwinPlace}, for `describe.each`. */
export const TWIN_PLACES: readonly TwinPlace[] = ['memory', 'level', 'redis', 'namespace'];

/**
 * A twin of `provider` at `place` for a state test ({@link useTwinRedis}'s redis-server for
 * `redis` and `namespace`): `root` is where its SDK points, the root of a port of its own, or in a
 * namespace of its own `/ns/team…/endpoint/{name}` on the daemon's port (what a namespace's client reaches).
 */
export async function twinAt(
  provider: 'stripe' | 'github',
  place: TwinPlace,
  redis: TwinRedis,
  setting: { unseen?: 'missing' | 'examples' } = {},
): Promise<TwinDaemon> {
  if (place !== 'namespace') {
    return twinDaemon(provider, place === 'memory' ? 'memory' : await redis.store(place), setting);
  }
  return namespacedTwin(await startDaemon(await twinOptions(await redis.store('redis'), [])), provider, setting);
}

/**
 * One daemon at `place` that the tests of a describe share ({@link sharedTwinDaemon}; in a
 * namespace, each call a twin in a namespace of its own on one daemon on the file's redis-server);
 * call it in the describe, after {@link useTwinRedis}.
 */
export function sharedTwinAt(
  provider: 'stripe' | 'github',
  place: TwinPlace,
  redis: TwinRedis,
  count: number,
): (setting?: { unseen?: 'missing' | 'examples' }) => Promise<TwinDaemon> {
  if (place !== 'namespace') {
    return sharedTwinDaemon(provider, async () => (place === 'memory' ? 'memory' : redis.store(place)), count);
  }
  const daemon = sharedDaemon(async () => twinOptions(await redis.store('redis'), []));
  return async (setting = {}) => namespacedTwin(await daemon(), provider, setting);
}

/** Makes a namespace (`team…`) on `daemon` and a twin of `provider` at a new name in it. */
async function namespacedTwin(
  daemon: Daemon,
  provider: 'stripe' | 'github',
  setting: { unseen?: 'missing' | 'examples' },
): Promise<TwinDaemon> {
  const name = `${provider}${++names}`;
  const team = `team${names}`;
  const made = await requestJson(`${daemon.url}/api/namespaces`, { method: 'POST', body: { name: team } });
  expect(made.status).toBe(201);
  const api = `${daemon.url}/ns/${team}`;
  const twin = await requestJson(`${api}/api/endpoints/${name}/twin`, {
    method: 'PUT',
    body: { provider, ...setting },
  });
  expect(twin.status).toBe(200);
  return { daemon, name, root: `${api}/endpoint/${name}`, port: String(daemon.port), api };
}

/**
 * A fuzz test's start: a daemon in memory, its `/api/health` watched all through
 * ({@link watchWhileFuzzing}), and a twin of `provider` at `/endpoint/{name}`; `twin` is what
 * `PUT …/twin` answered (its profile).
 */
export async function fuzzedTwin(
  provider: 'stripe' | 'github',
  name: string = provider,
): Promise<{ daemon: Daemon; health: FuzzHealth; twin: Record<string, unknown> }> {
  const daemon = await startDaemon({ args: ['--memory'] });
  const health = await watchWhileFuzzing(daemon);
  const made = await requestJson(`${daemon.url}/api/endpoints/${name}/twin`, { method: 'PUT', body: { provider } });
  expect(made.status).toBe(200);
  return { daemon, health, twin: made.body as Record<string, unknown> };
}

/** How a daemon on `store` starts, serving `names` each at the root of a port of its own (`args` more of its arguments). */
async function twinOptions(
  store: TwinStore,
  names: readonly string[],
  args: readonly string[] = [],
): Promise<CliOptions> {
  const serve = [...names.flatMap((name) => ['--serve', `${name}=0`]), ...args];
  if (store === 'level') return { args: ['--data-dir', await makeTempDir(), ...serve] };
  if (store === 'memory') return { args: ['--memory', ...serve] };
  return { args: serve, env: { MOCKPOINT_REDIS_URL: store.redis } };
}

/** Makes a twin of `provider` at `name`, which `daemon` serves at a port of its own. */
async function makeTwin(
  daemon: Daemon,
  provider: 'stripe' | 'github',
  name: string,
  setting: { unseen?: 'missing' | 'examples' },
): Promise<TwinDaemon> {
  const note = daemon.notes.find((line) => line.startsWith(`${name} served at `));
  expect(note, daemon.startLine).toBeDefined();
  const root = (note as string).slice(`${name} served at `.length);
  const made = await requestJson(`${daemon.url}/api/endpoints/${name}/twin`, {
    method: 'PUT',
    body: { provider, ...setting },
  });
  expect(made.status).toBe(200);
  return { daemon, name, root, port: new URL(root).port, api: daemon.url };
}

/**
 * Starts the built daemon on `store` and makes a twin of `provider` at a new name, served at a port of its own (`args` more of its
 * arguments);
 * `unseen: 'examples'` answers what it never made from the document's examples (as stripe-mock).
 */
export async function twinDaemon(
  provider: 'stripe' | 'github',
  store: TwinStore,
  setting: { unseen?: 'missing' | 'examples' } = {},
  args: readonly string[] = [],
): Promise<TwinDaemon> {
  const name = `${provider}${++names}`;
  return makeTwin(await startDaemon(await twinOptions(store, [name], args)), provider, name, setting);
}

/**
 * One daemon on `store` that the tests of a describe share, serving `count` names each at a port of
 * its own: each call makes a twin of `provider` at the next of them, a name no other test used, so
 * what the twin holds is the test's own. Started on the first call (the store asked then, e.g. the
 * file's redis-server), SIGKILLed after the describe; call it in the describe, after
 * {@link useTwinRedis}.
 */
export function sharedTwinDaemon(
  provider: 'stripe' | 'github',
  store: () => Promise<TwinStore>,
  count: number,
): (setting?: { unseen?: 'missing' | 'examples' }) => Promise<TwinDaemon> {
  const served = Array.from({ length: count }, () => `${provider}${++names}`);
  let next = 0;
  const daemon = sharedDaemon(async () => twinOptions(await store(), served));
  return async (setting = {}) => {
    const name = served[next++];
    if (name === undefined) throw new Error(`sharedTwinDaemon serves ${count} names, all taken: give a larger count`);
    return makeTwin(await daemon(), provider, name, setting);
  };
}

/**
 * Webhook URLs a twin refuses when its endpoint or hook is made or changed, as its deliveries
 * would never reach them (#71 M5): other schemes, the metadata address, private addresses, no URL.
 */
export const UNREACHABLE_HOOK_URLS = [
  'file:///etc/passwd',
  'javascript:alert(1)',
  'gopher://127.0.0.1:70/x',
  'http://169.254.169.254/latest',
  'http://10.0.0.1/hook',
  'http://192.168.1.1/hook',
  'not a url',
];

/** One delivery a {@link hookReceiver} took. */
export interface Received {
  /** The path it was sent to (`/hooks`, or what the receiver's URL was given after it). */
  path: string;
  body: string;
  headers: IncomingHttpHeaders;
}

/** A receiver on 127.0.0.1 that keeps each delivery's body and headers and answers 200. */
export async function hookReceiver(): Promise<{
  url: string;
  received: Received[];
  /** Resolves once `count` deliveries have come. */
  until(count: number): Promise<void>;
  close(): Promise<void>;
}> {
  const received: Received[] = [];
  const waiters: (() => void)[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      received.push({ path: request.url ?? '', body, headers: request.headers });
      response.end('ok');
      for (const wake of waiters.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    async until(count) {
      while (received.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The keys every example of `@octokit/webhooks-examples` has for an event and action (for an
 * action it has no example of, `issues.closed`, those of the event's `opened`; none for an event
 * without actions, `ping`).
 */
export function exampleKeys(event: string, action?: string): string[] {
  const found = (examples as { name: string; examples: Record<string, unknown>[] }[]).find((e) => e.name === event);
  const of = (wanted: string | undefined) => (found?.examples ?? []).filter((example) => example.action === wanted);
  const payloads = of(action).length > 0 ? of(action) : of('opened');
  expect(payloads.length, `${event}.${action}`).toBeGreaterThan(0);
  // `installation` is an App's: a repository hook's deliveries never carry it.
  const keys = payloads.map((payload) => Object.keys(payload).filter((key) => key !== 'installation'));
  return (keys[0] ?? []).filter((key) => keys.every((some) => some.includes(key))).sort();
}

/** What {@link twinSender}'s `send` answers: the status, and the body's JSON (`{}` for none). */
export interface SentAnswer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * A JSON request to a twin at `root` with `headers` (a token, `content-type`): `send(method, path,
 * body?)` answers its status and parsed body, `{}` when it has none (a `204`).
 */
export function twinSender(
  root: string,
  headers: Record<string, string>,
): (method: string, path: string, body?: unknown) => Promise<SentAnswer> {
  return async (method, path, body) => {
    const answer = await fetch(`${root}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await answer.text();
    return { status: answer.status, body: (text === '' ? {} : JSON.parse(text)) as Record<string, unknown> };
  };
}
