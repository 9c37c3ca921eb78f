/**
 * Constraints (twin-engine.ts): the values a twin refuses, in the provider's own error form. What
 * its flows say of a body (`check`, `checkUpdate`), a key another item of its scope holds
 * (`already_exists`), one webhook subscription past the provider's limit, a receiver's URL the
 * delivery engine would never send to, a write past the limits of a collection write or past
 * {@link MAX_OBJECTS}; and the one change of a stored object, held to all of them. The objects a
 * request refers to are twin-references.ts's.
 *
 * @module
 */
import { checkCollectionSize } from '../collections/collection-input.js';
import type { ChangeFn } from '../collections/collection-store.js';
import { type Item, itemOf } from '../collections/item.js';
import { MockpointError } from '../registry/errors.js';
import { Refusal } from './twin-answer.js';
import type { TwinParams } from './twin-body.js';
import type { Twin } from './twin-context.js';
import type { FlowError } from './twin-flows.js';
import { missing } from './twin-missing.js';
import type { MatchedOperation, TwinResource } from './twin-operation.js';
import { keyField, MAX_OBJECTS, pickedIndex, type Stored, sameKey } from './twin-stored.js';

/**
 * Refuses a write that would take `collection` past the limits of a
 * collection write, in the provider's own error form (Stripe's `400`
 * `invalid_request_error`, GitHub's `422`).
 */
export function fits(
  twin: Twin,
  collection: string,
  items: readonly Item[] | undefined,
  replace: { at: number; item: Item },
): void {
  const limits = twin.parts.limits;
  if (limits === undefined) return;
  try {
    checkCollectionSize(collection, items ?? [], limits, replace);
  } catch (error) {
    if (!(error instanceof MockpointError)) throw error;
    throw new Refusal({
      status: twin.parts.flows?.invalidStatus ?? 400,
      type: 'invalid_request_error',
      code: 'collection_too_large',
      message: `This twin keeps its objects in the name's collections, held to the daemon's limits: ${error.message}. Send less, or raise --max-collection-bytes / --max-collection-items.`,
    });
  }
}

/** The refusal of one more object of a collection that holds {@link MAX_OBJECTS}, none of them deleted. */
function noRoom(): Refusal {
  return new Refusal({
    status: 400,
    type: 'invalid_request_error',
    message: `This twin holds at most ${MAX_OBJECTS} objects of one kind (those deleted are dropped, oldest first, to make room).`,
  });
}

/**
 * How many objects one collection of the twin holds before a deleted one gives its place:
 * {@link MAX_OBJECTS}, or the daemon's `--max-collection-items` where it is lower (past which a
 * write is refused `collection_too_large`, {@link fits}).
 */
function capOf(twin: Twin): number {
  return Math.min(MAX_OBJECTS, twin.parts.limits?.maxCollectionItems ?? MAX_OBJECTS);
}

/**
 * The index of the deleted object a full collection (`cap` items, {@link capOf}) gives up for a
 * new one: the oldest with a newer item in its own scope (the newest of a scope is kept, deleted or
 * not: a sequence's next number in that scope reads it, GitHub's issue or milestone `number`); -1
 * when it is not full or none can go. A deleted object's `GET` answers it until then, the
 * provider's 404 after.
 */
function roomAt(items: readonly Item[] | undefined, cap: number): number {
  if (items === undefined || items.length < cap) return -1;
  const later = new Set<string>();
  let at = -1;
  // Newest first: an item has a newer one of its scope when its scope was seen already.
  for (let index = items.length - 1; index >= 0; index--) {
    const stored = (items[index] as Item).value as unknown as Stored;
    if (stored.deleted && later.has(stored.scope)) at = index;
    later.add(stored.scope);
  }
  return at;
}

/**
 * Drops the oldest deleted object of the twin's collection `key` that {@link roomAt} gives up, so
 * that a create finds room: objects made and deleted never fill a twin (10,000 customers made and
 * deleted by a long test run). A change of its own, before the create's: another create may take
 * the place first, and the create then tries again.
 */
async function makeRoom(twin: Twin, key: string): Promise<void> {
  await twin.parts.collections.update(twin.parts.name, key, (items) => {
    const at = roomAt(items, capOf(twin));
    return at === -1 ? { result: undefined } : { edit: { remove: at }, result: undefined };
  });
}

/**
 * The twin's collection `key` changed by `change` (as `collections.update`). Where the change adds
 * an object (`append`) to a full collection ({@link capOf}), room is made first ({@link makeRoom})
 * and the change tried again (at most 3 times: another create may take the place first); where
 * none can be made at {@link MAX_OBJECTS}, the change is `refuse`d (the provider's 400) or its
 * object `drop`ped (a flow's write: the result as the change said, nothing kept). An object added
 * is held to the daemon's collection limits ({@link fits}: refused past them). A change that adds
 * nothing, or is refused for another reason, costs no deleted object its place.
 */
