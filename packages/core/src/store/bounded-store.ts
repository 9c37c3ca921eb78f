/**
 * An {@link EndpointStore} that holds at most `max` records: a create (or a
 * put of a new name) past it is refused with `TOO_MANY_ENDPOINTS`. Each
 * namespace's store is one (`MOCKPOINT_MAX_ENDPOINTS_PER_NAMESPACE`); the
 * default namespace's is not bounded. Two creates racing at the bound may both
 * pass (the count is read, then the record written): the bound holds to within
 * the writes in flight.
 *
 * @module
 */
import { MockpointError } from '../wire/errors.js';
import type { EndpointRecord } from '../wire/schemas.js';
import type { EndpointStore } from './store.js';

function full(max: number): MockpointError {
  return new MockpointError(
    'TOO_MANY_ENDPOINTS',
    `this namespace holds ${max} endpoints already (MOCKPOINT_MAX_ENDPOINTS_PER_NAMESPACE); delete some first`,
  );
}

/** `store`, refusing a new record once it holds `max`; every other call goes to `store` as it is. */
export function boundedStore(store: EndpointStore, max: number): EndpointStore {
  const create = async (record: EndpointRecord): Promise<boolean> => {
    if ((await store.count()) >= max) {
      if ((await store.get(record.name)) !== undefined) return false;
      throw full(max);
    }
    return store.create(record);
  };
  const put = async (record: EndpointRecord): Promise<{ created: boolean }> => {
    if ((await store.count()) >= max && (await store.get(record.name)) === undefined) throw full(max);
    return store.put(record);
  };
  return new Proxy(store, {
    get(target, key) {
      if (key === 'create') return create;
      if (key === 'put') return put;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
