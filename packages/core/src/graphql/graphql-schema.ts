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
  type NameNode,
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

/**
 * `message` with a line and column: for `"Type.field"` the field's last
 * definition in that type (a duplicate's second one), else the first use of the
 * type name it quotes (an unknown type's); as it is when the document has neither.
 */
function whereNamed(document: DocumentNode, message: string): string {
  const quoted = /"([_A-Za-z][_0-9A-Za-z]*)(?:\.([_A-Za-z][_0-9A-Za-z]*))?"/.exec(message);
  if (quoted === null || document.loc === undefined) return message;
  const [, type, field] = quoted;
  let start: number | undefined;
  if (field !== undefined) {
    const inType = (node: { name: { value: string }; fields?: readonly { name: NameNode }[] }) => {
      if (node.name.value !== type) return;
      for (const definition of node.fields ?? [])
        if (definition.name.value === field) start = definition.name.loc?.start;
    };
    visit(document, {
      [Kind.OBJECT_TYPE_DEFINITION]: inType,
      [Kind.OBJECT_TYPE_EXTENSION]: inType,
      [Kind.INTERFACE_TYPE_DEFINITION]: inType,
      [Kind.INPUT_OBJECT_TYPE_DEFINITION]: inType,
    });
  } else {
    visit(document, {
      [Kind.NAMED_TYPE](node) {
        if (start === undefined && node.name.value === type) start = node.loc?.start;
      },
    });
  }
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
