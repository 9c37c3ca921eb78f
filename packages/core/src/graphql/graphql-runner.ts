/**
 * Who builds an endpoint's stored schema and answers its schema-mode
 * operations: a {@link GraphqlRunner}. The daemon's (`graphqlWorker()` from
 * `@mockpoint/core/threads`) does it in a worker thread, off the event loop; where
 * there are no worker threads (Cloudflare Workers) the {@link inlineGraphqlRunner}
 * does it on the event loop, bounded as at save. Both answer byte for byte alike.
 *
 * @module
 */
import type { GraphqlOperation } from './graphql-request.js';

/** A name's stored schema as the read path holds it: its SDL, and a version that changes with every read of it from the store. */
export interface StoredGraphqlSchema {
  readonly name: string;
  readonly version: number;
  readonly sdl: string;
}

let versions = 0;

/** `sdl` as `name`'s schema, with a version of its own. */
export function storedGraphqlSchema(name: string, sdl: string): StoredGraphqlSchema {
  return { name, version: ++versions, sdl };
}

/** One operation to answer, with the most values its answer may hold; `event`: a subscription's event by index. */
export interface GraphqlCall {
  readonly operation: GraphqlOperation;
  readonly maxValues: number;
  readonly event?: number;
}

/** One operation's answer as JSON text: `json` the result; `errors` its errors alone when it is a request error (no `data`). */
export interface GraphqlAnswerText {
  readonly json: string;
  readonly errors?: string;
}

/** Builds stored schemas and answers their operations (see the module). */
export interface GraphqlRunner {
  /** Checks `sdl` as `PUT …/graphql` does (`buildGraphqlSchema`): rejects with the refusal. */
  check(sdl: string, maxBytes: number): Promise<void>;
  /**
   * The answers to `calls` from `schema`, in order; rejects with
   * `GRAPHQL_SCHEMA_TOO_COMPLEX` for a schema stored by an older version and over
   * today's bounds (said once to the log), `GRAPHQL_WORKER_FAILED` or
   * `TOO_MANY_GRAPHQL_REQUESTS` (the worker's).
   */
  answer(schema: StoredGraphqlSchema, calls: readonly GraphqlCall[]): Promise<GraphqlAnswerText[]>;
  /** Drops what was built for `name` (every name: `undefined`): its schema changed or was let go. */
  forget(name: string | undefined): void;
  /** Stops (the worker's thread); later calls start again. */
  close(): Promise<void>;
}

/** Options of {@link inlineGraphqlRunner} and `graphqlWorker()`. */
export interface GraphqlRunnerOptions {
  /**
   * Where a line is said: a stored schema refused when it is first loaded (once
   * per stored version), a worker that stopped.
   * @default console.warn
   */
  log?: (line: string) => void;
}

/** The built schemas as a promise (loaded with the first schema: graphql's execution and @graphql-tools/mock take a few hundred ms to load). */
type Mocks = import('./built-mocks.js').BuiltMocks;

/** Builds and answers on the event loop: where there are no worker threads (see the module). */
export function inlineGraphqlRunner(options: GraphqlRunnerOptions = {}): GraphqlRunner {
  const log = options.log ?? ((line: string) => console.warn(line));
  let mocks: Promise<{ built: Mocks; answerText: typeof import('./built-mocks.js').answerText }> | undefined;
  const load = () => {
    mocks ??= import('./built-mocks.js').then(({ BuiltMocks, answerText }) => ({
      built: new BuiltMocks({ log }),
      answerText,
    }));
    return mocks;
  };
  return {
    async check(sdl, maxBytes) {
      const { buildGraphqlSchema } = await import('./graphql-schema.js');
      buildGraphqlSchema(sdl, maxBytes);
    },
    async answer(schema, calls) {
      const { built, answerText } = await load();
      const mock = built.mock(schema.name, schema.version, schema.sdl);
      return calls.map((call) => answerText(mock, call));
    },
    forget(name) {
      if (mocks !== undefined) void mocks.then(({ built }) => built.forget(name));
    },
    async close() {
      this.forget(undefined);
    },
  };
}
