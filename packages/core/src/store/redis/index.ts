/**
 * A shared {@link EndpointStore} on Redis (node-redis), so several mockpoint
 * daemons can serve the same endpoints. Node only: import it from
 * `@mockpoint/core/redis` so the main entry stays runtime-agnostic.
 *
 * Layout, under a key prefix (default `mockpoint:`): `<prefix>endpoints` is a
 * hash of name → record text (via the record codec) and `<prefix>names` a sorted
 * set of the names (all score 0, so ordered by bytes: code-unit order for the
 * ASCII names mockpoint allows). Every write is one Lua script, so it is atomic
 * across processes, and the script itself publishes the change on
 * `<prefix>changes` before Redis answers: by the time a write is acknowledged,
 * every other connected replica has been sent the invalidation.
 *
 * Namespaces (`namespaces.ts`): the registry is `<prefix>namespaces` and
 * `<prefix>namespaces:used`; each namespace's store is a `RedisStore` on this
 * one's two connections ({@link RedisStore.withKeyPrefix}) under
 * `<prefix>ns:<name>:`, a prefix no key or channel of this store starts with.
 *
 * @module
 */
import { createHash, randomUUID } from 'node:crypto';
import { ClientClosedError, ClientOfflineError, createClient, type RedisClientOptions } from '@redis/client';
import { decodeRoutes, type Route, routesJson } from '../../api/route.js';
import type { EndpointRecord, ListPage } from '../../api/schemas.js';
import { MockpointError } from '../../registry/errors.js';
import type { SettingKind, SettingValue, StoredSetting } from '../../settings/name-settings.js';
import { decodeSetting, encodeSetting, SETTING_KINDS, settingHash } from '../../settings/name-settings.js';
import { decodeRecord, encodeRecord } from '../record-codec.js';
import {
  type EndpointStore,
  inNameRange,
  type ListOptions,
  type RoutedName,
  type RouteNamesOptions,
  type RoutesUpdate,
  routeCount,
  type StoreChanges,
  type StoreHealth,
} from '../store.js';
import { RedisAnswerQueue, type RedisAnswerQueueOptions } from './answer-queue.js';
import { RedisClockStore } from './clock-store.js';
import { RedisCollectionStore } from './collection-store.js';
import { RedisDeliveryStore } from './delivery-store.js';
import { decodeRecorded, RedisJournal, type RedisJournalOptions } from './journal.js';
import { RedisNameLedger } from './name-ledger.js';
import { RedisNamespaceRegistry } from './namespace-registry.js';
import { NotSentError } from './not-sent.js';
import { RedisRateBuckets } from './rate-buckets.js';
import { RedisReplayGuard } from './replay-guard.js';
import { RedisStateStore } from './state-store.js';
import { RedisTurnLeases, type TurnLeaseTimes } from './turn-leases.js';

export { RedisAnswerQueue, type RedisAnswerQueueOptions } from './answer-queue.js';
export { type RedisBackendOptions, redisBackend } from './backend.js';
export { RedisJournal, type RedisJournalOptions } from './journal.js';

/** Options for {@link RedisStore.open}. */
export interface RedisStoreOptions {
  /**
   * Where Redis is: `redis://[user:password@]host[:port][/db]`, `rediss://…` (TLS),
   * or the path of a unix socket (`/run/redis.sock` or `unix:///run/redis.sock`).
   */
  url: string;
  /** Prefix of every key and of the change channel, so several setups can share one Redis. @default 'mockpoint:' */
  keyPrefix?: string;
  /** How long {@link RedisStore.open} waits for Redis before it fails. @default 5000 */
  connectTimeoutMs?: number;
  /**
   * Longest a store operation waits for Redis before it rejects with
   * `STORE_UNAVAILABLE` (a Redis that accepts connections but does not answer).
   * Once one has waited that long, Redis counts as stalled: health says `degraded`
   * and operations fail at once, without waiting again, until Redis answers.
   * @default 2000
   */
  operationTimeoutMs?: number;
  /** How often the store checks that Redis answers (and reads its clock), while connected. @default 1000 */
  heartbeatMs?: number;
  /** Wait between reconnection attempts while Redis is unreachable. @default 200 */
  reconnectDelayMs?: number;
}

type Client = ReturnType<typeof createClient>;

/** One record, if the name is free: the record, its name in the index, the change message. */
const CREATE = `
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then return 0 end
redis.call('ZADD', KEYS[2], 0, ARGV[1])
redis.call('PUBLISH', KEYS[3], ARGV[3])
return 1`;

/** Creates or replaces; returns 1 when it created. */
const PUT = `
local created = redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[2], 0, ARGV[1])
redis.call('PUBLISH', KEYS[3], ARGV[3])
return created`;

/**
 * Deletes the record, the routes and every setting (KEYS[6] on: the settings' hashes), and starts its
 * rate buckets full (rate-buckets.ts); returns 1 when any of them existed.
 */
