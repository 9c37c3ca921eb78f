/**
 * A twin's writes (twin-engine.ts): a create (the document's example with what was sent, a new id,
 * the clock's timestamps, what the flows make of it), an update of the stored object, a delete;
 * each stored, held to the constraints (twin-constraints.ts), and its events emitted.
 *
 * @module
 */
import { itemOf } from '../collections/item.js';
import { type Asked, isRecord, jsonAnswer, Refusal, type TwinAnswer } from './twin-answer.js';
import type { TwinParams } from './twin-body.js';
import { changeStored, checkSent, subscriptionLimit, taken, withRoom } from './twin-constraints.js';
import { errorAnswer, newId, shownOf, stamp, type Twin } from './twin-context.js';
import { exampleOfOperation, fieldsOf, filled, wrapped } from './twin-documented.js';
import { emit } from './twin-events.js';
import type { Schema } from './twin-example.js';
import { flowKit, settle, statesOf, type Written, written } from './twin-kit.js';
import { missing } from './twin-missing.js';
import type { MatchedOperation, TwinResource } from './twin-operation.js';
import { responseSchema } from './twin-outside.js';
import { previousAttributes } from './twin-previous.js';
import { tombstone, view } from './twin-reads.js';
import { checkReferences, heldOrMissing, memberTarget, ownerOf } from './twin-references.js';
import { sharing } from './twin-related.js';
import { keyField, nextNumber, pathScope, picked, type Stored, sameKey, storedOf, whichOf } from './twin-stored.js';

export async function create(
  twin: Twin,
  matched: MatchedOperation,
  resource: TwinResource,
  params: TwinParams,
  asked: Asked,
): Promise<TwinAnswer> {
  const { parts } = twin;
  // Below an object the twin does not hold (`/v1/customers/cus_x/tax_ids`): the provider's 404.
  const parent = ownerOf(twin, matched);
  if (parent !== undefined && parent !== resource) await heldOrMissing(twin, matched, parent);
  checkSent(twin, resource, params.body, false);
  await checkReferences(twin, matched, params.body);
  const { status, value } = exampleOfOperation(twin, matched);
  const object = (isRecord(value) ? value : {}) as Record<string, unknown>;
  const fields = fieldsOf(twin, matched);
  apply(twin, object, params.body, fields);
  filled(twin, object, fields);
  const sequence = sequential(twin, object);
  object.id = newId(parts, resource.prefix);
  for (const field of parts.profile.timestamps.created) if (field in object) object[field] = stamp(twin, object[field]);
  for (const field of parts.profile.timestamps.updated) if (field in object) object[field] = stamp(twin, object[field]);
  const into = written();
  const kit = flowKit(twin, into, asked.version, matched.values);
  const early = await parts.flows?.creating?.(resource.template, object, params.body, kit);
  if (early !== undefined) throw new Refusal(early);
  const refused = parts.flows?.created?.(resource.template, object, params.body, kit);
  const scope = pathScope(matched, resource);
  // The collections numbering with this one (the profile's `within`): read before the write,
  // which runs in the name's turn, so no change of theirs comes between.
  const shares = sharing(twin.related, resource);
  const read = shares.length === 0 ? undefined : await parts.collections.get(parts.name);
  const shared = shares.flatMap((one) => read?.get(one.key) ?? []);
  const made = await withRoom(
    twin,
    resource.key,
    (items) => {
      // A sequence's next number is taken inside the change, so that two creates never share one.
      const kept = sequence ? { ...object, id: nextNumber(items) } : object;
      const field = keyField(twin, resource);
      // GitHub's issue `number` counts per repository (the scope), apart from the global `id`.
      if (field === 'number') kept.number = Math.max(nextNumber(items, scope), nextNumber(shared, scope));
      parts.flows?.keyed?.(resource.template, kept, matched.shown ?? matched.values, asked.root);
      const key = kept[field];
      if (field !== 'id' && (items ?? []).some((item) => sameKey(item.value, scope, String(key)))) {
        throw new Refusal(taken(resource, field));
      }
      // Counted in the change, so that two creates at once never pass the provider's limit.
      const over = subscriptionLimit(twin, resource, items, scope, kept);
      if (over !== undefined) throw new Refusal(over);
      const stored: Stored = { id: String(key), scope, deleted: false, object: kept };
      // Held to the daemon's collection limits, and room made where the twin is full, by withRoom.
      return { edit: { append: itemOf(JSON.stringify(stored)) }, result: kept };
    },
    'refuse',
  );
  await settle(twin, into, false, asked);
  await emit(
    twin,
    {
      kind: 'created',
      template: resource.template,
      object: made,
      values: matched.values,
      ...statesOf(into, String(made.id)),
    },
    asked,
  );
  await settle(twin, into, true, asked);
  if (refused !== undefined) throw new Refusal(refused);
  return jsonAnswer(parts.profile.createStatus ?? status, wrapped(twin, matched, shownOf(twin, resource, made)));
}

