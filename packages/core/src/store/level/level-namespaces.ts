/**
 * Namespaces on a LevelDB data directory ({@link BackendNamespaces}): the
 * registry (level-namespace-registry.ts) and each namespace's parts, all in the
 * one database the default namespace uses. A namespace's records, routes,
 * hosts, collections, state and deliveries are durable under its own key
 * prefix (`LevelStore.namespace`); its journal, answer queue and replay memory
 * are this process's, as the default namespace's are: kept here from one open
 * to the next (an idle namespace's app is unloaded and made again) until the
 * namespace is dropped.
 *
 * @module
 */
import type { Backend, JournalBounds } from '../backend.js';
import { memoryParts } from '../memory/backend.js';
import type { BackendNamespaces } from '../namespaces.js';
import type { LevelStore } from './index.js';
import type { LevelNamespaceRegistry } from './level-namespace-registry.js';
import { openDurable } from './open-durable.js';

/** What a namespace keeps in this process's memory (not in the database) between its opens. */
type MemoryKept = Pick<Backend, 'journal' | 'queue' | 'replays'>;

/** A namespace's backend while it is open, and how many `open`s hold it. */
interface Held {
  backend: Promise<Backend>;
  users: number;
}

/**
 * The namespaces of `store` (the default namespace's store, which owns the
 * database). A name opened while it is open already gets the same parts (each
 * caller closes its own hold; the last close closes them), so two holders
 * never keep two diverging copies of its collections or state in memory.
 */
export function levelNamespaces(
  store: LevelStore,
  registry: LevelNamespaceRegistry,
  bounds: JournalBounds,
): BackendNamespaces {
  const held = new Map<string, Held>();
  const kept = new Map<string, MemoryKept>();
  return {
    registry,
    async open(name) {
      let hold = held.get(name);
      if (hold === undefined) {
        const opening: Held = { backend: openNamespace(store, name, bounds, kept), users: 0 };
        opening.backend.catch(() => {
          if (held.get(name) === opening) held.delete(name);
        });
        held.set(name, opening);
        hold = opening;
      }
      const current = hold;
      current.users++;
      let backend: Backend;
      try {
        backend = await current.backend;
      } catch (error) {
        current.users--;
        throw error;
      }
      let closed = false;
      return {
        ...backend,
        close: async () => {
          if (closed) return;
          closed = true;
          if (--current.users > 0) return;
          if (held.get(name) === current) held.delete(name);
          await backend.close();
        },
      };
    },
    async drop(name, options) {
      // Its backend is closed first (the caller's part); one still held keeps what it has in memory.
      held.delete(name);
      kept.delete(name);
      await store.dropNamespace(name, options);
    },
  };
}

/** Namespace `name`'s backend: its view of the store, its durable parts from it, the rest in memory. */
async function openNamespace(
  store: LevelStore,
  name: string,
  bounds: JournalBounds,
  kept: Map<string, MemoryKept>,
): Promise<Backend> {
  const view = store.namespace(name);
  const warnings: string[] = [];
  const what = `namespace ${name}:`;
  const deliveries = await openDurable(
    () => view.openDeliveries(),
    `${what} the pending deliveries`,
    'new deliveries are',
    warnings,
  );
  const collections = await openDurable(
    () => view.openCollections(),
    `${what} the collections`,
    'collection writes are',
    warnings,
  );
  const states = await openDurable(() => view.openStates(), `${what} the state`, 'state changes are', warnings);
  const parts = memoryParts({ ...bounds, ...kept.get(name), store: view, deliveries, collections, states });
  kept.set(name, { journal: parts.journal, queue: parts.queue, replays: parts.replays });
  return {
    ...parts,
    kind: 'level',
    warnings,
    describe: () => `level at ${store.dir}, namespace ${name}`,
    close: async () => {
      // Its journal and queue are kept for a later open, as they are: never released here, or every
      // wait on them after an idle unload would end at once. What waits on them is answered by the
      // app that lets go of them when the namespace is deleted or the server closes (release-held.ts).
      await view.close();
    },
  };
}
