/**
 * The built schemas and their mocks by name, one version each, in the thread
 * that answers schema-mode operations (the GraphQL worker's, or the event loop
 * where there is none): a schema is built once per stored version. A schema
 * stored by an older version is read within today's bounds before it is built
 * (`parseGraphqlSchema`): one over them is refused, said once to the log, and
 * every operation to it answered with the refusal.
 *
 * @module
 */
import { isMockpointError, type MockpointError } from '../registry/errors.js';
import { GraphqlMock } from './graphql-mock.js';
import type { GraphqlAnswerText, GraphqlCall } from './graphql-runner.js';
import { parseGraphqlSchema } from './graphql-schema.js';

/** What a stored schema refused when loaded says happened. */
const AT_LOAD =
  'it was stored by an older version, so it is not served; put it again, split or with types implementing fewer interfaces';

type Built =
  | { readonly version: number; readonly mock: GraphqlMock }
  | { readonly version: number; readonly refused: MockpointError };

export class BuiltMocks {
  readonly #built = new Map<string, Built>();
  readonly #maxMocks: number;
  readonly #log: (line: string) => void;

  /** At most `maxMocks` built (the least recently used is dropped first); refusals said to `log`. */
  constructor(options: { log: (line: string) => void; maxMocks?: number }) {
    this.#log = options.log;
    this.#maxMocks = options.maxMocks ?? 64;
  }

  /** Whether version `version` of `name` is built (or refused) here. */
  has(name: string, version: number): boolean {
    return this.#built.get(name)?.version === version;
  }

  /** The mock of `name` at `version`, built from `sdl` unless held; throws the refusal of a schema that cannot be served. */
  mock(name: string, version: number, sdl: string): GraphqlMock {
    let built = this.#built.get(name);
    this.#built.delete(name);
    if (built?.version !== version) built = this.#build(name, version, sdl);
    this.#built.set(name, built);
    if (this.#built.size > this.#maxMocks) this.#built.delete(this.#built.keys().next().value as string);
    if ('refused' in built) throw built.refused;
    return built.mock;
  }

  /** Drops what is built for `name` (every name: `undefined`). */
  forget(name: string | undefined): void {
    if (name === undefined) this.#built.clear();
    else this.#built.delete(name);
  }

  #build(name: string, version: number, sdl: string): Built {
    try {
      return { version, mock: new GraphqlMock(parseGraphqlSchema(sdl, AT_LOAD)) };
    } catch (error) {
      if (!isMockpointError(error)) throw error;
      this.#log(`mockpoint: warning: the GraphQL schema of "${name}" is not served (${error.code}): ${error.message}`);
      return { version, refused: error };
    }
  }
}

/** `call` answered by `mock`, as JSON text (see {@link GraphqlAnswerText}). */
export function answerText(mock: GraphqlMock, call: GraphqlCall): GraphqlAnswerText {
  const result = mock.answer(call.operation, call.maxValues, call.event);
  const json = JSON.stringify(result);
  return !('data' in result) && result.errors !== undefined
    ? { json, errors: JSON.stringify(result.errors) }
    : { json };
}