export async function withRoom<T>(
  twin: Twin,
  key: string,
  change: ChangeFn<T>,
  whenFull: 'refuse' | 'drop',
): Promise<T> {
  for (let tries = 0; ; tries++) {
    type Outcome = { full: true } | { full: false; result: T };
    const outcome = await twin.parts.collections.update<Outcome>(twin.parts.name, key, (items) => {
      const changed = change(items);
      const added = changed.edit !== undefined && 'append' in changed.edit ? changed.edit.append : undefined;
      if (added === undefined) return { ...changed, result: { full: false, result: changed.result } };
      const held = items?.length ?? 0;
      if (held >= capOf(twin) && tries < 3 && roomAt(items, capOf(twin)) !== -1) return { result: { full: true } };
      if (held >= MAX_OBJECTS && whenFull === 'refuse') throw noRoom();
      if (held >= MAX_OBJECTS) return { result: { full: false, result: changed.result } };
      fits(twin, key, items, { at: -1, item: added });
      return { ...changed, result: { full: false, result: changed.result } };
    });
    if (!outcome.full) return outcome.result;
    await makeRoom(twin, key);
  }
}

/** Refuses what the provider's flows refuse of a create's (`check`) or an update's (`checkUpdate`) body. */
export function checkSent(twin: Twin, resource: TwinResource, body: Record<string, unknown>, update: boolean): void {
  const flows = twin.parts.flows;
  const invalid = update ? flows?.checkUpdate?.(resource.template, body) : flows?.check?.(resource.template, body);
  if (invalid !== undefined) throw new Refusal(invalid);
}

/** Refuses a webhook endpoint's `url` the delivery engine would never send to (Stripe: `url_invalid`). */
export function checkEndpoint(twin: Twin, matched: MatchedOperation, params: TwinParams): void {
  const check = twin.parts.checkTarget;
  const template = twin.parts.flows?.events?.endpointsTemplate;
  const resource = matched.op.resource;
  if (check === undefined || resource === undefined || resource.template !== template) return;
  if (matched.op.action !== 'create' && matched.op.action !== 'update') return;
  const events = twin.parts.flows?.events;
  const url = events?.target === undefined ? params.body.url : events.target(params.body).url;
  if (url === undefined || (matched.op.action === 'update' && url === '')) return;
  try {
    check(url);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Refusal(
      events?.badTarget?.(message) ?? {
        status: 400,
        type: 'invalid_request_error',
        code: 'url_invalid',
        param: 'url',
        message: `Invalid URL: ${message.slice(0, 300)}.`,
      },
    );
  }
}

/** The provider's refusal of a second live item of one key in a scope (GitHub's `already_exists`). */
export function taken(resource: TwinResource, field: string): FlowError {
  const what = resource.objectName ?? resource.template.split('/').at(-1) ?? 'object';
  return {
    status: 422,
    type: 'invalid_request_error',
    code: 'already_exists',
    message: `Validation Failed: a ${what} with this ${field} already exists.`,
    param: field,
    extra: { errors: [{ resource: what, code: 'already_exists', field }] },
  };
}

/**
 * The provider's refusal of one more webhook subscription of `scope` past its limit (`undefined`:
 * room, or none); `except`: the index of the subscription `made` changes, not counted.
 */
export function subscriptionLimit(
  twin: Twin,
  resource: TwinResource,
  items: readonly Item[] | undefined,
  scope: string,
  made: Record<string, unknown>,
  except = -1,
): FlowError | undefined {
  const events = twin.parts.flows?.events;
  if (events?.limit === undefined || resource.template !== events.endpointsTemplate) return undefined;
  const live = (items ?? [])
    .filter((_, at) => at !== except)
    .map((item) => item.value as unknown as Stored)
    .filter((stored) => !stored.deleted && stored.scope === scope)
    .map((stored) => stored.object);
  return events.limit(live, made);
}

/**
 * Changes the stored object of `resource` that `which` picks, held to the constraints (a deleted
 * one is missing, a key taken, the subscription limit when `limited`, the collection's limits);
 * `undefined` when the twin does not hold it.
 */
export async function changeStored(
  twin: Twin,
  resource: TwinResource,
  which: (stored: Stored) => boolean,
  change: (stored: Stored, was: Stored) => Stored,
  limited = false,
): Promise<Stored | undefined> {
  return twin.parts.collections.update(twin.parts.name, resource.key, (items) => {
    const index = pickedIndex(items ?? [], which);
    if (items === undefined || index === -1) return { result: undefined };
    const stored = items[index]?.value as unknown as Stored;
    if (stored.deleted) throw new Refusal(missing(twin, resource, stored.id));
    const next = change(structuredClone(stored), stored);
    // Moved to a key another live item of its scope has: the provider's `already_exists`.
    if (next.id !== stored.id && items.some((item, at) => at !== index && sameKey(item.value, next.scope, next.id))) {
      throw new Refusal(taken(resource, keyField(twin, resource)));
    }
    // Held to the provider's subscription limit as a create is (GitHub: 20 hooks an event), the others counted.
    const over = limited ? subscriptionLimit(twin, resource, items, stored.scope, next.object, index) : undefined;
    if (over !== undefined) throw new Refusal(over);
    const item = itemOf(JSON.stringify(next));
    fits(twin, resource.key, items, { at: index, item });
    return { edit: { set: index, item }, result: next };
  });
}