export async function update(
  twin: Twin,
  matched: MatchedOperation,
  resource: TwinResource,
  params: TwinParams,
  asked: Asked,
  asMember = false,
): Promise<TwinAnswer> {
  const { parts } = twin;
  checkSent(twin, resource, params.body, true);
  await checkReferences(twin, matched, params.body);
  const fields = fieldsOf(twin, matched);
  // What the provider's flows write beside the update (Stripe's proration invoice items): kept
  // with it, before or after its events as each says; dropped when the update is not made.
  const into = written();
  const body = await amended(twin, matched, resource, params.body, into, asked);
  let before: unknown;
  let previous: Record<string, unknown> = {};
  const changed = await changeStored(
    twin,
    resource,
    whichOf(twin, matched, resource),
    (stored, was) => {
      before = stored.object.state;
      const field = keyField(twin, resource);
      const hadKey = field in stored.object;
      const keyBefore = stored.object[field];
      apply(twin, stored.object, body, fields);
      // The body never moves an item (a GitHub issue's `number` sent in a PATCH is not taken): only a flow does.
      if (hadKey) stored.object[field] = keyBefore;
      else delete stored.object[field];
      parts.flows?.updating?.(resource.template, stored.object, before, twin.tools, body);
      for (const name of parts.profile.timestamps.updated) {
        if (name in stored.object) stored.object[name] = stamp(twin, stored.object[name]);
      }
      previous = previousAttributes(was.object, stored.object);
      // A flow that changes the key field (GitHub's label `new_name`) moves the item to it.
      const key = stored.object[field];
      if (field !== 'id' && key !== keyBefore && (typeof key === 'string' || typeof key === 'number')) {
        stored.id = String(key);
      }
      return stored;
    },
    true,
  );
  if (changed !== undefined) {
    const object = await view(twin, resource, changed);
    const { template } = resource;
    await settle(twin, into, false, asked);
    await emit(twin, { kind: 'updated', template, object, before, previous, values: matched.values }, asked);
    await settle(twin, into, true, asked);
    const shown = shownOf(twin, resource, object);
    // Changed through its host's path (a pull request's `…/issues/{n}`): answered as one of the host.
    return jsonAnswer(
      200,
      asMember ? (parts.flows?.member?.(template, shown) ?? shown) : wrapped(twin, matched, shown),
    );
  }
  // Not held: a collection `within` it may hold that number (read only now, not on every update).
  const member = asMember ? undefined : await memberTarget(twin, matched, resource);
  if (member !== undefined) return update(twin, member.matched, member.resource, params, asked, true);
  if (!twin.examples) throw new Refusal(missing(twin, resource, matched.values[resource.idParam] as string));
  const { status, value } = exampleOfOperation(twin, matched);
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    apply(twin, value as Record<string, unknown>, params.body, fields);
  }
  return jsonAnswer(status, wrapped(twin, matched, value));
}

/**
 * What an update of a stored object applies: `sent`, or what the provider's flows make of it,
 * in the request's API version; what they write goes `into` the update's effects.
 */
