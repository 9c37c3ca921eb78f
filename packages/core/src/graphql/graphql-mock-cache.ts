/**
 * The stored GraphQL schemas by endpoint name, in front of the store (as
 * `answer/routes/route-cache.ts` is for route tables): each is read once per
 * change, and the {@link GraphqlRunner} builds it once per stored version and
 * holds it while it is held here (a name let go here is let go there).
 *
 * @module
 */
import type { StoredGraphqlSchema } from './graphql-runner.js';

/**
 * The schemas known here by name, `null` remembering "no schema" so the read path
 * of a name without one asks the store nothing more (as many names as the
 * signature checks' cache: a "none" is cheap). Schemas are bounded apart (one
 * such as GitHub's takes tens of MB once built): past {@link maxMocks} the least
 * recently set is forgotten (and let go by the runner), and built again when asked.
 */
export class GraphqlMockCache {
  readonly maxMocks: number;
  readonly maxNames: number;
  readonly #entries = new Map<string, StoredGraphqlSchema | null>();
  readonly #forgot: (name: string | undefined) => void;
  #mocks = 0;

  /** `forgot`: told each name whose schema is let go (every name: `undefined`), so what was built for it goes too. */
  constructor(maxMocks = 64, maxNames = 100_000, forgot: (name: string | undefined) => void = () => undefined) {
    this.maxMocks = maxMocks;
    this.maxNames = maxNames;
    this.#forgot = forgot;
  }

  /** The mock, `null` for "no schema", `undefined` when not known here. */
  get(name: string): StoredGraphqlSchema | null | undefined {
    return this.#entries.get(name);
  }

  set(name: string, mock: StoredGraphqlSchema | null): void {
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
    this.#entries.delete(name);
    if (had !== undefined && had !== null) {
      this.#mocks--;
      this.#forgot(name);
    }
  }

  clear(): void {
    this.#entries.clear();
    this.#mocks = 0;
    this.#forgot(undefined);
  }
}
