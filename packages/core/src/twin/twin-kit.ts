/**
 * What one request's flows are given (twin-engine.ts), and what they wrote besides its own change:
 * other objects' changes (effects) and snapshots, stored and their events emitted, in order, before
 * or after the change asked for.
 *
 * @module
 */
import { itemOf } from '../collections/item.js';
import { type Asked, Refusal } from './twin-answer.js';
import { fits, withRoom } from './twin-constraints.js';
import type { Twin } from './twin-context.js';
import { freshObject } from './twin-documented.js';
import { emit } from './twin-events.js';
import type { FlowEffect, FlowKit, TwinChange } from './twin-flows.js';
import { previousAttributes } from './twin-previous.js';
import { flowState } from './twin-state.js';
import { findSized, keyField, liveObjects, type Stored, scopedObjects, scopeOf } from './twin-stored.js';
import { isKnownVersion, newestVersion, unknownVersion } from './twin-versions.js';

/** What one request's flows wrote besides its own change: other objects' changes, and snapshots. */
export interface Written {
  effects: FlowEffect[];
  /** By object id, by event type: the object as it was at that event ({@link FlowKit.snapshot}). */
  shots: Map<string, Record<string, Record<string, unknown>>>;
}

/** Most effects and most snapshots one request's flows write. */
export const MAX_WRITTEN = 500;

/**
 * The refusal of a request whose flows would write more than {@link MAX_WRITTEN} other objects or
 * snapshots: thrown from the flow, before anything of the request is kept (twin-engine.ts answers
 * it), not dropped in silence (a renewal whose invoice was never kept).
 */
function tooMuchWritten(twin: Twin, what: string): Refusal {
  return new Refusal({
    status: twin.parts.flows?.invalidStatus ?? 400,
    type: 'invalid_request_error',
    code: 'too_many_writes',
    message: `This request would change more than ${MAX_WRITTEN} ${what} at once; this twin bounds the work of one request, and kept nothing of it. Change fewer objects in one request (fewer items, a shorter clock advance).`,
  });
}

export function written(): Written {
  return { effects: [], shots: new Map() };
}

/**
 * The tools of one request's flows: the effects and snapshots it writes are kept in `into`; the
 * request's API version `version` (the newest when it named none).
 */
export function flowKit(twin: Twin, into: Written, version?: string, values: Record<string, string> = {}): FlowKit {
  let shots = 0;
  const { profile } = twin.parts;
  return {
    ...twin.tools,
    values,
    read: (kind) => flowState(twin).read(kind),
    version: version ?? newestVersion(profile),
    examples: twin.examples,
    checkVersion: (value, param) =>
      isKnownVersion(profile.versions, value) ? undefined : unknownVersion(profile, String(value), param),
    find: async (id) => (await findSized(twin, id))?.object,
    objects: async (template, values) => {
      const resource = twin.parts.model.resources.find((one) => one.template === template);
      if (resource === undefined) return [];
      if (values === undefined) return liveObjects(twin, resource);
      return scopedObjects(twin, template, values);
    },
    example: (template) => freshObject(twin, template),
    write: (effect) => {
      if (into.effects.length >= MAX_WRITTEN) throw tooMuchWritten(twin, 'other objects');
      into.effects.push(effect);
    },
    // A copy as a write makes one: the flow goes on changing the object.
    snapshot: (type, object) => {
      if (shots >= MAX_WRITTEN) throw tooMuchWritten(twin, 'objects in events');
      shots++;
      const id = String(object.id);
      const states = into.shots.get(id) ?? {};
      states[type] = structuredClone(object);
      into.shots.set(id, states);
    },
  };
}

/** Stores the effects a flow wrote (`after` or not) and emits their events, in order. */
export async function settle(twin: Twin, into: Written, after: boolean, asked: Asked): Promise<void> {
  const { parts } = twin;
  for (const effect of into.effects) {
    if ((effect.after === true) !== after) continue;
    const resource = parts.model.resources.find((one) => one.template === effect.template);
    if (resource === undefined) continue;
    const scoped = effect.values !== undefined;
    const id = String(effect.object[scoped ? keyField(twin, resource) : 'id']);
    const scope = scoped ? scopeOf(resource, effect.values) : '';
    const previous = await withRoom(
      twin,
      resource.key,
      (items) => {
        const stored: Stored = { id, scope, deleted: false, object: effect.object };
        const item = itemOf(JSON.stringify(stored));
        const same = (one: Stored) => one.id === id && (!scoped || (one.scope === scope && !one.deleted));
        const index =
          effect.kind === 'updated' ? (items ?? []).findIndex((one) => same(one.value as unknown as Stored)) : -1;
        if (index !== -1) {
          fits(twin, resource.key, items, { at: index, item });
          const was = items?.[index]?.value as unknown as Stored | undefined;
          return { edit: { set: index, item }, result: previousAttributes(was?.object ?? {}, effect.object) };
        }
        return { edit: { append: item }, result: undefined };
      },
      'drop',
    );
    await emit(
      twin,
      {
        kind: effect.kind,
        template: effect.template,
        object: effect.object,
        before: effect.before,
        ...(scoped ? { values: effect.values } : {}),
        ...statesOf(into, String(effect.object.id)),
        ...(previous === undefined ? {} : { previous }),
        ...(effect.events === undefined ? {} : { events: effect.events }),
      },
      asked,
    );
  }
}

/** The snapshots a request's flows took of the object `id`, as a change carries them. */
export function statesOf(into: Written, id: string): Pick<TwinChange, 'states'> {
  const states = into.shots.get(id);
  return states === undefined ? {} : { states };
}
