/**
 * A twin's reads (twin-engine.ts): one stored object as the provider answers it (its counts read,
 * a deleted one's tombstone or 404), and the flows' views, a collection shown below another path
 * (a customer's payment methods).
 *
 * @module
 */
import { jsonAnswer, Refusal, type TwinAnswer, type TwinRequest } from './twin-answer.js';
import type { TwinParams } from './twin-body.js';
import { shownOf, type Twin } from './twin-context.js';
import { exampleOfOperation, wrapped } from './twin-documented.js';
import { list } from './twin-listing.js';
import { missing } from './twin-missing.js';
import type { MatchedOperation, TwinResource } from './twin-operation.js';
import { heldOrMissing, memberOf, ownerOf } from './twin-references.js';
import { counted, counts } from './twin-related.js';
import { picked, type Stored, storedOf, whichOf } from './twin-stored.js';

/** An operation of a flows' view, as the collection it shows answers it. */
export interface Viewed {
  /** The request's own operation (`/v1/customers/{customer}/payment_methods`). */
  asked: MatchedOperation;
  matched: MatchedOperation;
  target: TwinResource;
  where: readonly [string, string][];
}

/** The read of the object the path names. */
export async function readOne(twin: Twin, matched: MatchedOperation, resource: TwinResource): Promise<TwinAnswer> {
  const id = matched.values[resource.idParam] as string;
  const which = whichOf(twin, matched, resource);
  const read = await twin.parts.collections.get(twin.parts.name);
  const stored = await picked(twin, resource, which, read);
  if (stored === undefined) {
    const member = memberOf(twin, resource, which, read);
    if (member !== undefined) return jsonAnswer(200, member);
    if (!twin.examples) throw new Refusal(missing(twin, resource, id));
    const { status, value } = exampleOfOperation(twin, matched);
    return jsonAnswer(status, wrapped(twin, matched, value));
  }
  if (!stored.deleted) {
    return jsonAnswer(200, wrapped(twin, matched, shownOf(twin, resource, await view(twin, resource, stored))));
  }
  if (twin.parts.profile.deleted === 'tombstone') return jsonAnswer(200, tombstone(resource, stored));
  throw new Refusal(missing(twin, resource, id));
}

/** One stored item as answered: its counts read. */
export async function view(twin: Twin, resource: TwinResource, stored: Stored): Promise<Record<string, unknown>> {
  if (!counts(twin.related, resource)) return stored.object;
  const read = await twin.parts.collections.get(twin.parts.name);
  return counted(twin.related, resource, [stored], read)[0] ?? stored.object;
}

/** What a deleted object answers (Stripe's `{ id, object, deleted: true }`). */
export function tombstone(resource: TwinResource, stored: Stored): Record<string, unknown> {
  return { id: stored.object.id, object: resource.objectName ?? 'object', deleted: true };
}

/**
 * A `GET` of a path of the flows' `views`: the collection it shows, the operation there it is
 * (its list, or its read of the path's last id), and the fields its items must have.
 */
export function viewOf(twin: Twin, matched: MatchedOperation): Viewed | undefined {
  const views = twin.parts.flows?.views;
  if (views === undefined || matched.op.method !== 'GET') return undefined;
  const template = matched.op.template;
  const key = Object.hasOwn(views, template) ? template : template.slice(0, template.lastIndexOf('/'));
  const view = Object.hasOwn(views, key) ? views[key] : undefined;
  const target = twin.parts.model.resources.find((one) => one.template === view?.of);
  if (view === undefined || target === undefined) return undefined;
  const action = key === template ? 'list' : 'read';
  const op = twin.parts.model.operations.find((one) => one.resource === target && one.action === action);
  if (op === undefined) return undefined;
  const where = Object.entries(view.where).map(([field, param]): [string, string] => [
    field,
    matched.values[param] ?? '',
  ]);
  const id = matched.values[matched.op.params.at(-1) ?? ''] ?? '';
  return {
    asked: matched,
    matched: { op, values: action === 'read' ? { [target.idParam]: id } : {} },
    target,
    where,
  };
}

/** A view's list (its items, paged as the collection's) or read (`404` for an item not in it). */
export async function viewed(twin: Twin, seen: Viewed, params: TwinParams, request: TwinRequest): Promise<TwinAnswer> {
  const { matched, target, where } = seen;
  // Below an object the twin does not hold (`/v1/customers/cus_x/payment_methods`): its 404.
  const owner = ownerOf(twin, seen.asked);
  if (owner !== undefined && owner !== target) await heldOrMissing(twin, seen.asked, owner);
  if (matched.op.action === 'list') return list(twin, matched, target, params, request, where);
  const id = matched.values[target.idParam] as string;
  const stored = (await storedOf(twin, target))?.find(
    (item) => item.id === id && !item.deleted && where.every(([field, value]) => item.object[field] === value),
  );
  if (stored !== undefined) return jsonAnswer(200, shownOf(twin, target, await view(twin, target, stored)));
  if (!twin.examples) throw new Refusal(missing(twin, target, id));
  const { status, value } = exampleOfOperation(twin, matched);
  return jsonAnswer(status, value);
}
