/**
 * The compiled GraphQL mocks by endpoint name, in front of the store (as
 * `answer/routes/route-cache.ts` is for route tables): a schema is built and
 * its mocks made once per stored version, not per request.
 *
 * @module
 */
import type { GraphqlMock } from './graphql-mock.js';

/**
 * The mocks known here by name, `null` remembering "no schema" so the read path
 * of a name without one asks the store nothing more. Bounded by count (a schema
 * such as GitHub's takes tens of MB compiled): past {@link maxNames} the least
 * recently set are forgotten, and compiled again when asked.
 */
export class GraphqlMockCache {
  readonly maxNames: number;
  readonly #entries = new Map<string, GraphqlMock | null>();

  constructor(maxNames = 64) {
    this.maxNames = maxNames;
  }

  /** The mock, `null` for "no schema", `undefined` when not known here. */
  get(name: string): GraphqlMock | null | undefined {
    return this.#entries.get(name);
  }

  set(name: string, mock: GraphqlMock | null): void {
    this.#entries.delete(name);
    this.#entries.set(name, mock);
    if (this.#entries.size > this.maxNames) {
      // Forget a compiled schema first: a "none" is cheap to keep.
      let oldest: string | undefined;
      for (const [key, value] of this.#entries) {
        if (value !== null) {
          oldest = key;
          break;
        }
      }
      this.#entries.delete(oldest ?? (this.#entries.keys().next().value as string));
    }
  }

  delete(name: string): void {
    this.#entries.delete(name);
  }

  clear(): void {
    this.#entries.clear();
  }
}
