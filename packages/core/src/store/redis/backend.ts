/**
 * `redisBackend()`: the {@link Backend} on Redis, shared by every replica that
 * opens it — records, journal, answer queue, deliveries, replay memory, collections and state alike,
 * and namespaces (`namespaces.ts`), each one's parts under a key prefix of its own.
 *
 * @module
 */

import { type Backend, type JournalBounds, storeHealth } from '../backend.js';
import { RedisStore, type RedisStoreOptions } from './index.js';
import { redisNamespaces } from './namespaces.js';

/** Options for {@link redisBackend}: the store's and the journal's bounds. */
export interface RedisBackendOptions extends RedisStoreOptions, JournalBounds {}

/** What the start-up line says of a Redis store: where it is, and whether it fsyncs every write. */
function describeRedis(store: RedisStore): string {
  const durability =
    store.durable === false
      ? ' - NOT durable: this Redis does not fsync every write (set appendonly yes, appendfsync always)'
      : store.durable === true
        ? ', appendfsync always'
        : '';
  return `redis at ${store.location}${durability}`;
}

/**
 * Connects to Redis and opens every part on it; the connection is closed again
 * when a part cannot be opened.
 * @throws MockpointError `STORE_UNAVAILABLE` when Redis cannot be reached in time.
 * @example createApp({ backend: await redisBackend({ url: 'redis://127.0.0.1:6379' }) })
 */
export async function redisBackend(options: RedisBackendOptions): Promise<Backend> {
  const store = await RedisStore.open(options);
  const backend = await partsOn(store, options);
  // Each namespace's parts: on this store's connections, under `<prefix>ns:<name>:`, with no namespaces of their own.
  const namespaces = redisNamespaces(store, async (keyPrefix) =>
    partsOn(await store.withKeyPrefix(keyPrefix), options),
  );
  return { ...backend, namespaces };
}

/** Every part on `store` (closed again when a part cannot be opened), without namespaces. */
async function partsOn(store: RedisStore, options: RedisBackendOptions): Promise<Backend> {
  try {
    return {
      kind: 'redis',
      store,
      // Replicas on one Redis share the journal too: a webhook to one is listed by, and wakes a long-poll on, every other.
      journal: store.openJournal({ size: options.journalSize, maxBytes: options.journalMaxBytes }),
      // …and the answer queue: each queued answer is given once, whichever replica a request reaches.
      queue: await store.openAnswerQueue(),
      // …and deliveries: pending retries outlive any replica, each attempt made by one of them.
      deliveries: store.openDeliveries(),
      // …and the webhook ids already seen, so a replay to another replica is told as one.
      replays: store.openReplayGuard(),
      // …and collections: a write on any replica is compare-and-set, so none is lost.
      collections: store.openCollections(),
      // …and state: a move checks and sets in one script, so two replicas never both move from one state.
      states: store.openStates(),
      // …and the clock: PUT /api/clock on one replica moves {{now}} on every other.
      clock: await store.openClock(),
      // …and the rate buckets: replicas together let a route's `limit` through per window.
      rateBuckets: store.openRateBuckets(),
      // …and the twins' turns: a twin's change runs on one replica at a time, under a renewed lease.
      turns: store.openTurns(),
      warnings: [],
      describe: () => describeRedis(store),
      health: () => storeHealth(store),
      close: () => store.close(),
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}