const DELETE = `
local record = redis.call('HDEL', KEYS[1], ARGV[1])
local had = record + redis.call('HDEL', KEYS[4], ARGV[1])
for i = 6, #KEYS do had = had + redis.call('HDEL', KEYS[i], ARGV[1]) end
redis.call('DEL', KEYS[5] .. ':' .. ARGV[1])
redis.call('SREM', KEYS[5], ARGV[1])
if had == 0 then return 0 end
if record == 1 then redis.call('ZREM', KEYS[2], ARGV[1]) end
redis.call('PUBLISH', KEYS[3], ARGV[2])
return 1`;

/**
 * Replaces a name's route list if it is still the text the update was computed
 * from (compare-and-set), starting its rate buckets full; returns 0, writing nothing, when it changed meanwhile.
 */
const SET_ROUTES = `
local current = redis.call('HGET', KEYS[4], ARGV[1]) or ''
if current ~= ARGV[2] then return 0 end
if ARGV[3] == '' then redis.call('HDEL', KEYS[4], ARGV[1]) else redis.call('HSET', KEYS[4], ARGV[1], ARGV[3]) end
redis.call('DEL', KEYS[5] .. ':' .. ARGV[1])
redis.call('SREM', KEYS[5], ARGV[1])
redis.call('PUBLISH', KEYS[3], ARGV[4])
return 1`;

/**
 * Sets (ARGV[2] not empty) or removes a name's part in the part's hash KEYS[1] (a setting's
 * hash), publishing the change on KEYS[2]; returns 1 when it had one.
 */
const SET_PART = `
local had = redis.call('HEXISTS', KEYS[1], ARGV[1])
if ARGV[2] == '' then redis.call('HDEL', KEYS[1], ARGV[1]) else redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end
redis.call('PUBLISH', KEYS[2], ARGV[3])
return had`;

/** Removes every record, route list, setting and rate bucket. */
const CLEAR = `
for _, name in ipairs(redis.call('SMEMBERS', KEYS[5])) do redis.call('DEL', KEYS[5] .. ':' .. name) end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[4], KEYS[5])
for i = 6, #KEYS do redis.call('DEL', KEYS[i]) end
redis.call('PUBLISH', KEYS[3], ARGV[1])
return 1`;

/** One page: names in the lexical range, then their records, read at one instant. */
const LIST = `
local names = redis.call('ZRANGE', KEYS[2], ARGV[1], ARGV[2], 'BYLEX', 'LIMIT', 0, tonumber(ARGV[3]))
if #names == 0 then return {} end
local values = redis.call('HMGET', KEYS[1], unpack(names))
local out = {}
for i = 1, #names do out[i] = values[i] end
return out`;

/**
 * The names with routes in a range, sorted, each with its route list and
 * whether it has a record. ARGV: after ('' for none), prefix, limit (-1: all).
 * Returns {name, routes text, 1 or 0, …}.
 */
const ROUTE_NAMES = `
local picked = {}
for _, name in ipairs(redis.call('HKEYS', KEYS[4])) do
  if (ARGV[1] == '' or name > ARGV[1]) and string.sub(name, 1, #ARGV[2]) == ARGV[2] then table.insert(picked, name) end
end
table.sort(picked)
local limit = tonumber(ARGV[3])
local out = {}
for i, name in ipairs(picked) do
  if limit >= 0 and i > limit then break end
  table.insert(out, name)
  table.insert(out, redis.call('HGET', KEYS[4], name))
  table.insert(out, redis.call('HEXISTS', KEYS[1], name))
end
return out`;

/**
 * One step of removing every key that matches a pattern: SCAN from cursor ARGV[1] with MATCH
 * ARGV[2] and COUNT ARGV[3], UNLINK what it found; returns the next cursor ('0': done).
 */
const DROP_STEP = `
local reply = redis.call('SCAN', ARGV[1], 'MATCH', ARGV[2], 'COUNT', tonumber(ARGV[3]))
local keys = reply[2]
if #keys > 0 then redis.call('UNLINK', unpack(keys)) end
return reply[1]`;

/** How many keys one {@link DROP_STEP} looks at. */
const DROP_BATCH = 500;

/** `text` as a Redis glob pattern that matches only itself. */
function globLiteral(text: string): string {
  return text.replace(/[\\*?[\]]/g, '\\$&');
}

/** SHA1 of each script, computed once. */
const scriptShas = new Map<string, string>();

/** Where to connect, and how to show it without a password. */
function connection(url: string): { options: RedisClientOptions; shown: string } {
  if (url.startsWith('/') || url.startsWith('unix://')) {
    const path = url.startsWith('unix://') ? url.slice('unix://'.length) : url;
    return { options: { socket: { path, tls: false } }, shown: `unix:${path}` };
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new MockpointError(
      'STORE_UNAVAILABLE',
      `"${url}" is not a Redis URL (redis://host:port/db, rediss://…, or a unix socket path)`,
    );
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new MockpointError(
      'STORE_UNAVAILABLE',
      `"${parsed.protocol}" is not a Redis URL scheme (use redis://, rediss:// or a unix socket path)`,
    );
  }
  if (parsed.password !== '') parsed.password = '***';
  return { options: { url }, shown: parsed.toString() };
}

