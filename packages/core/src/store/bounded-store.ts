/**
 * A namespace's parts bounded to `max` names (`MOCKPOINT_MAX_ENDPOINTS_PER_NAMESPACE`;
 * the default namespace is not bounded): every write that makes a name hold
 * something — a record, routes, any per-name setting (settings/name-settings.ts),
 * collections, state — first claims the name in the
 * store's {@link NameLedger}; past `max` names it is refused with
 * `TOO_MANY_ENDPOINTS` and nothing is written. The claim is atomic (in this
 * process for a store only it writes; in one Redis script across replicas), so
 * writes racing at the bound never pass it. Deleting a name (or everything)
 * gives its place back.
 *
 * @module
 */
import type { CollectionStore } from '../collections/collection-store.js';
import type { StateStore } from '../state/state-store.js';
import { NAMESPACE_CHAOS_KEY } from '../wire/chaos.js';
import { MockpointError } from '../wire/errors.js';
import type { EndpointRecord } from '../wire/schemas.js';
import { LocalNameLedger, type NameLedger, storeNames } from './name-ledger.js';
import { encodeSetting } from './settings/name-settings.js';
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
}

/**
 * The ledger of `store`: its own where it has one (Redis), else one in this
 * process that first reads every name the store holds, and those of `others`.
 */
export function nameLedgerOf(store: EndpointStore, others: Pick<CollectionStore, 'names'>[] = []): NameLedger {
  return (
    store.nameLedger?.() ??
    new LocalNameLedger(async () => {
      const names = await storeNames(store);
      for (const part of others) for (const name of await part.names()) names.add(name);
      return names;
    })
  );
}

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
export function boundedStore(store: EndpointStore, max: number, ledger = nameLedgerOf(store)): EndpointStore {
  const claim = async (name: string): Promise<void> => {
    if (!(await ledger.claim(name, max))) throw full(max);
  };
  return overriding(store, {
    create: async (record: EndpointRecord) => {
      await claim(record.name);
      return store.create(record);
    },
    put: async (record: EndpointRecord) => {
      await claim(record.name);
      return store.put(record);
    },
    updateRoutes: async (name, update) => {
      if (await ledger.claim(name, max)) return store.updateRoutes(name, update);
      // Past the cap, for a name that holds nothing: a change that leaves it no routes (a removal) is no new name.
      return store.updateRoutes(name, (current) => {
        const next = update(current);
        if (next.length > 0) throw full(max);
        return next;
      });
    },
    // A value that holds something claims the name first; a removal never does, nor the
    // namespace's own chaos (NAMESPACE_CHAOS_KEY), which is no endpoint name.
    setSetting: async (kind, name, value) => {
      if (name !== NAMESPACE_CHAOS_KEY && encodeSetting(kind, value) !== undefined) await claim(name);
      return store.setSetting(kind, name, value);
    },
    delete: async (name: string) => {
      const deleted = await store.delete(name);
      await ledger.release(name);
      return deleted;
    },
    clear: async () => {
      await store.clear();
      await ledger.releaseAll();
    },
  });
}

/**
 * `parts` with their store, collections and state bounded together to `max`
 * names (one ledger): seeding or changing collections, or putting state, claims
 * the name as a record does. (A state move needs the name's routes: it holds one already.)
 */
export function boundedParts<P extends CappedParts>(parts: P, max: number): P {
  const ledger = nameLedgerOf(parts.store, [parts.collections, parts.states]);
  const claim = async (name: string): Promise<void> => {
    if (!(await ledger.claim(name, max))) throw full(max);
  };
  const { collections, states } = parts;
  return {
    ...parts,
    store: boundedStore(parts.store, max, ledger),
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
