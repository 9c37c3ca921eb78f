/**
 * How a twin keeps its objects (twin-engine.ts): one collection a resource, in the name's
 * collections, each item a {@link Stored} (its id, the ids of the path above it, whether it was
 * deleted); which item a path names, and an object found by its id in whichever collection holds it.
 *
 * @module
 */
import type { Collections } from '../collections/collection-store.js';
import type { Twin } from './twin-context.js';
import type { MatchedOperation, TwinResource } from './twin-operation.js';
import { keyFieldOf } from './twin-related.js';

/** How a stored object is kept: its id, the ids of the path above it, whether it was deleted. */
export interface Stored {
  id: string;
  scope: string;
  deleted: boolean;
  object: Record<string, unknown>;
}

/** A stored object found by its id, and the size of its stored text. */
interface Found {
  object: Record<string, unknown>;
  size: number;
}

/** Most objects one collection of a twin holds. */
export const MAX_OBJECTS = 10_000;

/** The stored items of `resource`'s collection (`undefined`: the twin never wrote it); `read`: the collections read already. */
export async function storedOf(twin: Twin, resource: TwinResource, read?: Collections): Promise<Stored[] | undefined> {
  const collections = read ?? (await twin.parts.collections.get(twin.parts.name));
  return collections.get(resource.key)?.map((item) => item.value as unknown as Stored);
}

/** The live objects of a collection the twin holds (of every scope). */
export async function liveObjects(twin: Twin, resource: TwinResource): Promise<Record<string, unknown>[]> {
  return ((await storedOf(twin, resource)) ?? []).filter((item) => !item.deleted).map((item) => item.object);
}

/** The live objects of the collection at `template` in the scope `values` name, oldest first. */
export async function scopedObjects(
  twin: Twin,
  template: string,
  values: Record<string, string> | undefined,
  read?: Collections,
): Promise<Record<string, unknown>[]> {
  const resource = twin.parts.model.resources.find((one) => one.template === template);
  if (resource === undefined) return [];
  const scope = scopeOf(resource, values);
  const stored = (await storedOf(twin, resource, read)) ?? [];
  return stored.filter((item) => !item.deleted && item.scope === scope).map((item) => item.object);
}

/** The scope `values` give a collection's items (`octo/app` for a repository's hooks). */
export function scopeOf(resource: TwinResource, values: Record<string, string> | undefined): string {
  const params = [...resource.template.matchAll(/\{([^}]+)\}/g)].map((found) => found[1] as string);
  return params.map((param) => values?.[param] ?? '').join('/');
}

/** The scope of a path: the values of its parameters other than the item's id. */
export function pathScope(matched: MatchedOperation, resource: TwinResource): string {
  return matched.op.params
    .filter((param) => param !== resource.idParam)
    .map((param) => matched.values[param])
    .join('/');
}

/** The field the path's id of `resource` reads (`id` unless the profile's `ids.keys` says another). */
export function keyField(twin: Twin, resource: TwinResource): string {
  return keyFieldOf(twin.parts.profile, resource);
}

/**
 * Which stored item the path names: its id, and for a collection keyed by another field
 * (GitHub's issue `number`) also the ids above it.
 */
export function whichOf(
  twin: Twin,
  matched: MatchedOperation,
  resource: TwinResource,
  scope = pathScope(matched, resource),
): (stored: Stored) => boolean {
  const id = matched.values[resource.idParam] as string;
  if (keyField(twin, resource) === 'id') return (stored) => stored.id === id;
  return (stored) => stored.id === id && stored.scope === scope;
}

/**
 * The index of the item `which` picks: the live one, else one deleted (its key freed and taken
 * again, a label made anew under a deleted one's name, the deleted entry stays stored before it).
 */
export function pickedIndex(items: readonly { value: unknown }[], which: (stored: Stored) => boolean): number {
  // Over the collection's items as they are (no copy of it a request: a write scans it whole).
  const live = items.findIndex((item) => which(item.value as Stored) && !(item.value as Stored).deleted);
  return live === -1 ? items.findIndex((item) => which(item.value as Stored)) : live;
}

/** The item of `resource` `which` picks ({@link pickedIndex}): the live one, else one deleted; `undefined`: none. */
export async function picked(
  twin: Twin,
  resource: TwinResource,
  which: (stored: Stored) => boolean,
  read?: Collections,
): Promise<Stored | undefined> {
  const items = (read ?? (await twin.parts.collections.get(twin.parts.name))).get(resource.key);
  return items?.[pickedIndex(items, which)]?.value as unknown as Stored | undefined;
}

/** The live item of `resource` `which` picks; `undefined`: none. */
export async function livePicked(
  twin: Twin,
  resource: TwinResource,
  which: (stored: Stored) => boolean,
): Promise<Stored | undefined> {
  const items = (await twin.parts.collections.get(twin.parts.name)).get(resource.key) ?? [];
  for (const item of items) {
    const stored = item.value as unknown as Stored;
    if (!stored.deleted && which(stored)) return stored;
  }
  return undefined;
}

/** Whether a stored item is the live one of `key` in `scope`. */
export function sameKey(value: unknown, scope: string, key: string): boolean {
  const stored = value as Stored;
  return !stored.deleted && stored.scope === scope && stored.id === key;
}

/** One more than the largest numeric `id` of `items` (with `scope`: their `number` within it). */
export function nextNumber(items: readonly { value: unknown }[] | undefined, scope?: string): number {
  const numbers = (items ?? [])
    .map((item) => item.value as Stored)
    .filter((item) => scope === undefined || item.scope === scope);
  return (
    numbers.reduce(
      (most, item) => Math.max(most, Number(scope === undefined ? item.object.id : item.object.number) || 0),
      0,
    ) + 1
  );
}

/** A stored object by its id and the size of its stored text (for `expand`, which counts it). */
export async function findSized(twin: Twin, id: string, read?: Collections): Promise<Found | undefined> {
  const collections = read ?? (await twin.parts.collections.get(twin.parts.name));
  for (const resource of twin.parts.model.resources) {
    if (resource.prefix !== '' && !id.startsWith(resource.prefix)) continue;
    const found = collections.get(resource.key)?.find((item) => (item.value as unknown as Stored).id === id);
    if (found !== undefined && !(found.value as unknown as Stored).deleted)
      return { object: (found.value as unknown as Stored).object, size: found.text.length };
  }
  return undefined;
}