/** A store's keys under its prefix, by what each holds. */
interface StoreKeys {
  /** The records: a hash of name → record text. */
  records: string;
  /** The names with records: a sorted set, all score 0. */
  names: string;
  /** The change channel. */
  channel: string;
  /** The route lists: a hash of name → routes text. */
  routes: string;
  /** The names with rate buckets: a set (each name's buckets at `<rates>:<name>`; rate-buckets.ts). */
  rates: string;
  /** Each setting's hash of name → stored text (settings/name-settings.ts). */
  settings: Record<SettingKind, string>;
  /**
   * The KEYS of every script of this store: records, names, channel, routes, rates (KEYS[1–5]), then
   * every setting's hash (KEYS[6] on), so a script reaches every setting without naming one.
   */
  script: string[];
}

/** The keys of a store under `prefix`: the same as every earlier version's, so existing data loads. */
function storeKeys(prefix: string): StoreKeys {
  const settings = Object.fromEntries(SETTING_KINDS.map((kind) => [kind, settingHash(kind, prefix)])) as Record<
    SettingKind,
    string
  >;
  const fixed = {
    records: `${prefix}endpoints`,
    names: `${prefix}names`,
    channel: `${prefix}changes`,
    routes: `${prefix}routes`,
    rates: `${prefix}rates`,
  };
  const script = [fixed.records, fixed.names, fixed.channel, fixed.routes, fixed.rates];
  return { ...fixed, settings, script: [...script, ...SETTING_KINDS.map((kind) => settings[kind])] };
}

