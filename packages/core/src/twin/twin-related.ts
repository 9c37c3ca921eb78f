/**
 * What a twin's items read of other collections, as the profile says (docs/twins.md#the-profile-format):
 * `within` — a collection whose items are also items of another (GitHub's pull requests are
 * issues), numbered in one sequence with it and listed in its lists — and `counts` — a field
 * that counts the live items of another collection made below an item (an issue's `comments`),
 * or naming it in a field of theirs (a milestone's `open_issues`).
 *
 * @module
 */
import type { Collections } from '../collections/collection-store.js';
import type { TwinFlows } from './twin-flows.js';
import type { TwinResource } from './twin-operation.js';
import type { TwinProfile } from './twin-profile.js';

/** A stored item as the engine keeps it: where it is, whether deleted, the object. */
interface Kept {
  id: string;
  scope: string;
  deleted: boolean;
  object: Record<string, unknown>;
}

/** The collections, the profile and the flows of one twin. */
export interface Related {
  resources: readonly TwinResource[];
  profile: TwinProfile;
  flows: TwinFlows | undefined;
}

/** The last segment of each resource's template, kept: a read of GitHub's issue asks it of every resource. */
const lastSegments = new WeakMap<TwinResource, string>();

function lastOf(resource: TwinResource): string {
  let last = lastSegments.get(resource);
  if (last === undefined) {
    last = resource.template.slice(resource.template.lastIndexOf('/') + 1);
    lastSegments.set(resource, last);
  }
  return last;
}

/** A twin's resources by the last segment of their template, made once per resources array. */
const bySegments = new WeakMap<readonly TwinResource[], Map<string, TwinResource[]>>();

/**
 * The field the path's id of `resource` reads: the profile's `ids.keys`, else the one the document
 * implies (twin-document.ts `documentKey`), else `id`.
 */
export function keyFieldOf(profile: TwinProfile, resource: TwinResource): string {
  return profile.ids.keys[lastOf(resource)] ?? resource.keyField ?? 'id';
}

function bySegment(twin: Related, segments: readonly string[]): readonly TwinResource[] {
  let index = bySegments.get(twin.resources);
  if (index === undefined) {
    index = new Map();
    for (const one of twin.resources) index.set(lastOf(one), [...(index.get(lastOf(one)) ?? []), one]);
    bySegments.set(twin.resources, index);
  }
  if (segments.length === 1) return index.get(segments[0] as string) ?? [];
  // In the resources' order, as a filter over them gives them.
  const wanted = new Set(segments.flatMap((segment) => index.get(segment) ?? []));
  return twin.resources.filter((one) => wanted.has(one));
}

/** The collections that number in one sequence with `resource` (`within`), it aside. */
export function sharing(twin: Related, resource: TwinResource): TwinResource[] {
  const within = twin.profile.within;
  const host = within[lastOf(resource)] ?? lastOf(resource);
  const names = [host, ...Object.keys(within).filter((name) => within[name] === host)];
  return bySegment(twin, names).filter((one) => one !== resource);
}

/** Whether answering an item of `resource` reads another collection (`counts`). */
export function counts(twin: Related, resource: TwinResource): boolean {
  return twin.profile.counts[lastOf(resource)] !== undefined;
}

/** What a counting field counts (the profile's `counts`): the items made below, or those naming the item. */
type Counting = TwinProfile['counts'][string][string];

