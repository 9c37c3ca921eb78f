/**
 * The collections of every endpoint in this process's memory; with a
 * {@link CollectionLog} every change is also written through to it (the
 * LevelDB store gives one) before it is acknowledged, and what the log holds
 * is loaded at open. In the log, each item is one key (its collection's
 * position sequence), so a POST writes one item, not its whole collection; a
 * seed is one key holding the seed's items as a JSON array.
 *
 * @module
 */

import { innerMap } from '../../cache/inner-map.js';
import type { ChangeFn, CollectionStore, Collections, Edit } from '../../collections/collection-store.js';
import { checkCollectionName } from '../../collections/collection-store.js';
import { applyEdit, collectionText, type Item, itemsOf, keptRun, storedItemOf } from '../../collections/item.js';
import { type WriteLog, WriteThroughStore } from '../change-gate.js';

/** Where a {@link MemoryCollectionStore} writes through to, for durability. */
export type CollectionLog = WriteLog;

/** One key of a {@link CollectionLog} batch. */
export type LogChange = Parameters<WriteLog['write']>[0][number];

/** One collection: its items and each one's position sequence (the key of its log entry). */
interface Held {
  items: readonly Item[];
  sequences: readonly number[];
  /** The next sequence to give. */
  next: number;
}

/** A collection while the log is read at open. */
interface Filling extends Held {
  items: Item[];
  sequences: number[];
}

const SEP = '\u0000';

function itemKey(name: string, collection: string, sequence: number): string {
  return `i${SEP}${name}${SEP}${collection}${SEP}${sequence.toString(16).padStart(13, '0')}`;
}

function seedKey(name: string, collection: string): string {
  return `s${SEP}${name}${SEP}${collection}`;
}

export class MemoryCollectionStore extends WriteThroughStore<CollectionLog> implements CollectionStore {
  /** Endpoint name → collection name → the collection. */
  readonly #current = new Map<string, Map<string, Held>>();
  /** Endpoint name → collection name → its seed. */
  readonly #seeds = new Map<string, Map<string, readonly Item[]>>();

