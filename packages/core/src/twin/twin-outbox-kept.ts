/**
 * What a twin still has to hand to the delivery engine, kept in the twin's own
 * collections (`_outbox`) so that it survives a crash (#71 M4). A change that
 * emits events with subscribers appends one entry, in its turn and before it
 * answers, with the same store and limits as the twin's other collections. An
 * entry holds references, not copies: each event's id (its text stays in the
 * events collection) and its receivers' `url` and `secret`, so a 4 MB event to
 * 16 endpoints keeps a few hundred bytes here (a twin that keeps no events,
 * GitHub's, keeps each event's text once, however many receive it). Once the entry's deliveries are
 * all handed off, {@link OutboxRelease} removes it, off the request path; an
 * engine made after a restart hands off what is left, in order
 * (twin-table.ts). A delivery handed off just before a kill may be handed again
 * after the restart (at least once, as Stripe and GitHub deliver).
 *
 * @module
 */
import { type CollectionLimits, checkCollectionSize } from '../collections/collection-input.js';
import type { CollectionStore, Collections } from '../collections/collection-store.js';
import { itemOf } from '../collections/item.js';

/** The collection a twin's outbox is kept in. */
export const OUTBOX = '_outbox';

/** A receiver of an event, as the provider's flows name it. */
export interface KeptTarget {
  url: unknown;
  secret: unknown;
  /** Headers its deliveries carry of it (GitHub's `X-GitHub-Hook-ID`). */
  headers?: Record<string, string>;
}

/** One event of a change and the receivers it goes to. */
export interface KeptEvent {
  /** The event's id in the twin's events collection. */
  id: string;
  type: string;
  to: KeptTarget[];
  /** The headers its deliveries carry of it (GitHub's `X-GitHub-Event`, its repository's id). */
  headers?: Record<string, string>;
  /** The event's text, when the twin keeps no events collection (GitHub's). */
  data?: string;
}

/** One change's deliveries not yet handed off. */
export interface KeptChange {
  /** Unique in the twin. */
  id: string;
  events: KeptEvent[];
}

/** Appends `change` to `name`'s outbox, held to `limits` (`COLLECTION_TOO_LARGE` past them). */
export async function keepChange(
  collections: CollectionStore,
  name: string,
  change: KeptChange,
  limits: CollectionLimits | undefined,
): Promise<void> {
  const item = itemOf(JSON.stringify(change));
  await collections.update(name, OUTBOX, (items) => {
    if (limits !== undefined) checkCollectionSize(OUTBOX, items ?? [], limits, { at: -1, item });
    return { edit: { append: item }, result: undefined };
  });
}

/** The changes `collections` (a twin's) still has to hand off, oldest first. */
export function keptChanges(collections: Collections): KeptChange[] {
  return (collections.get(OUTBOX) ?? []).map((item) => item.value as unknown as KeptChange);
}

/** How long a removal waits for more to write with it. */
const GATHER_MS = 25;

/**
 * Removes handed-off entries, off the request path: the ids released while a
 * removal is written go in the next one, so a busy twin writes one removal per
 * batch, not one per change. A removal that fails leaves its entries, to be
 * handed again after a restart (at least once).
 */
export class OutboxRelease {
  readonly #collections: CollectionStore;
  /** Per name, the ids to remove. */
  readonly #due = new Map<string, Set<string>>();
  readonly #writing = new Set<string>();
  #idle: (() => void)[] = [];

  constructor(collections: CollectionStore) {
    this.#collections = collections;
  }

  /** Whether removals are due or being written. */
  get busy(): boolean {
    return this.#writing.size > 0;
  }

  /** Removes the entry `id` of `name`'s outbox (soon). */
  release(name: string, id: string): void {
    let due = this.#due.get(name);
    if (due === undefined) {
      due = new Set();
      this.#due.set(name, due);
    }
    due.add(id);
    if (!this.#writing.has(name)) void this.#write(name);
  }

  /** Resolves once every due removal is written. */
  settled(): Promise<void> {
    if (!this.busy) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  async #write(name: string): Promise<void> {
    this.#writing.add(name);
    // A short wait gathers the ids of the changes handed off meanwhile: a twin taking one change after
    // another writes one removal for several, not one between each two of its changes.
    await new Promise((resolve) => setTimeout(resolve, GATHER_MS));
    for (let due = this.#due.get(name); due !== undefined; due = this.#due.get(name)) {
      this.#due.delete(name);
      const ids = due;
      try {
        await this.#collections.update(name, OUTBOX, (items) => {
          if (items === undefined) return { result: undefined };
          const left = items.filter((item) => !ids.has((item.value as unknown as KeptChange).id));
          if (left.length === items.length) return { result: undefined };
          // One entry (a quiet twin's usual case) is removed where it stands, not by writing the rest again.
          const at =
            items.length - left.length === 1
              ? items.findIndex((item) => ids.has((item.value as unknown as KeptChange).id))
              : -1;
          return { edit: at === -1 ? { put: left } : { remove: at }, result: undefined };
        });
      } catch {
        // Kept: handed again after a restart.
      }
    }
    this.#writing.delete(name);
    if (!this.busy) for (const wake of this.#idle.splice(0)) wake();
  }
}
