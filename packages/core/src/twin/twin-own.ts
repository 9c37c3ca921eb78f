/**
 * What a provider's flows keep of their own beside the collections the document's paths make
 * (GitHub's repositories by name, git refs, contents: paths with no `P/{id}` shape, or keyed by
 * what no path id reads): records by key, of a kind, in the name's collections (`_own-{kind}`),
 * so per name and namespace, on every store, reset and deleted with the twin, and held to the
 * limits of a collection write. A flow's writes run in the name's turn (twin-engine.ts).
 *
 * @module
 */
import type { CollectionStore, Collections } from '../collections/collection-store.js';
import { type Item, itemOf } from '../collections/item.js';
import type { FlowState, FlowTools, TwinChange } from './twin-flows.js';

/** Most records of one kind. */
const MAX_RECORDS = 10_000;

/** How one record is kept: its key and the flow's record. */
interface OwnItem {
  key: string;
  record: object;
}

/** What a flow's state needs of the engine. */
export interface OwnParts {
  collections: CollectionStore;
  name: string;
  tools: FlowTools;
  examples: boolean;
  example(method: string, template: string): Record<string, unknown>;
  /** Refuses a write past the limits of a collection write (the provider's own error). */
  fits(collection: string, items: readonly Item[] | undefined, replace: { at: number; item: Item }): void;
  /** The provider's refusal of one record past {@link MAX_RECORDS}. */
  full(message: string): Error;
  /** Where the changes the flows tell ({@link FlowState.emit}) gather, emitted after their answer. */
  changes: TwinChange[];
  /** The name's collections as read once already, which `read` reads (`undefined`: read them anew). */
  read?: Collections;
  /** The live objects of the collection at `template` in the scope `values` name, oldest first. */
  objects(template: string, values: Record<string, string>): Promise<Record<string, unknown>[]>;
  /** The live objects of the collection at `template` in every scope, by scope, as a read answers them. */
  objectsByScope(template: string): Promise<Map<string, Record<string, unknown>[]>>;
  /** Changes one live object of the collection at `template` in place ({@link FlowState.amend}). */
  amend: FlowState['amend'];
  /** What the flows derive from the whole state, kept while it stays as it is ({@link FlowState.derived}). */
  derived: FlowState['derived'];
}

/** The collection a kind is kept in (`repos` → `_own-repos`). */
function collectionOf(kind: string): string {
  return `_own-${kind.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 59)}`;
}

/** The state a flow keeps, over `parts`' collections. */
export function ownState(parts: OwnParts): FlowState {
  return {
    ...parts.tools,
    examples: parts.examples,
    example: (method, template) => parts.example(method, template),
    objects: (template, values) => parts.objects(template, values),
    objectsByScope: (template) => parts.objectsByScope(template),
    amend: (template, values, id, edit) => parts.amend(template, values, id, edit),
    derived: (key, build) => parts.derived(key, build),
    emit(change) {
      parts.changes.push(change);
    },
    async read<T extends object>(kind: string) {
      const read = parts.read ?? (await parts.collections.get(parts.name));
      const items = (read.get(collectionOf(kind)) ?? []).map((item) => item.value as unknown as OwnItem);
      return new Map(items.map((item) => [item.key, item.record as T]));
    },
    async keep(kind, key, record) {
      const collection = collectionOf(kind);
      await parts.collections.update(parts.name, collection, (items) => {
        const at = (items ?? []).findIndex((item) => (item.value as unknown as OwnItem).key === key);
        if (record === undefined)
          return at === -1 ? { result: undefined } : { edit: { remove: at }, result: undefined };
        const item = itemOf(JSON.stringify({ key, record } satisfies OwnItem));
        if (at === -1 && (items?.length ?? 0) >= MAX_RECORDS) {
          throw parts.full(`This twin keeps at most ${MAX_RECORDS} of its ${kind}.`);
        }
        parts.fits(collection, items, { at, item });
        return { edit: at === -1 ? { append: item } : { set: at, item }, result: undefined };
      });
    },
  };
}
