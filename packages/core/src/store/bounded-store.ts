/**
 * A namespace's parts bounded to `max` names (`MOCKPOINT_MAX_ENDPOINTS_PER_NAMESPACE`;
 * the default namespace is not bounded): every write that makes a name hold
 * something — a record, routes, any per-name setting (settings/name-settings.ts),
 * collections, state — first claims the name in the
 * store's {@link NameLedger}; past `max` names it is refused with
 * `TOO_MANY_ENDPOINTS` and nothing is written. The claim is atomic (in this
 * process for a store only it writes; in one Redis script across replicas), so
 * writes racing at the bound never pass it. Deleting a name (or everything)
 * gives its place back; a write to a name waits for a delete of it under way
 * (in this process), so no write lands between the delete and the release and
 * leaves a name that holds something uncounted; across replicas (Redis) a
 * release keeps a name the store holds again, and a write counts its name
 * again once written ({@link NameLedger.keep}). Queued answers count as the
 * other parts do.
 *
 * @module
 */

import type { EndpointRecord } from '../api/schemas.js';
import type { CollectionStore } from '../collections/collection-store.js';
import type { AnswerQueue } from '../queue/answer-queue.js';
import { MockpointError } from '../registry/errors.js';
import { isValidName } from '../registry/rules.js';
import { encodeSetting } from '../settings/name-settings.js';
import type { StateStore } from '../state/state-store.js';
import { LocalNameLedger, type NameLedger, storeNames } from './name-ledger.js';
import type { EndpointStore } from './store.js';

function full(max: number): MockpointError {
  return new MockpointError(
    'TOO_MANY_ENDPOINTS',
    `this namespace holds ${max} endpoints already (MOCKPOINT_MAX_ENDPOINTS_PER_NAMESPACE); delete some first`,
  );
}

/** The parts a cap bounds. */
export interface CappedParts {
  store: EndpointStore;
  collections: CollectionStore;
  states: StateStore;
  queue: AnswerQueue;
}

const ignore = (): undefined => undefined;

/** Thrown out of a routes update that would give a name its first routes: the name must be claimed first. */
const FIRST_ROUTES = Symbol('first routes');

/**
 * The deletes of names under way in this process: a write to a name runs once
 * the name's delete (and its release from the ledger) has finished.
 */
class Deleting {
  /** Made by the first delete, dropped with the last under way (a namespace's parts hold none between deletes). */
  #running: Map<string, Promise<unknown>> | undefined;

  /** Resolves once no delete of `name` is under way (at once, without a Promise to wait on, when none is). */
  settled(name: string): Promise<unknown> | undefined {
    // Whether it succeeded is the delete's caller's to hear, not the write's.
    return this.#running?.get(name)?.then(ignore, ignore);
  }

  async run<T>(name: string, remove: () => Promise<T>): Promise<T> {
    // A delete after another of the same name waits for it too.
    const running = this.#running?.get(name)?.then(remove, remove) ?? remove();
    this.#running ??= new Map();
    this.#running.set(name, running);
    try {
      return await running;
    } finally {
      const all = this.#running;
      if (all?.get(name) === running) {
        all.delete(name);
        if (all.size === 0) this.#running = undefined;
      }
    }
  }
}

/**
 * The ledger of `store`: its own where it has one (Redis), else one in this
 * process that first reads every name the store holds, and those of `others`
 * (none read when the parts are known to hold nothing: `empty`).
 */
export function nameLedgerOf(
  store: EndpointStore,
  others: Pick<CollectionStore, 'names'>[] = [],
  empty = false,
): NameLedger {
  return (
    store.nameLedger?.() ??
    new LocalNameLedger(
      empty
        ? holdsNone
        : async () => {
            const names = await storeNames(store);
            for (const part of others) for (const name of await part.names()) names.add(name);
            return names;
          },
    )
  );
}

const holdsNone = async (): Promise<string[]> => [];

