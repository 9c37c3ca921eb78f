/**
 * The memory backend: every part of the shared state in this process's memory,
 * each beside it in this folder, as the LevelDB and Redis backends are in
 * theirs.
 *
 * @module
 */

import { DEFAULT_JOURNAL_MAX_BYTES, DEFAULT_JOURNAL_SIZE, resolveLimits } from '../../registry/limits.js';
import { type Backend, type BackendParts, type JournalBounds, storeHealth } from '../backend.js';
import { MemoryAnswerQueue } from './memory-answer-queue.js';
import { MemoryCollectionStore } from './memory-collection-store.js';
import { MemoryDeliveryStore } from './memory-delivery-store.js';
import { RequestJournal } from './memory-journal.js';
import { memoryNamespaces } from './memory-namespaces.js';
import { MemoryReplayGuard } from './memory-replay-guard.js';
import { MemoryStateStore } from './memory-state-store.js';
import { MemoryStore } from './memory-store.js';

/** Options for {@link memoryBackend}: any part given is used as it is, the rest are made in memory. */
export interface MemoryBackendOptions extends Partial<BackendParts>, JournalBounds {}

/**
 * A backend in this process's memory (nothing survives it, nothing is shared
 * between replicas); any part given in `options` is used instead of the memory one.
 * With its store in memory (none given, or a `MemoryStore`) it keeps namespaces
 * in memory too; with another store, none (a backend that keeps a store
 * elsewhere brings its own namespaces, as LevelDB's and Redis's do).
 * @example createApp({ backend: memoryBackend() })
 * @example memoryBackend({ store: durableObjectStore }) // a store of its own, the other parts in memory
 */
export function memoryBackend(options: MemoryBackendOptions = {}): Backend {
  const backend = memoryParts(options);
  if (backend.store.kind !== 'memory') return backend;
  const bounds = resolveLimits(options);
  return {
    ...backend,
    namespaces: memoryNamespaces(memoryParts, {
      journalSize: bounds.journalSize,
      journalMaxBytes: bounds.journalMaxBytes,
    }),
  };
}

/** Every part: those given, the rest made in memory; no namespaces (a namespace's own backend is one of these). */
export function memoryParts(options: MemoryBackendOptions = {}): Backend {
  const store = options.store ?? new MemoryStore();
  return {
    kind: 'memory',
    store,
    // The journal's two bounds only (a namespace's parts are made per test session: not every limit resolved).
    journal:
      options.journal ??
      new RequestJournal({
        size: options.journalSize ?? DEFAULT_JOURNAL_SIZE,
        maxBytes: options.journalMaxBytes ?? DEFAULT_JOURNAL_MAX_BYTES,
      }),
    queue: options.queue ?? new MemoryAnswerQueue(),
    deliveries: options.deliveries ?? new MemoryDeliveryStore(),
    replays: options.replays ?? new MemoryReplayGuard(),
    collections: options.collections ?? new MemoryCollectionStore(),
    states: options.states ?? new MemoryStateStore(),
    warnings: [],
    describe: () => (store.kind === 'memory' ? 'memory (nothing is written to disk)' : store.kind),
    health: () => storeHealth(store),
    close: () => store.close(),
  };
}