async function amended(
  twin: Twin,
  matched: MatchedOperation,
  resource: TwinResource,
  sent: Record<string, unknown>,
  into: Written,
  asked: Asked,
): Promise<Record<string, unknown>> {
  const amending = twin.parts.flows?.amending;
  if (amending === undefined) return sent;
  const stored = await picked(twin, resource, whichOf(twin, matched, resource));
  if (stored === undefined || stored.deleted) return sent;
  const outcome = await amending(
    resource.template,
    structuredClone(stored.object),
    sent,
    flowKit(twin, into, asked.version, matched.values),
  );
  if (outcome !== undefined && 'error' in outcome) throw new Refusal(outcome.error);
  return outcome?.sent ?? sent;
}

export async function deleteOne(
  twin: Twin,
  matched: MatchedOperation,
  resource: TwinResource,
  asked: Asked,
): Promise<TwinAnswer> {
  const id = matched.values[resource.idParam] as string;
  const removed = await changeStored(twin, resource, whichOf(twin, matched, resource), (stored) => ({
    ...stored,
    deleted: true,
  }));
  if (removed !== undefined)
    await emit(
      twin,
      { kind: 'deleted', template: resource.template, object: removed.object, values: matched.values },
      asked,
    );
  if (removed === undefined && !twin.examples) return errorAnswer(twin, missing(twin, resource, id));
  // An id never made, with `unseen: "examples"`: deleted as a read of it answers it, from the example.
  if (twin.parts.profile.deleted === 'document') return documentedDeletion(twin, matched);
  if (twin.parts.profile.deleted === 'no-content') {
    return removed === undefined && (await storedOf(twin, resource)) !== undefined
      ? errorAnswer(twin, missing(twin, resource, id))
      : { status: 204, headers: {}, body: '' };
  }
  if (removed !== undefined) return jsonAnswer(200, tombstone(resource, removed));
  const { status, value } = exampleOfOperation(twin, matched);
  return jsonAnswer(status, value);
}

/**
 * `object` with what was sent: each sent field the object has kept exact,
 * `metadata` merged (an empty value removes a key).
 */
function apply(
  twin: Twin,
  object: Record<string, unknown>,
  sent: Record<string, unknown>,
  fields: Map<string, Schema> | undefined,
): void {
  const { profile } = twin.parts;
  for (const [key, value] of Object.entries(sent)) {
    if (key === profile.expand) continue;
    if (fields !== undefined && !fields.has(key)) continue;
    // An empty `metadata` clears every key (Stripe: "post an empty value to metadata").
    if (key === 'metadata' && value === '') object.metadata = {};
    else if (key === 'metadata' && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      const merged = { ...((object.metadata as Record<string, unknown> | null) ?? {}) };
      for (const [name, text] of Object.entries(value)) {
        if (text === '') delete merged[name];
        else merged[name] = text;
      }
      object.metadata = merged;
    } else if (
      typeof value === 'string' &&
      value !== '' &&
      twin.parts.flows === undefined &&
      objectTyped(fields?.get(key))
    ) {
      // Text where the answer holds an object (a multipart file part's name, where the schema
      // describes the file): the object made from the schema stays, valid against it. A
      // provider's own flows read such text themselves (a login sent for an `assignee`).
    } else {
      object[key] = value === '' && profile.body === 'form' ? null : value;
    }
  }
}

/** Whether a member's schema types it as an object or an array only. */
function objectTyped(schema: Schema | undefined): boolean {
  const type = schema?.type;
  return type === 'object' || type === 'array';
}

/** Whether ids count 1, 2, 3: the profile says so, or (`auto`) the document's id is a number. */
function sequential(twin: Twin, example: Record<string, unknown>): boolean {
  const style = twin.parts.profile.ids.style;
  return style === 'sequence' || (style === 'auto' && typeof example.id === 'number');
}

/**
 * What the document's DELETE answers: its success status; where it describes a body, its example
 * with the path's id and `deleted: true` where the schema has a `deleted` member (OpenAI's
 * `{ id, object: "file", deleted: true }`); where it describes none, no body.
 */
function documentedDeletion(twin: Twin, matched: MatchedOperation): TwinAnswer {
  const { schema } = responseSchema(twin.parts.model.doc, matched.op.operation);
  const { status, value } = exampleOfOperation(twin, matched);
  if (schema === undefined) return { status, headers: {}, body: '' };
  if (isRecord(value) && 'deleted' in value) value.deleted = true;
  return jsonAnswer(status, value);
}
