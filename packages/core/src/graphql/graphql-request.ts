/**
 * A request read as GraphQL over HTTP: its operations (one, or several in a
 * batched array), each with the operation the parsed document selects, its
 * type and its variables. Read from the document parsed by the reference
 * `graphql` package (never from the text), only when someone asks (a filter
 * with `graphql`, a name with a schema, a journal read), once per request.
 *
 * Forms read (the GraphQL-over-HTTP draft and what clients send):
 * - `GET`/`HEAD` with `?query=` (and `operationName=`, `variables=` as JSON text);
 * - a JSON body `{ query, operationName?, variables? }`;
 * - a JSON array of those (a batch, as Apollo and graphql-request batch);
 * - a body with `Content-Type: application/graphql`: the document itself;
 * - a WebSocket message (`MESSAGE`) that is a graphql-ws `subscribe`: its payload.
 *
 * @module
 */
import type { DocumentNode, OperationDefinitionNode } from 'graphql';
// The parser alone, not graphql's index (which loads validation and execution too): every
// request filter may need it, so the main entry loads it (bundled into core's chunks: tsup.config.ts);
// the rest loads with a schema.
import { GraphQLError } from 'graphql/error/GraphQLError.js';
import { Kind } from 'graphql/language/kinds.js';
import { parse } from 'graphql/language/parser.js';

/** The three operation types. */
export type GraphqlOperationType = 'query' | 'mutation' | 'subscription';

/** One operation of a GraphQL request, as the filter and schema mode see it. */
export interface GraphqlOperation {
  /** The query text sent. */
  readonly query: string;
  /** The `operationName` the request asked for (absent when it named none). */
  readonly requestedName: string | undefined;
  /** The variables sent (absent when none); not an object: {@link problem} says so. */
  readonly variables: Record<string, unknown> | undefined;
  /** The parsed document, or the syntax error that stopped the parse. */
  readonly document: DocumentNode | GraphQLError;
  /** The operation the document and `operationName` select; absent when none can be (see {@link problem}). */
  readonly operation: OperationDefinitionNode | undefined;
  /** The selected operation's name from the document (`null`: anonymous or none selected). */
  readonly operationName: string | null;
  /** The selected operation's type (absent when none is selected). */
  readonly operationType: GraphqlOperationType | undefined;
  /** Why the operation cannot be run as it is sent (a request error, before any schema): absent when it can. */
  readonly problem: string | undefined;
}

/** A GraphQL request: one operation, or a batch. */
export interface GraphqlRequest {
  readonly operations: readonly GraphqlOperation[];
  /** True when the body was a JSON array (answered with an array). */
  readonly batch: boolean;
}

/** What a GraphQL request is read from; a journal entry and the read path's request view both are. */
export interface GraphqlSource {
  readonly method: string;
  readonly query: Record<string, string | string[]>;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly bodyTruncated: boolean;
  readonly json?: unknown;
}

/** The longest document parsed, in UTF-16 code units (the body limit bounds it too). */
export const MAX_DOCUMENT_LENGTH = 1024 * 1024;
/** The most tokens one document may have (`parse`'s `maxTokens`): a bound on parser work. */
export const MAX_DOCUMENT_TOKENS = 100_000;
/** The most operations one batched request may carry. */
export const MAX_BATCH = 100;

/** Parsed documents by text (bounded, oldest dropped first): clients send the same documents again and again. */
const documents = new Map<string, DocumentNode | GraphQLError>();
const MAX_CACHED_DOCUMENTS = 500;
/** Documents past this length are parsed each time, not kept. */
const MAX_CACHED_LENGTH = 64 * 1024;

