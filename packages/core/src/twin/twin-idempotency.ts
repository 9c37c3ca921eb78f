/**
 * Idempotency keys (Stripe's `Idempotency-Key`): the first answer to a key is
 * kept; the same key with the same request answers it again (with the profile's
 * `idempotencyReplayedHeader`, `true`: Stripe's `Idempotent-Replayed`); the same key with another request is refused
 * (`idempotency_error`). Kept in the name's collections (`_idempotency`), the
 * newest {@link MAX_KEYS}.
 *
 * @module
 */
import type { CollectionLimits } from '../collections/collection-input.js';
import type { CollectionStore } from '../collections/collection-store.js';
import { collectionBytes, type Item, itemBytes, itemOf } from '../collections/item.js';
import type { TwinAnswer } from './twin-answer.js';

const COLLECTION = '_idempotency';
const MAX_KEYS = 1000;
const MAX_KEY_LENGTH = 255;

interface KeptAnswer {
  key: string;
  request: string;
  answer: TwinAnswer;
}

export class IdempotencyKeys {
  readonly #collections: CollectionStore;
  readonly #name: string;
  readonly #limits: CollectionLimits | undefined;
  readonly #replayed: string | undefined;

  /** `replayed`: the header a replayed answer carries, `true`; none for none. */
  constructor(collections: CollectionStore, name: string, limits?: CollectionLimits, replayed?: string) {
    this.#collections = collections;
    this.#name = name;
    this.#limits = limits;
    this.#replayed = replayed;
  }

  /** The kept answer of `key` for `request`, or `run()`'s, kept. */
  async once(
    key: string,
    request: string,
    run: () => Promise<TwinAnswer>,
    refuse: (message: string) => TwinAnswer,
  ): Promise<TwinAnswer> {
    const kept = (await this.#collections.get(this.#name))
      .get(COLLECTION)
      ?.map((item) => item.value as unknown as KeptAnswer)
      .find((entry) => entry.key === key);
    if (kept !== undefined) {
      if (kept.request !== request) return refuse(REUSED);
      if (this.#replayed === undefined) return kept.answer;
      return { ...kept.answer, headers: { ...kept.answer.headers, [this.#replayed]: 'true' } };
    }
    if (key.length > MAX_KEY_LENGTH) return refuse(`Idempotency keys are at most ${MAX_KEY_LENGTH} characters.`);
    const answer = await run();
    if (answer.status >= 500) return answer;
    const entry: KeptAnswer = { key, request, answer };
    const item = itemOf(JSON.stringify(entry));
    await this.#collections.update(this.#name, COLLECTION, (items) => rolling(items, item, MAX_KEYS, this.#limits));
    return answer;
  }
}

const REUSED =
  'Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than the one used in the original request.';

/**
 * The change that keeps `item` as the newest of a rolling collection (events,
 * idempotency answers): the oldest dropped past `most` items or past the
 * limits' bytes; an item larger than the limits alone is not kept.
 */
export function rolling(
  items: readonly Item[] | undefined,
  item: Item,
  most: number,
  limits: CollectionLimits | undefined,
): { edit?: { append: Item } | { put: Item[] }; result: undefined } {
  const all = items ?? [];
  const cap = Math.min(most, limits?.maxCollectionItems ?? most);
  const budget = limits?.maxCollectionBytes ?? Number.POSITIVE_INFINITY;
  const own = itemBytes(item) + 2;
  if (own > budget) return { result: undefined };
  if (all.length < cap && collectionBytes(all) + own <= budget) return { edit: { append: item }, result: undefined };
  // The newest `cap - 1` and `item`, when they fit (the size is known per array: no pass over them).
  const newest = Math.max(0, all.length - (cap - 1));
  if (newest > 0 && collectionBytes(all) + own <= budget) {
    return { edit: { put: all.slice(newest).concat([item]) }, result: undefined };
  }
  // Else newest first, kept while they fit.
  let bytes = own;
  let from = all.length;
  while (from > 0 && all.length - from < cap - 1) {
    const size = itemBytes(all[from - 1] as Item) + 1;
    if (bytes + size > budget) break;
    bytes += size;
    from--;
  }
  return { edit: { put: [...all.slice(from), item] }, result: undefined };
}
