/**
 * One endpoint's schema mode: the stored SDL built once into a schema with
 * deterministic mocks (`@graphql-tools/mock`, every value drawn from a
 * generator seeded by the operation), and how one operation is answered:
 * checked with the reference `validate` (GraphQL `errors` with locations, as a
 * real server gives), then executed. Introspection is the schema's own.
 *
 * @module
 */
import { addMocksToSchema, createMockStore, type IMockStore } from '@graphql-tools/mock';
import {
  buildASTSchema,
  type DocumentNode,
  type ExecutionResult,
  execute,
  GraphQLError,
  type GraphQLSchema,
  validate,
} from 'graphql';
import { SeededRandom, seedOf } from '../random/seeded-random.js';
import { answerSize, INTROSPECTION_VALUES_PER_ELEMENT, MAX_ANSWER_VALUES, schemaElements } from './answer-size.js';
import type { GraphqlOperation } from './graphql-request.js';
import { mockValues } from './mock-values.js';

/** The most validation errors answered for one document (as graphql-js servers bound them). */
const MAX_VALIDATION_ERRORS = 100;

/** A request error (syntax, validation, a missing operation): `{ errors }` and no `data`, as a server answers. */
function requestErrors(errors: readonly GraphQLError[]): ExecutionResult {
  return { errors: [...errors] };
}

export class GraphqlMock {
  /** The schema as stored (no mocks): what introspection and validation see. */
  readonly schema: GraphQLSchema;
  readonly #mocked: GraphQLSchema;
  readonly #store: IMockStore;
  readonly #random = new SeededRandom();
  /** Validation outcomes by parsed document (documents are cached by text, so shared). */
  readonly #validated = new WeakMap<DocumentNode, readonly GraphQLError[]>();

  /** `document` is a stored schema's, checked at save (`buildGraphqlSchema`) and read within the bounds (`parseGraphqlSchema`): it builds. */
  constructor(document: DocumentNode) {
    // Its SDL was checked at save: not again here (a third of the build of a schema as large as GitHub's).
    this.schema = buildASTSchema(document, { assumeValidSDL: true });
    this.#store = createMockStore({ schema: this.schema, mocks: mockValues(this.schema, this.#random) });
    this.#mocked = addMocksToSchema({ schema: this.schema, store: this.#store });
  }

  /**
   * The answer to one operation: the same document, operation name and
   * variables always give the same answer, whatever came before (the mock store
   * starts empty and the generator from the operation's seed; execution is
   * synchronous, so no other request runs in between). An operation that
   * would make more than `maxValues` values is refused before it runs.
   * `event`: a subscription's event by index (each drawn from its own seed; a
   * subscription executes like a query, once per event).
   */
  answer(operation: GraphqlOperation, maxValues: number = MAX_ANSWER_VALUES, event?: number): ExecutionResult {
    const { document } = operation;
    // \`instanceof Error\`, not GraphQLError: the parser's class may be another module copy (CommonJS or ESM).
    if (document instanceof Error) return requestErrors([document]);
    // Counted before validation, which costs in proportion to the document (an operation refused here is not validated).
    const selected = operation.operation;
    if (selected !== undefined) {
      // Introspection's share: one full introspection of this schema (a batch's operations share it as they share maxValues).
      const introspectionLimit = Math.max(
        maxValues,
        Math.floor((schemaElements(this.schema) * INTROSPECTION_VALUES_PER_ELEMENT * maxValues) / MAX_ANSWER_VALUES),
      );
      const size = answerSize(this.schema, document, selected, maxValues, introspectionLimit);
      if (size.values > maxValues) {
        return requestErrors([
          new GraphQLError(
            `Operation too large for a mock answer: more than ${maxValues} values (each list has 2 items, so every nested list doubles them); ask for fewer nested lists, or answer this operation with a route.`,
          ),
        ]);
      }
      if (size.introspected > introspectionLimit) {
        return requestErrors([
          new GraphQLError(
            `Operation too large for a mock answer: its introspection would hold more than ${introspectionLimit} values (${INTROSPECTION_VALUES_PER_ELEMENT} per type, field, argument and value of the schema: one full introspection fits); ask for the schema once, not in many aliases.`,
          ),
        ]);
      }
    }
    let errors = this.#validated.get(document);
    if (errors === undefined) {
      errors = validate(this.schema, document, undefined, { maxErrors: MAX_VALIDATION_ERRORS });
      this.#validated.set(document, errors);
    }
    if (errors.length > 0) return requestErrors(errors);
    if (operation.problem !== undefined) return requestErrors([new GraphQLError(operation.problem)]);
    this.#store.reset();
    this.#random.reseed(
      seedOf(
        `${operation.query}\u0000${operation.requestedName ?? ''}\u0000${stableJson(operation.variables)}${event === undefined ? '' : `\u0000${event}`}`,
      ),
    );
    const result = execute({
      schema: this.#mocked,
      document,
      operationName: operation.requestedName,
      variableValues: operation.variables,
    });
    // Mock resolvers are synchronous; a Promise here would be a bug in that promise.
    if (result instanceof Promise) throw new Error('mockpoint: a GraphQL mock answered asynchronously');
    return result;
  }
}

/** JSON with object keys sorted: variables sent in another key order are the same variables. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableJson(record[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
