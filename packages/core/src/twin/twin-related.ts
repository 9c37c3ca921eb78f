/**
 * What a twin's items read of other collections, as the profile says (docs/twins.md#the-profile-format):
 * `within` — a collection whose items are also items of another (GitHub's pull requests are
 * issues), numbered in one sequence with it and listed in its lists — and `counts` — a field
 * that counts the live items of another collection made below an item (an issue's `comments`).
 *
 * @module
 */
import type { Collections } from '../collections/collection-store.js';
import type { TwinFlows } from './twin-flows.js';
import type { TwinResource } from './twin-model.js';
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

const lastOf = (resource: TwinResource) => resource.template.split('/').at(-1) ?? '';

/** The field the path's id of `resource` reads (`id` unless the profile's `ids.keys` says another). */
export function keyFieldOf(profile: TwinProfile, resource: TwinResource): string {
  return profile.ids.keys[lastOf(resource)] ?? 'id';
}

function bySegment(twin: Related, segments: readonly string[]): TwinResource[] {
  return twin.resources.filter((one) => segments.includes(lastOf(one)));
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

/**
 * Copies of the objects of `items` of `resource` with `counts` read: each counting field the
 * live items of its collection made below the item (whose scope is `{scope}/{key}`).
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
  const tallies = fields.map(([field, of]) => {
    const tally = new Map<string, number>();
    for (const counted of bySegment(twin, [of])) {
      for (const item of read.get(counted.key) ?? []) {
        const kept = item.value as unknown as Kept;
        if (!kept.deleted) tally.set(kept.scope, (tally.get(kept.scope) ?? 0) + 1);
      }
    }
    return [field, tally] as const;
  });
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