/** The value at a dotted `path` of `object` (`milestone.number`); `undefined` where there is none. */
function at(object: Record<string, unknown>, path: string): unknown {
  let value: unknown = object;
  for (const part of path.split('.')) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/**
 * The tally of `counting` over the live items of what it counts, by the place of the item they
 * count: `{scope}/{key}` (an item made below it has that scope; one naming it, its own scope and
 * the key its `by` field holds).
 */
function tallyOf(twin: Related, counting: Counting, read: Collections): Map<string, number> {
  const tally = new Map<string, number>();
  const add = (place: string) => tally.set(place, (tally.get(place) ?? 0) + 1);
  if (typeof counting === 'string') {
    for (const counted of bySegment(twin, [counting])) {
      for (const item of read.get(counted.key) ?? []) {
        const kept = item.value as unknown as Kept;
        if (!kept.deleted) add(kept.scope);
      }
    }
    return tally;
  }
  const within = twin.profile.within;
  const names = [counting.of, ...Object.keys(within).filter((name) => within[name] === counting.of)];
  const where = Object.entries(counting.where);
  for (const counted of bySegment(twin, names)) {
    for (const item of read.get(counted.key) ?? []) {
      const kept = item.value as unknown as Kept;
      if (kept.deleted || !where.every(([field, value]) => kept.object[field] === value)) continue;
      const key = at(kept.object, counting.by);
      if (typeof key === 'string' || typeof key === 'number') add(`${kept.scope}/${String(key)}`);
    }
  }
  return tally;
}

/**
 * Copies of the objects of `items` of `resource` with `counts` read: each counting field the
 * live items of its collection made below the item (whose scope is `{scope}/{key}`), or those
 * in its scope naming it.
 */
export function counted(
  twin: Related,
  resource: TwinResource,
  items: readonly Kept[],
  read: Collections,
): Record<string, unknown>[] {
  const fields = Object.entries(twin.profile.counts[lastOf(resource)] ?? {});
  if (fields.length === 0) return items.map((item) => item.object);
  const keyField = keyFieldOf(twin.profile, resource);
  const tallies = fields.map(([field, counting]) => [field, tallyOf(twin, counting, read)] as const);
  return items.map((item) => {
    const object = { ...item.object };
    const below = `${item.scope}/${String(object[keyField])}`;
    for (const [field, tally] of tallies) if (field in object) object[field] = tally.get(below) ?? 0;
    return object;
  });
}

/**
 * `own` (the live objects of `resource` in `scope`, oldest first) with the live items in `scope` of
 * the collections `within` it, as the flows' `member` shows them, in the order of the sequence
 * they share.
 */
export function withMembers(
  twin: Related,
  resource: TwinResource,
  own: Record<string, unknown>[],
  scope: string,
  read: Collections,
): Record<string, unknown>[] {
  const within = twin.profile.within;
  const names = Object.keys(within).filter((name) => within[name] === lastOf(resource));
  if (names.length === 0) return own;
  const members = bySegment(twin, names).flatMap((member) => {
    const live = (read.get(member.key) ?? [])
      .map((item) => item.value as unknown as Kept)
      .filter((item) => !item.deleted && item.scope === scope);
    const shown = twin.flows?.member;
    return counted(twin, member, live, read).map((object) => shown?.(member.template, object) ?? object);
  });
  const field = keyFieldOf(twin.profile, resource);
  return [...own, ...members].sort((a, b) => (Number(a[field]) || 0) - (Number(b[field]) || 0));
}

/** Whether items of other collections are also items of `resource` (`within` names it). */
export function hasMembers(twin: Related, resource: TwinResource): boolean {
  return Object.values(twin.profile.within).includes(lastOf(resource));
}

/**
 * The collection `within` `resource` whose live item `which` picks, and that item (GitHub's pull
 * request under issue `number`): where a change of the number below `issues/` goes.
 */
export function memberHolding(
  twin: Related,
  resource: TwinResource,
  which: (item: Kept) => boolean,
  read: Collections,
): { member: TwinResource; item: Kept } | undefined {
  const within = twin.profile.within;
  const names = Object.keys(within).filter((name) => within[name] === lastOf(resource));
  for (const member of bySegment(twin, names)) {
    const item = (read.get(member.key) ?? [])
      .map((one) => one.value as unknown as Kept)
      .find((one) => !one.deleted && which(one));
    if (item !== undefined) return { member, item };
  }
  return undefined;
}

/**
 * The live item of a collection `within` `resource` that `which` picks, as the flows' `member`
 * shows it (GitHub's pull request read as issue `number`); `undefined` when none is.
 */
export function memberPicked(
  twin: Related,
  resource: TwinResource,
  which: (item: Kept) => boolean,
  read: Collections,
): Record<string, unknown> | undefined {
  const held = memberHolding(twin, resource, which, read);
  if (held === undefined) return undefined;
  const [object = held.item.object] = counted(twin, held.member, [held.item], read);
  return twin.flows?.member?.(held.member.template, object) ?? object;
}
