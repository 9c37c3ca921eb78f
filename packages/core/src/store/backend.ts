/**
 * The backend: one object that owns every part of the shared state — endpoint
 * records (with their routes and signature checks), the request journal, the
 * answer queue, outgoing deliveries and the memory of webhook ids seen — so
 * that `createApp({ backend })` and the daemon never ask which implementation
 * they hold. Each implementation has one factory, beside it: `memoryBackend()`
 * in `memory/backend.ts`, `levelBackend()` in `@mockpoint/core/level`, `redisBackend()` in
 * `@mockpoint/core/redis` (entries that only Node loads).
 *
 * @module
 */

import type { SharedClockStore } from '../clock/shared-clock.js';
import type { CollectionStore } from '../collections/collection-store.js';
import type { Journal } from '../journal/journal.js';
import type { AnswerQueue } from '../queue/answer-queue.js';
import type { LimitOptions } from '../registry/limits.js';
import type { StateStore } from '../state/state-store.js';
import type { SharedTurns } from '../turns/shared-turns.js';
import type { DeliveryStore } from '../webhook/delivery-store.js';
import type { ReplayGuard } from '../webhook/replay-guard.js';
import type { BackendNamespaces } from './namespaces.js';
import type { EndpointStore, StoreHealth } from './store.js';

/** The parts of the shared state, each with its contract suite (`*.case.test.ts`). */
export interface BackendParts {
  /**
   * Endpoint records, their routes and signature checks.
   * @default new MemoryStore()
   * @example createApp({ store: new MemoryStore() })
   */
  store: EndpointStore;
  /**
   * Where requests to `/endpoint/{name}` are recorded (and long-polls wait).
   * @default a RequestJournal in memory, bounded by `journalSize` and `journalMaxBytes`
   */
  journal: Journal;
  /**
   * Where queued one-shot answers are kept (`/api/endpoints/{name}/queue`).
   * @default new MemoryAnswerQueue() (in this process, not shared between replicas)
   * @example createApp({ queue: new MemoryAnswerQueue({ maxAnswers: 10 }) })
   */
  queue: AnswerQueue;
  /**
   * Where outgoing webhook deliveries (`/api/deliveries`) and their pending
   * retries are kept. The memory one does not survive the process.
   * @default new MemoryDeliveryStore()
   */
  deliveries: DeliveryStore;
  /**
   * Where the delivery ids of validly signed requests are remembered (for the
   * tolerance of each name's signature check), to tell a replayed delivery.
   * @default new MemoryReplayGuard() (this process only, at most 100000 ids)
   */
  replays: ReplayGuard;
  /**
   * Each endpoint's collections of items and their seeds (docs/state.md).
   * @default new MemoryCollectionStore() (this process only)
   */
  collections: CollectionStore;
  /**
   * Each endpoint's state machines (scenarios) and their start (docs/state.md).
   * @default new MemoryStateStore() (this process only)
   */
  states: StateStore;
}

/** Every part of the shared state, and what start-up needs to know of them. */
export interface Backend extends BackendParts {
  /** Which implementation: `memory`, `level`, `redis`, … */
  readonly kind: string;
  /** Things found at open that a person should know, one line each (e.g. damaged records skipped). */
  readonly warnings: readonly string[];
  /** What the start-up line says of the state (`store: …`), e.g. `level at ./data`. */
  describe(): string;
  /** The state's health, as `/api/health` says it (the store's). */
  health(): StoreHealth;
  /**
   * Where replicas keep their one clock (clock/shared-clock.ts); absent where the
   * backend is not shared (memory, LevelDB): each app's clock is then its process's.
   */
  readonly clock?: SharedClockStore;
  /**
   * Where replicas count routes' rate buckets (engine/rate-buckets.ts); absent where the
   * backend is not shared: each app counts them in its process.
   */
  readonly rateBuckets?: RateBucketStore;
  /**
   * Where replicas take turns (turns/shared-turns.ts): a twin's changes run one at a time
   * across every replica. Absent where one process holds the backend (memory; LevelDB, whose
   * directory lock admits one process): the process's own turns are then enough.
   */
  readonly turns?: SharedTurns;
  /** Closes every part the backend opened. */
  close(): Promise<void>;
  /**
   * Set on a namespace's parts by `open` where the backend can tell: `false` when they were there
   * already (opened by another app on the same backend since they were made), `true` when this
   * open made them. Absent where it cannot tell.
   */
  readonly madeByOpen?: boolean;
  /**
   * The namespaces kept here (`namespaces.ts`); absent in a namespace's own
   * backend (namespaces do not nest).
   */
  readonly namespaces?: BackendNamespaces;
}

/** The journal bounds every backend's journal is made with. */
export type JournalBounds = Pick<LimitOptions, 'journalSize' | 'journalMaxBytes'>;

/** The health of a store without a `health()` method: always `ok`. */
export function storeHealth(store: EndpointStore): StoreHealth {
  return store.health?.() ?? { status: 'ok' };
}

/**
 * A backend part: buckets counted where every replica counts (Redis). Each take is
 * one atomic step; a routes change, a delete or a reset of the name starts its buckets full.
 */
export interface RateBucketStore {
  /** Brings the bucket up to `now` (the app's clock, ms), takes a token if it holds one; the level after (tokens × windowMs). */
  take(
    name: string,
    bucket: string,
    limit: number,
    windowMs: number,
    now: number,
  ): Promise<{ allowed: boolean; level: number }>;
  /** Starts the buckets of `name` full again. */
  reset(name: string): Promise<void>;
  /** Starts every bucket full again. */
  resetAll(): Promise<void>;
}
