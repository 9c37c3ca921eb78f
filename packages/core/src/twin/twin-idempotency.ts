/**
 * Idempotency keys (Stripe's `Idempotency-Key`): the first answer to a key is
 * kept; the same key with the same request answers it again (with
 * `Idempotent-Replayed: true`); the same key with another request is refused
 * (`idempotency_error`). Kept in the name's collections (`_idempotency`), the
 * newest {@link MAX_KEYS}.
 *
 * @module
 */
import type { CollectionStore } from '../collections/collection-store.js';
import { itemOf } from '../collections/item.js';
import type { TwinAnswer } from './twin-engine.js';

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

  constructor(collections: CollectionStore, name: string) {
    this.#collections = collections;
    this.#name = name;
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
      return { ...kept.answer, headers: { ...kept.answer.headers, 'idempotent-replayed': 'true' } };
    }
    if (key.length > MAX_KEY_LENGTH) return refuse(`Idempotency keys are at most ${MAX_KEY_LENGTH} characters.`);
    const answer = await run();
    if (answer.status >= 500) return answer;
    const entry: KeptAnswer = { key, request, answer };
    await this.#collections.update(this.#name, COLLECTION, (items) => {
      const item = itemOf(JSON.stringify(entry));
      if ((items?.length ?? 0) < MAX_KEYS) return { edit: { append: item }, result: undefined };
      return { edit: { put: [...(items ?? []).slice(1 - MAX_KEYS), item] }, result: undefined };
    });
    return answer;
  }
}

const REUSED =
  'Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than the one used in the original request.';
