/**
 * A journal entry's `graphql` mark: the operation name, type and variables of
 * a GraphQL request, so the page and a reader of the journal see which
 * operation came without parsing the body themselves.
 *
 * @module
 */
import type { GraphqlMark, GraphqlOperationMark } from '../api/graphql-json.js';
import type { JournalEntry } from '../api/journal-json.js';
import { type GraphqlOperation, graphqlRequestOf } from './graphql-request.js';

function markOf(operation: GraphqlOperation): GraphqlOperationMark {
  const mark: GraphqlOperationMark = {
    operationName: operation.operationName,
    operationType: operation.operationType ?? null,
  };
  if (operation.variables !== undefined) mark.variables = operation.variables;
  return mark;
}

/**
 * The mark of `entry` when it looks like a GraphQL request (a `query` in its
 * JSON body or query string, or an `application/graphql` body); `undefined`
 * and a document that parses; `undefined` otherwise. Only then is anything
 * parsed (documents are cached by text).
 */
export function graphqlMarkOf(entry: JournalEntry): GraphqlMark | undefined {
  if (entry.bodyEncoding === 'base64') return undefined;
  const request = graphqlRequestOf(entry);
  // A `?query=` that is no GraphQL document (a search box) is no GraphQL request to show.
  if (request === undefined || request.operations.every((operation) => operation.document instanceof Error)) {
    return undefined;
  }
  const [first, ...rest] = request.operations.map(markOf);
  const mark: GraphqlMark = { ...(first as GraphqlOperationMark) };
  if (request.batch) mark.batch = [first as GraphqlOperationMark, ...rest];
  return mark;
}
