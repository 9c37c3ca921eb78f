/**
 * Namespaces on Redis, shared by every replica on it: the registry in two hashes
 * under the store's key prefix (`namespace-registry.ts`), and each namespace's
 * parts a Redis backend of their own, on the default namespace's connections
 * (`RedisStore.withKeyPrefix`), under the prefix `<prefix>ns:<name>:` —
 * records, routes, journal, queue, deliveries, replays, collections, state and
 * their change channels alike, so a write in namespace X on one replica is seen
 * by namespace X on every other (and its caches told), and by no other namespace.
 * No key or channel of a backend starts with `ns:` after its prefix (namespaces.test.ts
 * checks it), so no namespace's keys are another's or the default's.
 *
 * @module
 */
import { NAME_PATTERN } from '../../registry/rules.js';
import type { Backend } from '../backend.js';
import type { BackendNamespaces } from '../namespaces.js';
import type { RedisStore } from './index.js';

/** The key prefix of namespace `name`'s parts under the store prefix `keyPrefix`. */
export function namespaceKeyPrefix(keyPrefix: string, name: string): string {
  // A name with ':' or a glob character could reach into another namespace's keys.
  if (!NAME_PATTERN.test(name)) throw new RangeError(`"${name}" is not a namespace name (1-64 of A-Z a-z 0-9 _ -)`);
  return `${keyPrefix}ns:${name}:`;
}

/**
 * The namespaces of the backend on `root`: `open` opens a backend on the
 * namespace's key prefix with `openParts` (on `root`'s connections: its `close()`
 * closes its parts and subscriptions only); `drop` removes every key under that prefix.
 */
export function redisNamespaces(
  root: RedisStore,
  openParts: (keyPrefix: string) => Promise<Backend>,
): BackendNamespaces {
  return {
    registry: root.openNamespaceRegistry(),
    open: async (name) => openParts(namespaceKeyPrefix(root.keyPrefix, name)),
    drop: async (name, options) => {
      // A name drawn a moment ago that no one has used holds no key: no scan of the keyspace.
      if (options?.unused === true) return;
      await root.dropKeys(namespaceKeyPrefix(root.keyPrefix, name));
    },
  };
}