/** The exclusive upper bound of names starting with `prefix` (ASCII names). */
function prefixEnd(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

/** The shared store: atomic across processes, changes published to every replica. */
export class RedisStore implements EndpointStore {
  readonly kind = 'redis';
  /** Where Redis is, with any password masked. */
  readonly location: string;
  /**
   * Whether Redis said it fsyncs every write (`appendonly yes`, `appendfsync always`);
   * `undefined` when it would not say (CONFIG disabled).
   */
  readonly durable: boolean | undefined;
  readonly changes: StoreChanges;
  readonly #client: Client;
  readonly #subscriber: Client;
  /** This store's keys, by what they hold (see {@link storeKeys}). */
  readonly #keys: StoreKeys;
  readonly #channel: string;
  /** Tags this process's change messages, so it skips its own. */
  readonly #origin = randomUUID();
  readonly #timeoutMs: number;
  readonly #listeners = new Set<(name: string | undefined) => void>();
  readonly #recordedListeners = new Set<(id: number, name: string) => void>();
  /** Called each time the subscription is up again after a drop. */
  readonly #liveListeners = new Set<() => void>();
  /** The answer queues opened on this store: closed with it (their settling stops). */
  readonly #queues = new Set<RedisAnswerQueue>();
  readonly #prefix: string;
  /**
   * The store whose connections this one uses (`withKeyPrefix`): it runs this store's
   * operations and follows the connections' state; `undefined` for a store that opened its own.
   */
  readonly #root: RedisStore | undefined;
  /** The stores opened on this store's connections, still open. */
  readonly #children = new Set<RedisStore>();
  /** What this store subscribed on the subscriber connection, to unsubscribe when it closes. */
  readonly #subscriptions: Array<[channel: string, listener: (message: string) => void]> = [];
  /** Closed stores' subscriptions not confirmed gone: tried again when the subscriber is ready. */
  readonly #unsubscribeLater: Array<[channel: string, listener: (message: string) => void]> = [];
  #live = true;
  #lastError: string | undefined;
  #closed = false;
  /** Since when Redis has not answered an operation or a heartbeat in time (it is connected, but stalled). */
  #stalledSince: number | undefined;
  #stallReason = '';
  #heartbeat: ReturnType<typeof setInterval> | undefined;
  #beating = false;
  /** Redis's clock minus ours (ms), from the last heartbeat that came back quickly; `undefined` until one did. */
  #clockOffsetMs: number | undefined;

  private constructor(
    client: Client,
    subscriber: Client,
    options: Pick<RedisStoreOptions, 'keyPrefix' | 'operationTimeoutMs' | 'heartbeatMs'>,
    location: string,
    durable: boolean | undefined,
    root?: RedisStore,
  ) {
    this.#root = root;
    this.#client = client;
    this.#subscriber = subscriber;
    this.location = location;
    this.durable = durable;
    const prefix = options.keyPrefix ?? 'mockpoint:';
    this.#prefix = prefix;
    this.#channel = `${prefix}changes`;
    this.#keys = storeKeys(prefix);
    this.#timeoutMs = options.operationTimeoutMs ?? 2000;
    if (root === undefined) {
      this.#heartbeat = setInterval(() => void this.#beat(), options.heartbeatMs ?? 1000);
      this.#heartbeat.unref?.();
    }
    const store = this;
    this.changes = {
      get live() {
        const connections = store.#root ?? store;
        return connections.#live && !connections.#closed && !store.#closed;
      },
      subscribe(listener) {
        store.#listeners.add(listener);
        return () => store.#listeners.delete(listener);
      },
    };
  }

  /**
   * Connects (a command connection and a subscriber for changes) and checks Redis answers.
   * @throws MockpointError `STORE_UNAVAILABLE` when Redis cannot be reached within `connectTimeoutMs`.
   * @example const store = await RedisStore.open({ url: 'redis://127.0.0.1:6379' })
   */
  static async open(options: RedisStoreOptions): Promise<RedisStore> {
    const { options: target, shown } = connection(options.url);
    const connectTimeoutMs = options.connectTimeoutMs ?? 5000;
    const reconnectDelayMs = options.reconnectDelayMs ?? 200;
    const clientOptions: RedisClientOptions = {
      ...target,
      // Fail at once while disconnected instead of queueing: a write is answered 503, never held.
      disableOfflineQueue: true,
      pingInterval: 1000,
      socket: {
        ...target.socket,
        connectTimeout: Math.min(connectTimeoutMs, 2000),
        reconnectStrategy: () => reconnectDelayMs,
      } as RedisClientOptions['socket'],
    };
    let lastError = 'no answer';
    const client = createClient(clientOptions);
    const subscriber = createClient(clientOptions);
    // node-redis emits connection errors as events; without listeners they would crash the process.
    const onError = (error: Error) => {
      lastError = error.message || String(error);
    };
    client.on('error', onError);
    subscriber.on('error', onError);

    let store: RedisStore | undefined;
    const ready = (async () => {
      await Promise.all([client.connect(), subscriber.connect()]);
      const durable = await readDurability(client);
      store = new RedisStore(client as Client, subscriber as Client, options, shown, durable);
      store.#follow();
      await store.#subscribeChannels();
      await store.#beat();
      return store;
    })();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new MockpointError(
              'STORE_UNAVAILABLE',
              `cannot reach Redis at ${shown} within ${connectTimeoutMs} ms: ${lastError}`,
            ),
          ),
        connectTimeoutMs,
      );
    });
    try {
      return await Promise.race([ready, deadline]);
    } catch (error) {
      ready.catch(() => undefined);
      if (store) clearInterval(store.#heartbeat);
      client.destroy();
      subscriber.destroy();
      if (error instanceof MockpointError) throw error;
      throw new MockpointError('STORE_UNAVAILABLE', `cannot use Redis at ${shown}: ${(error as Error).message}`, {
        cause: error,
      });
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * A store under another key prefix (a namespace's, `<prefix>ns:<name>:`) on this
   * store's connections: no connection of its own, its operations bounded and its
   * health as this store's. Closing it unsubscribes its channels and closes its
   * parts, never the connections; closing this store closes it too.
   * @example const inner = await store.withKeyPrefix('mockpoint:ns:team-a:')
   */
  async withKeyPrefix(keyPrefix: string): Promise<RedisStore> {
    const root = this.#root ?? this;
    if (root.#closed) throw new NotSentError('the Redis store is closed');
    const store = new RedisStore(
      root.#client,
      root.#subscriber,
      { keyPrefix, operationTimeoutMs: root.#timeoutMs },
      root.location,
      root.durable,
      root,
    );
    root.#children.add(store);
    try {
      await store.#subscribeChannels();
    } catch (error) {
      await store.close();
      throw error;
    }
    return store;
  }

  async get(name: string): Promise<EndpointRecord | undefined> {
    const text = await this.#call((signal) => this.#client.withAbortSignal(signal).hGet(this.#keys.records, name));
    return text === null || text === undefined ? undefined : decodeRecord(String(text));
  }

  async create(record: EndpointRecord): Promise<boolean> {
    const reply = await this.#eval(CREATE, [record.name, encodeRecord(record), this.#message(record.name)]);
    return reply === 1;
  }

  async put(record: EndpointRecord): Promise<{ created: boolean }> {
    const reply = await this.#eval(PUT, [record.name, encodeRecord(record), this.#message(record.name)]);
    return { created: reply === 1 };
  }

  async delete(name: string): Promise<boolean> {
    return (await this.#eval(DELETE, [name, this.#message(name)])) === 1;
  }

  async getRoutes(name: string): Promise<Route[]> {
    const text = await this.#routesText(name);
    return text === '' ? [] : decodeRoutes(text);
  }

  async updateRoutes(name: string, update: RoutesUpdate): Promise<Route[]> {
    // Optimistic: computed from the text read, written only if that text still stands.
    // Bounded: each retry means another process's update landed in between.
    for (let attempt = 0; attempt < 100; attempt++) {
      const text = await this.#routesText(name);
      const next = update(text === '' ? [] : decodeRoutes(text));
      const written = next.length === 0 ? '' : routesJson(next);
      if ((await this.#eval(SET_ROUTES, [name, text, written, this.#message(name)])) === 1) return next;
    }
    throw new MockpointError('STORE_UNAVAILABLE', `the routes of "${name}" kept changing under this update; retry`);
  }

  async #routesText(name: string): Promise<string> {
    return (await this.#partText(this.#keys.routes, name)) ?? '';
  }

  async getSetting<K extends SettingKind>(kind: K, name: string): Promise<StoredSetting<K> | undefined> {
    const text = await this.#partText(this.#keys.settings[kind], name);
    return text === undefined ? undefined : decodeSetting(kind, text);
  }

  async setSetting<K extends SettingKind>(kind: K, name: string, value: SettingValue<K> | undefined): Promise<boolean> {
    // A stored value is never empty text (a schema, a JSON text), so '' can mean "remove".
    return this.#setPart(this.#keys.settings[kind], name, encodeSetting(kind, value) ?? '');
  }

  async settingNames(kind: SettingKind, options: RouteNamesOptions = {}): Promise<string[]> {
    return this.#namesOf(this.#keys.settings[kind], options);
  }

  async list({ limit, after, prefix = '' }: ListOptions): Promise<ListPage> {
    let min = after === undefined ? '-' : `(${after}`;
    if (prefix !== '' && (after === undefined || after < prefix)) min = `[${prefix}`;
    const max = prefix === '' ? '+' : `(${prefixEnd(prefix)}`;
    const values = (await this.#eval(LIST, [min, max, String(limit + 1)])) as unknown[];
    const page = values.slice(0, limit).map((value) => decodeRecord(String(value)));
    return { endpoints: page, next: values.length > limit ? (page.at(-1)?.name ?? null) : null };
  }

  async routeNames(options: RouteNamesOptions = {}): Promise<RoutedName[]> {
    const reply = (await this.#eval(ROUTE_NAMES, [
      options.after ?? '',
      options.prefix ?? '',
      String(options.limit ?? -1),
    ])) as unknown[];
    const out: RoutedName[] = [];
    for (let i = 0; i + 2 < reply.length; i += 3) {
      out.push({
        name: String(reply[i]),
        routes: routeCount(String(reply[i + 1])),
        record: Number(reply[i + 2]) === 1,
      });
    }
    return out;
  }

  /** A name's part in the part's hash `hash` (its routes, a setting), as stored. */
  async #partText(hash: string, name: string): Promise<string | undefined> {
    const text = await this.#call((signal) => this.#client.withAbortSignal(signal).hGet(hash, name));
    return text === null || text === undefined ? undefined : String(text);
  }

  /** Sets (`text` not empty) or removes a name's part in `hash`, telling the other replicas; whether it had one. */
  async #setPart(hash: string, name: string, text: string): Promise<boolean> {
    return (await this.#script(SET_PART, [hash, this.#channel], [name, text, this.#message(name)])) === 1;
  }

  /**
   * The names that hold a part in `hash` (a setting), in the range of `options`. Such names are
   * few (each one a whole API, a map of real hosts, a check): the hash's keys, filtered and sorted here.
   */
  async #namesOf(hash: string, options: RouteNamesOptions): Promise<string[]> {
    const keys = await this.#call((signal) => this.#client.withAbortSignal(signal).hKeys(hash));
    const names = keys
      .map(String)
      .filter((name) => inNameRange(name, options))
      .sort();
    return names.slice(0, options.limit);
  }

  async count({ prefix = '' }: { prefix?: string } = {}): Promise<number> {
    const key = this.#keys.names;
    return this.#call((signal) =>
      prefix === ''
        ? this.#client.withAbortSignal(signal).zCard(key)
        : this.#client.withAbortSignal(signal).zLexCount(key, `[${prefix}`, `(${prefixEnd(prefix)}`),
    );
  }

  async clear(): Promise<void> {
    await this.#eval(CLEAR, [this.#message(undefined)]);
  }

  /** The names held, counted for a cap in Redis: one claim is one script, across replicas (name-ledger.ts). */
  nameLedger(): RedisNameLedger {
    const { records, routes, settings } = this.#keys;
    return new RedisNameLedger({ eval: (script, keys, args) => this.#script(script, keys, args) }, this.#prefix, {
      sets: [`${this.#prefix}collections`, `${this.#prefix}state`],
      hashes: [records, routes, ...SETTING_KINDS.map((kind) => settings[kind])],
    });
  }

  /**
   * The request journal shared by every replica on this Redis, on this store's
   * connections (bounds as the memory journal's).
   * @example createApp({ store, journal: store.openJournal({ size: 100 }) })
   */
  openJournal(options: Omit<RedisJournalOptions, 'keyPrefix'> = {}): RedisJournal {
    return new RedisJournal(
      {
        eval: (script, keys, args) => this.#script(script, keys, args),
        onRecorded: (listener) => {
          this.#recordedListeners.add(listener);
        },
        onLive: (listener) => {
          this.#liveListeners.add(listener);
        },
        newId: () => randomUUID(),
      },
      { ...options, keyPrefix: this.#prefix },
    );
  }

  /**
   * The memory of webhook delivery ids shared by every replica on this Redis, so a
   * signed delivery replayed to another replica is `replayed` too. Ids expire
   * with their check's tolerance.
   * @example createApp({ store, replays: store.openReplayGuard() })
   */
  openReplayGuard(): RedisReplayGuard {
    return new RedisReplayGuard(this.#prefix, async (key, ttlSec) => {
      const reply = await this.#call((signal) =>
        this.#client
          .withAbortSignal(signal)
          .set(key, '1', { condition: 'NX', expiration: { type: 'EX', value: ttlSec } }),
      );
      return reply !== null;
    });
  }

  /**
   * The answer queue shared by every replica on this Redis (`/api/endpoints/{name}/queue`),
   * on this store's connections: each queued answer is given exactly once, whichever
   * replica a request reaches.
   * @example createApp({ store, queue: await store.openAnswerQueue() })
   */
  async openAnswerQueue(options: Omit<RedisAnswerQueueOptions, 'keyPrefix'> = {}): Promise<RedisAnswerQueue> {
    const store = this;
    const queue = new RedisAnswerQueue(
      {
        eval: (script, keys, args) => this.#script(script, keys, args),
        deadline: () => this.#deadline(),
        publish: (channel, message) => this.#call(() => this.#client.publish(channel, message)),
        subscribe: (channel, listener) => this.#subscribe(channel, listener),
        get live() {
          return store.changes.live;
        },
        onLive: (listener) => {
          this.#liveListeners.add(listener);
        },
        origin: this.#origin,
      },
      { ...options, keyPrefix: this.#prefix },
    );
    this.#queues.add(queue);
    await queue.start();
    return queue;
  }

  /**
   * Outgoing deliveries shared by every replica on this Redis: each attempt is
   * claimed, and made, by one of them; pending retries outlive any replica.
   * @example createApp({ store, deliveries: store.openDeliveries() })
   */
  openDeliveries(): RedisDeliveryStore {
    return new RedisDeliveryStore(
      { eval: (script, keys, args) => this.#script(script, keys, args) },
      { keyPrefix: this.#prefix },
    );
  }

  /**
   * The collections of every endpoint, shared by every replica on this Redis:
   * a change is compare-and-set, so writers on any replicas never lose an item.
   * @example createApp({ backend: { ...backend, collections: store.openCollections() } })
   */
  openCollections(): RedisCollectionStore {
    return new RedisCollectionStore({ eval: (script, keys, args) => this.#script(script, keys, args) }, this.#prefix);
  }

  /**
   * The state machines (scenarios) of every endpoint, shared by every replica on
   * this Redis: a move checks and sets in one script, so of two moves from one
   * state, on any replicas, only one lands.
   * @example createApp({ backend: { ...backend, states: store.openStates() } })
   */
  openStates(): RedisStateStore {
    return new RedisStateStore({ eval: (script, keys, args) => this.#script(script, keys, args) }, this.#prefix);
  }

  /**
   * The app's clock shared by every replica on this Redis (clock/shared-clock.ts):
   * a change on one is sent to every other before it is acknowledged.
   * @example new ClockSync(clock, await store.openClock())
   */
  async openClock(): Promise<RedisClockStore> {
    const clock = new RedisClockStore(
      {
        eval: (script, keys, args) => this.#script(script, keys, args),
        get: async (key) => {
          const text = await this.#call((signal) => this.#client.withAbortSignal(signal).get(key));
          return text === null || text === undefined ? undefined : String(text);
        },
        subscribe: (channel, listener) => this.#subscribe(channel, listener),
        onLive: (listener) => {
          this.#liveListeners.add(listener);
        },
      },
      this.#prefix,
    );
    await clock.start();
    return clock;
  }

  /**
   * Routes' rate buckets counted in Redis, so replicas together let `limit` through per window
   * (rate-buckets.ts); this store's writes of routes, deletes and clears start them full.
   * @example createApp({ backend: { ...backend, rateBuckets: store.openRateBuckets() } })
   */
  openRateBuckets(): RedisRateBuckets {
    return new RedisRateBuckets((script, keys, args) => this.#script(script, keys, args), this.#prefix);
  }

  /**
   * Turns taken in Redis (turn-leases.ts), so a step for a key runs on one replica at a time:
   * a twin's changes. A turn whose replica died is free again after its lease.
   * @example createApp({ backend: { ...backend, turns: store.openTurns() } })
   */
  openTurns(times: TurnLeaseTimes = {}): RedisTurnLeases {
    return new RedisTurnLeases({ eval: (script, keys, args) => this.#script(script, keys, args) }, this.#prefix, times);
  }

  /** The prefix of every key and channel of this store (`mockpoint:` unless set). */
  get keyPrefix(): string {
    return this.#prefix;
  }

  /**
   * The namespace registry (`namespaces.ts`) shared by every replica on this Redis,
   * under this store's key prefix.
   */
  openNamespaceRegistry(): RedisNamespaceRegistry {
    return new RedisNamespaceRegistry({ eval: (script, keys, args) => this.#script(script, keys, args) }, this.#prefix);
  }

  /**
   * Removes every key that starts with `keyPrefix` (SCAN and UNLINK, {@link DROP_BATCH}
   * keys looked at a step), then tells every store opened with that prefix, on any
   * replica, that all of its names changed. For a namespace's prefix, never this store's own.
   */
  async dropKeys(keyPrefix: string): Promise<void> {
    const pattern = `${globLiteral(keyPrefix)}*`;
    let cursor = '0';
    do {
      cursor = String(await this.#script(DROP_STEP, [], [cursor, pattern, String(DROP_BATCH)]));
    } while (cursor !== '0');
    const message = this.#message(undefined);
    await this.#call(() => this.#client.publish(`${keyPrefix}changes`, message));
  }

  health(): StoreHealth {
    if (this.#closed) return { status: 'unavailable', reason: 'the Redis store is closed' };
    if (this.#root !== undefined) return this.#root.health();
    if (!this.#client.isReady || !this.#subscriber.isReady) {
      return {
        status: 'unavailable',
        reason: `cannot reach Redis at ${this.location} (${this.#lastError ?? 'disconnected'}); reconnecting`,
      };
    }
    if (this.#stalledSince !== undefined) return { status: 'degraded', reason: this.#stalled() };
    if (this.durable === false) {
      return {
        status: 'degraded',
        reason: `Redis at ${this.location} does not fsync every write: acknowledged writes can be lost if Redis crashes (set appendonly yes and appendfsync always)`,
      };
    }
    return { status: 'ok' };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#heartbeat);
    this.#listeners.clear();
    this.#recordedListeners.clear();
    this.#liveListeners.clear();
    for (const queue of this.#queues) void queue.close();
    this.#queues.clear();
    for (const child of [...this.#children]) await child.close();
    if (this.#root === undefined) {
      this.#client.destroy();
      this.#subscriber.destroy();
      return;
    }
    this.#root.#children.delete(this);
    // The connections stay (they are the root's): only what this store subscribed goes.
    if (!this.#root.#closed) await this.#root.#unsubscribe(this.#subscriptions.splice(0));
  }

  /**
   * Unsubscribes listeners of a closed store, waiting at most the operation timeout: those not
   * confirmed by then (Redis down or stalled) are tried again each time the subscriber is ready,
   * so the channels do not stay subscribed (a queue's push would wait for this connection's
   * confirmation, which a closed store never sends). Unsubscribing one already gone is harmless.
   */
  async #unsubscribe(subscriptions: Array<[string, (message: string) => void]>): Promise<void> {
    const confirmed = new Set<number>();
    const all = Promise.all(
      subscriptions.map(([channel, listener], i) =>
        this.#subscriber.unsubscribe(channel, listener).then(
          () => confirmed.add(i),
          () => undefined,
        ),
      ),
    );
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.#timeoutMs);
      timer.unref?.();
    });
    await Promise.race([all, waited]);
    clearTimeout(timer);
    for (const [i, subscription] of subscriptions.entries()) {
      if (!confirmed.has(i)) this.#unsubscribeLater.push(subscription);
    }
  }

  /** `<origin> <name>`, or `<origin> *` for every name. */
  #message(name: string | undefined): string {
    return `${this.#origin} ${name === undefined ? '*' : `=${name}`}`;
  }

  #emit(name: string | undefined): void {
    for (const listener of this.#listeners) listener(name);
  }

  /** This store and those opened on its connections. */
  #sharing(): RedisStore[] {
    return [this, ...this.#children];
  }

  /** Follows both connections' state, for this store and every store opened on its connections. */
  #follow(): void {
    const down = (error?: Error) => {
      if (error) this.#lastError = error.message || String(error);
      if (this.#live) {
        // Changes may be missed from now on: nothing cached may be trusted.
        this.#live = false;
        for (const store of this.#sharing()) store.#emit(undefined);
      }
    };
    this.#client.on('error', down);
    this.#subscriber.on('error', down);
    this.#subscriber.on('reconnecting', () => down());
    this.#subscriber.on('end', () => down());
    this.#subscriber.on('ready', () => {
      // node-redis resubscribes before it is ready again.
      if (this.#unsubscribeLater.length > 0) void this.#unsubscribe(this.#unsubscribeLater.splice(0));
      if (!this.#live) {
        this.#live = true;
        this.#lastError = undefined;
        for (const store of this.#sharing()) {
          store.#emit(undefined);
          for (const listener of store.#liveListeners) listener();
        }
      }
    });
    this.#client.on('ready', () => {
      // Connected anew: Redis answered the handshake.
      this.#lastError = undefined;
      this.#stalledSince = undefined;
    });
  }

  /** Subscribes `listener` to `channel` on the subscriber connection, until this store closes. */
  async #subscribe(channel: string, listener: (message: string) => void): Promise<void> {
    const guarded = (message: string) => {
      if (!this.#closed) listener(message);
    };
    this.#subscriptions.push([channel, guarded]);
    // The root's subscriptions are bounded by its open's deadline; a later store's by the operation timeout.
    if (this.#root === undefined) await this.#subscriber.subscribe(channel, guarded);
    else await this.#root.#call(() => this.#subscriber.subscribe(channel, guarded));
  }

  /** Subscribes to this store's change and journal channels. */
  async #subscribeChannels(): Promise<void> {
    await this.#subscribe(this.#channel, (message: string) => {
      const space = message.indexOf(' ');
      if (message.slice(0, space) === this.#origin) return;
      const what = message.slice(space + 1);
      this.#emit(what === '*' ? undefined : what.slice(1));
    });
    await this.#subscribe(`${this.#prefix}journal:recorded`, (message: string) => {
      if (this.#recordedListeners.size === 0) return;
      for (const [id, name] of decodeRecorded(message)) {
        for (const listener of this.#recordedListeners) listener(id, name);
      }
    });
  }

  /** Runs one of this store's scripts: its KEYS are {@link StoreKeys.script}. */
  #eval(script: string, args: string[]): Promise<unknown> {
    return this.#script(script, this.#keys.script, args);
  }

  /** Runs a script by its SHA1 (EVALSHA), sending its text only when Redis does not have it yet. */
  #script(script: string, keys: string[], args: string[]): Promise<unknown> {
    let sha = scriptShas.get(script);
    if (sha === undefined) {
      sha = createHash('sha1').update(script).digest('hex');
      scriptShas.set(script, sha);
    }
    const digest = sha;
    return this.#call(async (signal) => {
      const client = this.#client.withAbortSignal(signal);
      try {
        return await client.evalSha(digest, { keys, arguments: args });
      } catch (error) {
        if (!String((error as Error).message).startsWith('NOSCRIPT')) throw error;
        return client.eval(script, { keys, arguments: args });
      }
    });
  }

  /**
   * The time on Redis's clock (ms since the epoch) by which a script that starts
   * now must have run for its answer to reach us before {@link #call} gives up:
   * the operation timeout less a margin for the answer's way back. `undefined`
   * while Redis's clock is not known.
   */
  #deadline(): number | undefined {
    if (this.#root !== undefined) return this.#root.#deadline();
    if (this.#clockOffsetMs === undefined) return undefined;
    const margin = Math.min(500, this.#timeoutMs / 4);
    return Math.floor(Date.now() + this.#clockOffsetMs + this.#timeoutMs - margin);
  }

  /** What health and refused operations say while Redis is stalled. */
  #stalled(): string {
    const seconds = ((Date.now() - (this.#stalledSince ?? Date.now())) / 1000).toFixed(1);
    return `Redis at ${this.location} is connected but has not answered for ${seconds} s (${this.#stallReason}); operations fail at once until it answers again`;
  }

  #stall(reason: string): void {
    if (this.#stalledSince !== undefined || this.#closed) return;
    this.#stalledSince = Date.now();
    this.#stallReason = reason;
    void this.#beat();
  }

  /**
   * Asks Redis for its clock (TIME), bounded by the operation timeout: no answer
   * in time marks Redis as stalled; the answer, whenever it comes, ends the stall
   * and, when it came quickly, tells how far Redis's clock is from ours.
   */
  async #beat(): Promise<void> {
    if (this.#beating || this.#closed || !this.#client.isReady) return;
    this.#beating = true;
    const sentAt = Date.now();
    const timer = setTimeout(
      () => this.#stall(`no answer to a heartbeat within ${this.#timeoutMs} ms`),
      this.#timeoutMs,
    );
    timer.unref?.();
    try {
      const [seconds, micros] = (await this.#client.sendCommand(['TIME'])) as [string, string];
      const receivedAt = Date.now();
      if (this.#clockOffsetMs === undefined || receivedAt - sentAt <= 100) {
        this.#clockOffsetMs = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000) - (sentAt + receivedAt) / 2;
      }
      this.#stalledSince = undefined;
    } catch {
      // disconnected: the connection's own state says so
    } finally {
      clearTimeout(timer);
      this.#beating = false;
    }
  }

  /**
   * Runs one Redis operation, bounded by the operation timeout; every failure is
   * `STORE_UNAVAILABLE`. A write that timed out may still have landed: it was not
   * acknowledged, so the caller answers 503 and the client may retry.
   */
  async #call<T>(operation: (signal: AbortSignal) => Promise<T>): Promise<T> {
    // Refused before sending (NotSentError): the operation never runs, there is nothing to undo.
    if (this.#closed) throw new NotSentError('the Redis store is closed');
    // A store on another's connections: that one bounds the operation and knows whether Redis is stalled.
    if (this.#root !== undefined) return this.#root.#call(operation);
    // A stalled Redis is not sent more work that would run whenever it wakes up, long after we gave up.
    if (this.#stalledSince !== undefined) {
      void this.#beat(); // its answer, whenever it comes, ends the stall
      throw new NotSentError(this.#stalled());
    }
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new Error(`no answer within ${this.#timeoutMs} ms`));
      }, this.#timeoutMs);
    });
    const running = operation(controller.signal);
    try {
      const result = await Promise.race([running, deadline]);
      this.#stalledSince = undefined;
      return result;
    } catch (error) {
      const timedOut = controller.signal.aborted;
      if (timedOut && this.#client.isReady) this.#stall(`an operation got no answer within ${this.#timeoutMs} ms`);
      // A command already sent still runs when Redis answers: a caller that must undo it
      // does so by what the command itself wrote (the answer queue settles a take by its id).
      running.catch(() => undefined);
      const reason = this.#client.isReady
        ? (error as Error).message
        : `not connected (${this.#lastError ?? (error as Error).message})`;
      const message = `Redis at ${this.location} is unavailable: ${reason}`;
      // The client refuses a command while it is not connected without queueing it (disableOfflineQueue).
      if (error instanceof ClientOfflineError || error instanceof ClientClosedError)
        throw new NotSentError(message, error);
      throw new MockpointError('STORE_UNAVAILABLE', message, { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Whether Redis fsyncs every write before it answers; `undefined` when it will not say. */
async function readDurability(client: Client): Promise<boolean | undefined> {
  try {
    const config = (await client.configGet('append*')) as Record<string, string>;
    if (config.appendonly === undefined) return undefined;
    return config.appendonly === 'yes' && config.appendfsync === 'always';
  } catch {
    return undefined;
  }
}
