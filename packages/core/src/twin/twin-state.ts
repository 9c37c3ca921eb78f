/**
 * What the provider's flows keep of their own (twin-own.ts), over the twin's collections: the
 * objects they read of its collections, the examples they take, the one object they amend in place.
 *
 * @module
 */
import type { Collections } from '../collections/collection-store.js';
import { Refusal } from './twin-answer.js';
import { changeStored, fits } from './twin-constraints.js';
import type { Twin } from './twin-context.js';
import { operationExample } from './twin-documented.js';
import type { FlowState, TwinChange } from './twin-flows.js';
import { ownState } from './twin-own.js';
import { counted } from './twin-related.js';
import { type Stored, scopedObjects, scopeOf, storedOf } from './twin-stored.js';

/**
 * What the provider's flows keep of their own, in the name's collections; `changes` gathers what
 * they tell; `read`, the collections read once already, is what a flow that only reads reads.
 */
export function flowState(twin: Twin, changes: TwinChange[] = [], read?: Collections): FlowState {
  const { parts } = twin;
  return ownState({
    collections: parts.collections,
    name: parts.name,
    tools: twin.tools,
    examples: twin.examples,
    changes,
    ...(read === undefined ? {} : { read }),
    objects: (template, values) => scopedObjects(twin, template, values, read),
    objectsByScope: async (template) => {
      const byScope = new Map<string, Record<string, unknown>[]>();
      const resource = parts.model.resources.find((one) => one.template === template);
      if (resource === undefined) return byScope;
      const collections = read ?? (await parts.collections.get(parts.name));
      const live = ((await storedOf(twin, resource, collections)) ?? []).filter((item) => !item.deleted);
      const objects = counted(twin.related, resource, live, collections);
      for (const [index, item] of live.entries()) {
        const list = byScope.get(item.scope) ?? [];
        list.push(objects[index] as Record<string, unknown>);
        byScope.set(item.scope, list);
      }
      return byScope;
    },
    example: (method, template) => operationExample(twin, method, template),
    amend: async (template, values, id, edit) => {
      const resource = parts.model.resources.find((one) => one.template === template);
      if (resource === undefined) return undefined;
      const scope = scopeOf(resource, values);
      const which = (stored: Stored) => !stored.deleted && stored.id === id && stored.scope === scope;
      const changed = await changeStored(twin, resource, which, (stored) => {
        edit(stored.object);
        return stored;
      });
      return changed?.object;
    },
    fits: (collection, items, replace) => fits(twin, collection, items, replace),
    full: (message) => new Refusal({ status: 400, type: 'invalid_request_error', message }),
  });
}
