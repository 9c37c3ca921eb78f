/**
 * JSON Schema's equality of JSON values (object keys in any order, `1` and `1.0`
 * the same number) in linear time: a structural hash that does not depend on key
 * order, so that `uniqueItems`, `enum` and `const` look values up in a Map and
 * compare only the few that share a hash, instead of comparing every pair.
 *
 * @module
 */
import { deepCompareStrict } from '@cfworker/json-schema';

function mix(hash: number, value: number): number {
  return Math.imul(hash ^ value, 0x01000193) >>> 0;
}

function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = mix(hash, text.charCodeAt(i));
  return hash;
}

/**
 * A 32-bit hash of a JSON value; equal values hash alike (object members are
 * combined by addition, so their order does not count). Costs the value's size.
 */
export function jsonHash(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return mix(hashText(value), 1);
    case 'number':
      return mix(hashText(String(value)), 2);
    case 'boolean':
      return value ? 3 : 4;
    case 'object': {
      if (value === null) return 5;
      if (Array.isArray(value)) {
        let hash = 6;
        for (const item of value) hash = mix(hash, jsonHash(item));
        return mix(hash, value.length);
      }
      let sum = 7;
      const object = value as Record<string, unknown>;
      for (const key in object) sum = (sum + mix(hashText(key), jsonHash(object[key]))) >>> 0;
      return mix(sum, 8);
    }
    default:
      return 0;
  }
}

/** Whether two JSON values are equal (JSON Schema's equality). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  return a === b || (typeof a === 'object' && a !== null && typeof b === 'object' && deepCompareStrict(a, b));
}

/** Counts work (a run's steps): one per value hashed, one per pair compared. */
interface Meter {
  step(n?: number): void;
}

/** JSON values looked up by {@link jsonHash}; values that share a hash are compared one by one. */
export class JsonSet {
  readonly #buckets = new Map<number, unknown[]>();

  /** The index of the value equal to `value` already kept, or -1 (then `value` is kept, as `index`). */
  addOrFind(value: unknown, index: number, meter: Meter): number {
    const hash = jsonHash(value);
    const bucket = this.#buckets.get(hash);
    if (bucket === undefined) {
      meter.step();
      this.#buckets.set(hash, [value, index]);
      return -1;
    }
    const found = this.#search(bucket, value, meter);
    if (found === -1) bucket.push(value, index);
    return found;
  }

  /** The index kept with a value equal to `value`, or -1. */
  find(value: unknown, meter: Meter): number {
    const bucket = this.#buckets.get(jsonHash(value));
    meter.step();
    return bucket === undefined ? -1 : this.#search(bucket, value, meter);
  }

  #search(bucket: unknown[], value: unknown, meter: Meter): number {
    for (let i = 0; i < bucket.length; i += 2) {
      meter.step();
      if (jsonEqual(bucket[i], value)) return bucket[i + 1] as number;
    }
    return -1;
  }
}