  /** A store holding what `log` holds, writing through to it. */
  static async open(log: CollectionLog): Promise<MemoryCollectionStore> {
    const store = new MemoryCollectionStore({ log });
    const entries = [...(await log.load())].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const [key, value] of entries) {
      const [kind, name, collection, sequence] = key.split(SEP) as [string, string, string, string?];
      if (kind === 's') store.#seedsOf(name).set(collection, itemsOf(value));
      else if (kind === 'i' && sequence !== undefined) {
        // Filled in place while opening (nobody reads it yet): one pass, not a copy per item.
        let held = store.#collectionsOf(name).get(collection) as Filling | undefined;
        if (held === undefined) {
          held = { items: [], sequences: [], next: 0 };
          store.#collectionsOf(name).set(collection, held);
        }
        const at = Number.parseInt(sequence, 16);
        held.items.push(storedItemOf(value));
        held.sequences.push(at);
        held.next = Math.max(held.next, at + 1);
      }
    }
    return store;
  }

  #collectionsOf(name: string): Map<string, Held> {
    return innerMap(this.#current, name);
  }

  #seedsOf(name: string): Map<string, readonly Item[]> {
    return innerMap(this.#seeds, name);
  }

  async get(name: string): Promise<Collections> {
    const collections = this.#current.get(name);
    return new Map([...(collections ?? [])].map(([collection, held]) => [collection, held.items]));
  }

  async getSeed(name: string): Promise<Collections> {
    return new Map(this.#seeds.get(name) ?? []);
  }

  async update<T>(name: string, collection: string, change: ChangeFn<T>): Promise<T> {
    checkCollectionName(collection);
    return this.gate.change(name, async () => {
      const held = this.#current.get(name)?.get(collection);
      const { edit, result } = change(held?.items);
      if (edit !== undefined) await this.#apply(name, collection, held, edit);
      return result;
    });
  }

  /** Writes `edit` through to the log, then makes it the collection's state (copy on write: readers keep theirs). */
  async #apply(name: string, collection: string, held: Held | undefined, edit: Edit): Promise<void> {
    const items = held?.items ?? [];
    const sequences = held?.sequences ?? [];
    let next = held?.next ?? 0;
    const changes: LogChange[] = [];
    let after: Held;
    const run = 'put' in edit && held !== undefined ? keptRun(items, edit.put) : undefined;
    if ('put' in edit && run !== undefined) {
      // A rolling put (events, idempotency answers): the oldest items' keys deleted, the new ones
      // written, the rest left where they are (not the whole collection again at each event).
      for (const sequence of sequences.slice(0, run.from)) {
        changes.push({ key: itemKey(name, collection, sequence), value: undefined });
      }
      const fresh = putItems(changes, name, collection, run.added, next);
      next += run.added.length;
      after = { items: applyEdit(items, edit), sequences: sequences.slice(run.from).concat(fresh), next };
    } else if ('put' in edit) {
      for (const sequence of sequences) changes.push({ key: itemKey(name, collection, sequence), value: undefined });
      const fresh = putItems(changes, name, collection, edit.put, next);
      next += edit.put.length;
      // Not a rolling put (keptRun said so above): a copy, without asking it again.
      after = { items: edit.put.slice(), sequences: fresh, next };
    } else if ('append' in edit) {
      const sequence = next++;
      changes.push({ key: itemKey(name, collection, sequence), value: edit.append.text });
      after = { items: applyEdit(items, edit), sequences: sequences.concat([sequence]), next };
    } else if ('set' in edit) {
      const sequence = checkIndex(sequences, edit.set);
      changes.push({ key: itemKey(name, collection, sequence), value: edit.item.text });
      after = { items: applyEdit(items, edit), sequences, next };
    } else {
      const sequence = checkIndex(sequences, edit.remove);
      changes.push({ key: itemKey(name, collection, sequence), value: undefined });
      after = {
        items: applyEdit(items, edit),
        sequences: sequences.toSpliced(edit.remove, 1),
        next,
      };
    }
    await this.log?.write(changes);
    this.#collectionsOf(name).set(collection, after);
  }

  async seed(name: string, collections: Collections): Promise<void> {
    for (const collection of collections.keys()) checkCollectionName(collection);
    return this.gate.change(name, async () => {
      const changes = this.#dropChanges(name);
      const current = new Map<string, Held>();
      for (const [collection, items] of collections) {
        changes.push({ key: seedKey(name, collection), value: collectionText(items) });
        putItems(changes, name, collection, items, 0);
        current.set(collection, { items: [...items], sequences: items.map((_, i) => i), next: items.length });
      }
      await this.log?.write(changes);
      this.#current.set(name, current);
      this.#seeds.set(name, new Map([...collections].map(([collection, items]) => [collection, [...items]])));
    });
  }

  async seedOne(name: string, collection: string, items: readonly Item[] | undefined): Promise<void> {
    checkCollectionName(collection);
    return this.gate.change(name, async () => {
      const changes: LogChange[] = [];
      for (const sequence of this.#current.get(name)?.get(collection)?.sequences ?? []) {
        changes.push({ key: itemKey(name, collection, sequence), value: undefined });
      }
      changes.push({ key: seedKey(name, collection), value: items === undefined ? undefined : collectionText(items) });
      if (items !== undefined) putItems(changes, name, collection, items, 0);
      await this.log?.write(changes);
      if (items === undefined) {
        this.#current.get(name)?.delete(collection);
        this.#seeds.get(name)?.delete(collection);
      } else {
        this.#collectionsOf(name).set(collection, {
          items: [...items],
          sequences: items.map((_, i) => i),
          next: items.length,
        });
        this.#seedsOf(name).set(collection, [...items]);
      }
    });
  }

  reset(name: string): Promise<void> {
    return this.gate.change(name, async () => {
      const seeds = this.#seeds.get(name) ?? new Map<string, readonly Item[]>();
      const changes: LogChange[] = [];
      for (const [collection, held] of this.#current.get(name) ?? []) {
        for (const sequence of held.sequences)
          changes.push({ key: itemKey(name, collection, sequence), value: undefined });
      }
      const current = new Map<string, Held>();
      for (const [collection, items] of seeds) {
        putItems(changes, name, collection, items, 0);
        current.set(collection, { items, sequences: items.map((_, i) => i), next: items.length });
      }
      await this.log?.write(changes);
      this.#current.set(name, current);
    });
  }

  delete(name: string): Promise<boolean> {
    return this.gate.change(name, async () => {
      const had = (this.#current.get(name)?.size ?? 0) > 0 || (this.#seeds.get(name)?.size ?? 0) > 0;
      const changes = this.#dropChanges(name);
      if (changes.length > 0) await this.log?.write(changes);
      this.#current.delete(name);
      this.#seeds.delete(name);
      return had;
    });
  }

  async names(): Promise<string[]> {
    const names = new Set<string>();
    for (const [name, collections] of this.#current) if (collections.size > 0) names.add(name);
    for (const [name, seeds] of this.#seeds) if (seeds.size > 0) names.add(name);
    return [...names];
  }

  /** The log changes that remove every item and seed of `name`. */
  #dropChanges(name: string): LogChange[] {
    const changes: LogChange[] = [];
    for (const [collection, held] of this.#current.get(name) ?? []) {
      for (const sequence of held.sequences)
        changes.push({ key: itemKey(name, collection, sequence), value: undefined });
    }
    for (const collection of this.#seeds.get(name)?.keys() ?? []) {
      changes.push({ key: seedKey(name, collection), value: undefined });
    }
    return changes;
  }

  clear(): Promise<void> {
    return this.gate.clear(async () => {
      await this.log?.clear();
      this.#current.clear();
      this.#seeds.clear();
    });
  }
}

/** Adds the log changes that write `items` at sequences `first`, `first + 1`, …; returns those sequences. */
function putItems(
  changes: LogChange[],
  name: string,
  collection: string,
  items: readonly Item[],
  first: number,
): number[] {
  const sequences: number[] = [];
  for (const item of items) {
    const sequence = first + sequences.length;
    changes.push({ key: itemKey(name, collection, sequence), value: item.text });
    sequences.push(sequence);
  }
  return sequences;
}

function checkIndex(sequences: readonly number[], index: number): number {
  const sequence = sequences[index];
  if (sequence === undefined) throw new RangeError(`no item at index ${index}`);
  return sequence;
}
