/**
 * A map of maps' inner map, made empty on its first use: the stores' per-name maps
 * (a name's collections, its seeds, the lists parsed from Redis).
 *
 * @module
 */

/**
 * The map `outer` holds under `key`; an empty one, set there, when it holds none.
 * @example innerMap(this.#seeds, name).set(collection, items)
 */
export function innerMap<K, InnerK, V>(outer: Map<K, Map<InnerK, V>>, key: K): Map<InnerK, V> {
  let inner = outer.get(key);
  if (inner === undefined) {
    inner = new Map();
    outer.set(key, inner);
  }
  return inner;
}