/** The document `text` parsed (or its syntax error), cached by text. */
export function parseDocument(text: string): DocumentNode | GraphQLError {
  const cached = documents.get(text);
  if (cached !== undefined) return cached;
  let parsed: DocumentNode | GraphQLError;
  if (text.length > MAX_DOCUMENT_LENGTH) {
    parsed = new GraphQLError(`Document too large: more than ${MAX_DOCUMENT_LENGTH} characters.`);
  } else {
    try {
      parsed = parse(text, { maxTokens: MAX_DOCUMENT_TOKENS });
    } catch (error) {
      parsed = error instanceof GraphQLError ? error : new GraphQLError(String(error));
    }
  }
  if (text.length <= MAX_CACHED_LENGTH) {
    if (documents.size >= MAX_CACHED_DOCUMENTS) documents.delete(documents.keys().next().value as string);
    documents.set(text, parsed);
  }
  return parsed;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The operation `name` selects in `document` (the only one when no name is asked for). */
function select(document: DocumentNode, name: string | undefined): OperationDefinitionNode | string {
  const operations = document.definitions.filter(
    (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
  );
  if (name === undefined) {
    if (operations.length === 1) return operations[0] as OperationDefinitionNode;
    return operations.length === 0
      ? 'Must provide an operation.'
      : 'Must provide operation name if query contains multiple operations.';
  }
  return operations.find((operation) => operation.name?.value === name) ?? `Unknown operation named "${name}".`;
}

/** One operation from its parts as sent (`variables` still as sent: an object, or anything else to refuse). */
function operationOf(query: string, requestedName: unknown, variables: unknown): GraphqlOperation {
  const name = typeof requestedName === 'string' && requestedName !== '' ? requestedName : undefined;
  const document = parseDocument(query);
  let problem: string | undefined;
  let operation: OperationDefinitionNode | undefined;
  if (document instanceof GraphQLError) problem = document.message;
  else {
    const selected = select(document, name);
    if (typeof selected === 'string') problem = selected;
    else operation = selected;
  }
  const vars = variables === undefined || variables === null ? undefined : variables;
  if (vars !== undefined && !isObject(vars)) problem ??= 'Variables must be provided as an object.';
  if (requestedName !== undefined && requestedName !== null && typeof requestedName !== 'string') {
    problem ??= 'operationName must be a string.';
  }
  return {
    query,
    requestedName: name,
    variables: isObject(vars) ? vars : undefined,
    document,
    operation,
    operationName: operation?.name?.value ?? null,
    operationType: operation?.operation as GraphqlOperationType | undefined,
    problem,
  };
}

/**
 * An operation from a JSON body's member (or a graphql-ws `subscribe`
 * message's payload); `undefined` when it is no GraphQL request (no string `query`).
 */
export function graphqlOperationOf(member: unknown): GraphqlOperation | undefined {
  if (!isObject(member) || typeof member.query !== 'string') return undefined;
  return operationOf(member.query, member.operationName, member.variables);
}

function one(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Reads `source` as a GraphQL request; `undefined` when it is none (see the module's forms). */
function read(source: GraphqlSource): GraphqlRequest | undefined {
  if (source.method === 'GET' || source.method === 'HEAD') {
    const query = one(source.query.query);
    if (query === undefined) return undefined;
    const rawVariables = one(source.query.variables);
    let variables: unknown;
    if (rawVariables !== undefined && rawVariables !== '') {
      try {
        variables = JSON.parse(rawVariables);
      } catch {
        variables = 'not JSON';
      }
    }
    return { operations: [operationOf(query, one(source.query.operationName), variables)], batch: false };
  }
  if (source.bodyTruncated) return undefined;
  if (source.method === 'MESSAGE') {
    // A WebSocket message: a graphql-ws `subscribe` carries one operation in its payload.
    const message = source.json;
    if (!isObject(message) || message.type !== 'subscribe') return undefined;
    const operation = graphqlOperationOf(message.payload);
    return operation === undefined ? undefined : { operations: [operation], batch: false };
  }
  const type = source.headers['content-type'] ?? '';
  if (type.toLowerCase().startsWith('application/graphql') && !type.toLowerCase().includes('json')) {
    return { operations: [operationOf(source.body, undefined, undefined)], batch: false };
  }
  const json = source.json;
  if (Array.isArray(json)) {
    if (json.length === 0 || json.length > MAX_BATCH) return undefined;
    const operations: GraphqlOperation[] = [];
    for (const member of json) {
      const operation = graphqlOperationOf(member);
      if (operation === undefined) return undefined;
      operations.push(operation);
    }
    return { operations, batch: true };
  }
  const operation = graphqlOperationOf(json);
  return operation === undefined ? undefined : { operations: [operation], batch: false };
}

/** Each source's reading, made once (a journal entry or a request view is read by several filters). */
const readings = new WeakMap<GraphqlSource, GraphqlRequest | null>();

/**
 * `source` read as a GraphQL request, once per source object; `undefined` when
 * it is none. A body that is not JSON is never parsed as GraphQL unless its
 * Content-Type says `application/graphql`.
 */
export function graphqlRequestOf(source: GraphqlSource): GraphqlRequest | undefined {
  let reading = readings.get(source);
  if (reading === undefined) {
    reading = read(source) ?? null;
    readings.set(source, reading);
  }
  return reading ?? undefined;
}
