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
 * of a name without one asks the store nothing more (as many names as the
 * signature checks' cache: a "none" is cheap). Compiled schemas are bounded
 * apart (one such as GitHub's takes tens of MB): past {@link maxMocks} the least
 * recently set is forgotten, and compiled again when asked.
 */
export class GraphqlMockCache {
  readonly maxMocks: number;
  readonly maxNames: number;
  readonly #entries = new Map<string, GraphqlMock | null>();
  #mocks = 0;

  constructor(maxMocks = 64, maxNames = 100_000) {
    this.maxMocks = maxMocks;
    this.maxNames = maxNames;
  }

  /** The mock, `null` for "no schema", `undefined` when not known here. */
  get(name: string): GraphqlMock | null | undefined {
    return this.#entries.get(name);
  }

  set(name: string, mock: GraphqlMock | null): void {
    this.delete(name);
    this.#entries.set(name, mock);
    if (mock !== null && ++this.#mocks > this.maxMocks) {
      for (const [key, value] of this.#entries) {
        if (value !== null) {
          this.delete(key);
          break;
        }
      }
    }
    if (this.#entries.size > this.maxNames) this.delete(this.#entries.keys().next().value as string);
  }

  delete(name: string): void {
    const had = this.#entries.get(name);
    if (had !== undefined && had !== null) this.#mocks--;
    this.#entries.delete(name);
  }

  clear(): void {
    this.#entries.clear();
    this.#mocks = 0;
  }
}
