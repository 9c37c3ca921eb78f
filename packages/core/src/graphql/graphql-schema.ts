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
  type NamedTypeNode,
  type NameNode,
  parse,
  validateSchema,
  visit,
} from 'graphql';
import { utf8Length } from '../codec/utf8-length.js';
import { MockpointError } from '../registry/errors.js';

/**
 * The most elements a schema may have: named types, fields, arguments, input
 * fields, enum values and union members together. Building a schema and its
 * mocks takes time in proportion (GitHub's public schema has 12,460 and takes
 * about a second of CPU), so the bound is about two and a half of it.
 */
export const MAX_SCHEMA_ELEMENTS = 30_000;

/**
 * The most work checking its interfaces may take: for every interface a type
 * implements, the interface's fields, and its own interfaces times the type's
 * (each must be named by the type too), as graphql's `validateSchema` checks
 * them. GitHub's public schema needs 2,789; 900 interfaces each implementing
 * the earlier ones need about 120 million (20 s and more, at every build).
 */
export const MAX_INTERFACE_WORK = 20_000;

/**
 * The most tokens a schema's document may have: parsing stops past it, so a
 * document of millions of names (`implements I0 & I1 & …` 400,000 times) costs
 * no more than this to refuse. GitHub's public schema has 59,258.
 */
export const MAX_SCHEMA_TOKENS = 100_000;

/** What a schema's build costs, counted from its document (one pass, before anything is built). */
export interface SchemaWork {
  elements: number;
  interfaceWork: number;
}

/** Counts {@link SchemaWork} in `document`'s definitions and extensions. */
export function schemaWork(document: DocumentNode): SchemaWork {
  let elements = 0;
  const ownFields = new Map<string, number>();
  const ownInterfaces = new Map<string, number>();
  const implementing: [string, readonly NamedTypeNode[]][] = [];
  for (const definition of document.definitions) {
    if (!('name' in definition) || definition.name === undefined) continue;
    elements++;
    const name = definition.name.value;
    const fields = 'fields' in definition ? (definition.fields ?? []) : [];
    elements += fields.length;
    for (const field of fields) elements += 'arguments' in field ? (field.arguments?.length ?? 0) : 0;
    if ('arguments' in definition) elements += definition.arguments?.length ?? 0;
    if ('values' in definition) elements += definition.values?.length ?? 0;
    if ('types' in definition) elements += definition.types?.length ?? 0;
    const interfaces = 'interfaces' in definition ? (definition.interfaces ?? []) : [];
    ownFields.set(name, (ownFields.get(name) ?? 0) + fields.length);
    ownInterfaces.set(name, (ownInterfaces.get(name) ?? 0) + interfaces.length);
    if (interfaces.length > 0) implementing.push([name, interfaces]);
  }
  let interfaceWork = 0;
  for (const [type, interfaces] of implementing) {
    const count = ownInterfaces.get(type) ?? 0;
    for (const named of interfaces) {
      const name = named.name.value;
      interfaceWork += 1 + (ownFields.get(name) ?? 0) + (ownInterfaces.get(name) ?? 0) * count;
    }
  }
  return { elements, interfaceWork };
}

/** `GRAPHQL_SCHEMA_TOO_COMPLEX` when `document` would take more to build than the bounds allow; `then` ends its message. */
function checkWork(document: DocumentNode, then: string): void {
  const { elements, interfaceWork } = schemaWork(document);
  const over =
    elements > MAX_SCHEMA_ELEMENTS
      ? `it has ${elements} types, fields, arguments, enum values and union members, more than ${MAX_SCHEMA_ELEMENTS}`
      : interfaceWork > MAX_INTERFACE_WORK
        ? `checking the interfaces its types implement would take ${interfaceWork} steps (each implemented interface's fields, and its own interfaces times the type's), more than ${MAX_INTERFACE_WORK}`
        : undefined;
  if (over !== undefined) {
    throw new MockpointError(
      'GRAPHQL_SCHEMA_TOO_COMPLEX',
      `the GraphQL schema is too complex to build and mock quickly: ${over}; ${then}`,
      { details: { elements, interfaceWork } },
    );
  }
}

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

/** What a schema refused at save says happened: nothing. */
const AT_SAVE = 'nothing was changed';

/**
 * `sdl` parsed, or `INVALID_GRAPHQL_SCHEMA` (its first problem, located) /
 * `GRAPHQL_SCHEMA_TOO_COMPLEX` (past {@link MAX_SCHEMA_TOKENS}, or
 * {@link MAX_SCHEMA_ELEMENTS} or {@link MAX_INTERFACE_WORK} counted in the
 * parsed document, before anything is built); `then` ends the second's message.
 * Also how a stored schema is read before it is built: one stored by an older
 * version may be over today's bounds.
 */
export function parseGraphqlSchema(sdl: string, then: string = AT_SAVE): DocumentNode {
  let document: DocumentNode;
  try {
    document = parse(sdl, { maxTokens: MAX_SCHEMA_TOKENS });
  } catch (error) {
    if (error instanceof GraphQLError && error.message.includes(`${MAX_SCHEMA_TOKENS} tokens. Parsing aborted`)) {
      throw new MockpointError(
        'GRAPHQL_SCHEMA_TOO_COMPLEX',
        `the GraphQL schema is too complex to build and mock quickly: it has more than ${MAX_SCHEMA_TOKENS} tokens (names, punctuation and strings); ${then}`,
        { details: { tokens: MAX_SCHEMA_TOKENS + 1 } },
      );
    }
    const message = error instanceof GraphQLError ? located(error) : (error as Error).message;
    throw new MockpointError('INVALID_GRAPHQL_SCHEMA', `invalid GraphQL schema: ${message}`, { cause: error });
  }
  checkWork(document, then);
  return document;
}

/**
 * The schema `sdl` describes, or `INVALID_GRAPHQL_SCHEMA` (its first problem,
 * located) / `GRAPHQL_SCHEMA_TOO_LARGE` (past `maxBytes` of UTF-8) /
 * `GRAPHQL_SCHEMA_TOO_COMPLEX` (past {@link MAX_SCHEMA_ELEMENTS} or
 * {@link MAX_INTERFACE_WORK}, counted before anything is built).
 */
export function buildGraphqlSchema(sdl: string, maxBytes: number): GraphQLSchema {
  if (sdl.length > maxBytes || utf8Length(sdl) > maxBytes) {
    throw new MockpointError(
      'GRAPHQL_SCHEMA_TOO_LARGE',
      `the GraphQL schema is longer than ${maxBytes} bytes of UTF-8 (MOCKPOINT_MAX_GRAPHQL_SCHEMA_BYTES); nothing was changed`,
    );
  }
  if (LONE_SURROGATE.test(sdl)) {
    throw new MockpointError('INVALID_GRAPHQL_SCHEMA', 'the GraphQL schema holds a lone surrogate (not UTF-8 text)');
  }
  const document = parseGraphqlSchema(sdl);
  let schema: GraphQLSchema;
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