/** `target` with the methods of `own` in place of its own; every other call goes to `target` as it is. */
function overriding<T extends object>(target: T, own: Partial<T>): T {
  return new Proxy(target, {
    get(object, key) {
      if (Object.hasOwn(own, key)) return own[key as keyof T];
      const value: unknown = Reflect.get(object, key, object);
      return typeof value === 'function' ? value.bind(object) : value;
    },
  });
}

/** `store`, claiming each name in `ledger` (at most `max`) before a write makes it hold something. */
export function boundedStore(
  store: EndpointStore,
  max: number,
  ledger = nameLedgerOf(store),
  deleting = new Deleting(),
): EndpointStore {
  const claim = async (name: string): Promise<void> => {
    await deleting.settled(name);
    if (!(await ledger.claim(name, max))) throw full(max);
  };
  /** What a write that made `name` hold something gave, once a shared ledger counts the name again. */
  const kept = async <T>(name: string, written: T): Promise<T> => {
    await ledger.keep?.(name);
    return written;
  };
  return overriding(store, {
    create: async (record: EndpointRecord) => {
      await claim(record.name);
      return kept(record.name, await store.create(record));
    },
    put: async (record: EndpointRecord) => {
      await claim(record.name);
      return kept(record.name, await store.put(record));
    },
    // Only a change that gives a name its first routes claims it: a removal from a name with none (a
    // `DELETE …/routes/{id}` answered 404) takes no place. Such a change is tried once without its
    // claim, thrown out before anything is written, and made again once the name is claimed.
    updateRoutes: async (name, update) => {
      await deleting.settled(name);
      try {
        return await store.updateRoutes(name, (current) => {
          const next = update(current);
          if (current.length === 0 && next.length > 0) throw FIRST_ROUTES;
          return next;
        });
      } catch (error) {
        if (error !== FIRST_ROUTES) throw error;
      }
      await claim(name);
      return kept(name, await store.updateRoutes(name, update));
    },
    // A value that holds something claims the name first; a removal never does, nor a setting
    // kept under a key no endpoint can have (a namespace's own, such as its chaos): it is no name.
    setSetting: async (kind, name, value) => {
      if (!isValidName(name) || encodeSetting(kind, value) === undefined) {
        return store.setSetting(kind, name, value);
      }
      await claim(name);
      return kept(name, await store.setSetting(kind, name, value));
    },
    delete: (name: string) =>
      deleting.run(name, async () => {
        const deleted = await store.delete(name);
        await ledger.release(name);
        return deleted;
      }),
    clear: async () => {
      await store.clear();
      await ledger.releaseAll();
    },
  });
}

/**
 * `parts` with their store, collections, state and queue bounded together to
 * `max` names (one ledger): seeding or changing collections, putting state or
 * queueing answers claims the name as a record does. (A state move needs the
 * name's routes: it holds one already.) `empty`: the parts are known to hold
 * nothing (a namespace made by this process and opened for the first time),
 * so the ledger starts empty instead of reading every name they hold.
 */
export function boundedParts<P extends CappedParts>(parts: P, max: number, empty = false): P {
  const ledger = nameLedgerOf(parts.store, [parts.collections, parts.states, parts.queue], empty);
  const deleting = new Deleting();
  const claim = async (name: string): Promise<void> => {
    await deleting.settled(name);
    if (!(await ledger.claim(name, max))) throw full(max);
  };
  const { collections, states, queue } = parts;
  return {
    ...parts,
    store: boundedStore(parts.store, max, ledger, deleting),
    queue: overriding(queue, {
      push: async (name, answers) => {
        await claim(name);
        return queue.push(name, answers);
      },
    }),
    collections: overriding(collections, {
      seed: async (name, given) => {
        await claim(name);
        return collections.seed(name, given);
      },
      seedOne: async (name, collection, items) => {
        if (items !== undefined) await claim(name);
        return collections.seedOne(name, collection, items);
      },
      // An item added to a collection the name does not have yet makes it.
      update: async (name, collection, change) => {
        await claim(name);
        return collections.update(name, collection, change);
      },
    }),
    states: overriding(states, {
      put: async (name, given) => {
        await claim(name);
        return states.put(name, given);
      },
    }),
  };
}
