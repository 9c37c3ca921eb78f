/**
 * A model's collections and reads by path template, built once per model (a model is made once per
 * twin and never changes): the item template of each collection (`/repos/{owner}/{repo}/issues/{issue_number}`)
 * and the `GET` of each template, so a write's path is placed by a lookup per template, not a scan
 * of the model's resources and operations (twin-unheld-writes.ts, twin-references.ts).
 *
 * @module
 */
import type { TwinModel } from './twin-model.js';
import type { TwinOperation, TwinResource } from './twin-operation.js';

/** The model's collections by their item's template, and its reads by template. */
export interface PathIndex {
  items: ReadonlyMap<string, TwinResource>;
  reads: ReadonlyMap<string, TwinOperation>;
}

const INDEXES = new WeakMap<TwinModel, PathIndex>();

/** `model`'s index, built on its first use. */
export function pathIndex(model: TwinModel): PathIndex {
  const known = INDEXES.get(model);
  if (known !== undefined) return known;
  const items = new Map<string, TwinResource>();
  // The first collection of an item template, as a scan in the model's order finds it.
  for (const resource of model.resources) {
    const item = `${resource.template}/{${resource.idParam}}`;
    if (!items.has(item)) items.set(item, resource);
  }
  const reads = new Map<string, TwinOperation>();
  for (const op of model.operations) if (op.method === 'GET' && !reads.has(op.template)) reads.set(op.template, op);
  const index = { items, reads };
  INDEXES.set(model, index);
  return index;
}
