/**
 * An endpoint's GraphQL schema: the SDL text checked at save with the
 * reference `graphql` package (`buildSchema`, then `validateSchema`), so a
 * stored schema always builds; a failure is `INVALID_GRAPHQL_SCHEMA` with the
 * line and column of the first problem.
 *
 * @module
 */
import {
  buildASTSchema,
  type DocumentNode,
  GraphQLError,
  type GraphQLSchema,
  getLocation,
  Kind,
  parse,
  validateSchema,
  visit,
} from 'graphql';
import { MockpointError } from '../wire/errors.js';

const encoder = new TextEncoder();

/** A lone surrogate: text that cannot be stored as UTF-8 as it is. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** `error`'s message with where it is: `line 3, column 7: Unknown type "Usr".` */
function located(error: GraphQLError): string {
  const at = error.locations?.[0];
  return at === undefined ? error.message : `line ${at.line}, column ${at.column}: ${error.message}`;
}

/** `message` with the line and column of the first name it quotes, when the document holds that name. */
function whereNamed(document: DocumentNode, message: string): string {
  const name = /"([_A-Za-z][_0-9A-Za-z]*)"/.exec(message)?.[1];
  if (name === undefined || document.loc === undefined) return message;
  let start: number | undefined;
  visit(document, {
    [Kind.NAMED_TYPE](node) {
      if (start === undefined && node.name.value === name) start = node.loc?.start;
    },
  });
  if (start === undefined) return message;
  const at = getLocation(document.loc.source, start);
  return `line ${at.line}, column ${at.column}: ${message}`;
}

/**
 * The schema `sdl` describes, or `INVALID_GRAPHQL_SCHEMA` (its first problem,
 * located) / `GRAPHQL_SCHEMA_TOO_LARGE` (past `maxBytes` of UTF-8).
 */
export function buildGraphqlSchema(sdl: string, maxBytes: number): GraphQLSchema {
  if (sdl.length > maxBytes || encoder.encode(sdl).length > maxBytes) {
    throw new MockpointError(
      'GRAPHQL_SCHEMA_TOO_LARGE',
      `the GraphQL schema is longer than ${maxBytes} bytes of UTF-8 (MOCKPOINT_MAX_GRAPHQL_SCHEMA_BYTES); nothing was changed`,
    );
  }
  if (LONE_SURROGATE.test(sdl)) {
    throw new MockpointError('INVALID_GRAPHQL_SCHEMA', 'the GraphQL schema holds a lone surrogate (not UTF-8 text)');
  }
  let document: DocumentNode;
  let schema: GraphQLSchema;
  try {
    document = parse(sdl);
  } catch (error) {
    const message = error instanceof GraphQLError ? located(error) : (error as Error).message;
    throw new MockpointError('INVALID_GRAPHQL_SCHEMA', `invalid GraphQL schema: ${message}`, { cause: error });
  }
  try {
    schema = buildASTSchema(document);
  } catch (error) {
    // buildSchema's SDL checks throw one Error of all messages, without locations: the
    // first message, at the first place its quoted name appears (an unknown type's use).
    const message = ((error as Error).message.split('\n\n')[0] ?? '').trim();
    throw new MockpointError('INVALID_GRAPHQL_SCHEMA', `invalid GraphQL schema: ${whereNamed(document, message)}`, {
      cause: error,
    });
  }
  const [problem] = validateSchema(schema);
  if (problem !== undefined) {
    throw new MockpointError('INVALID_GRAPHQL_SCHEMA', `invalid GraphQL schema: ${located(problem)}`);
  }
  return schema;
}
