/**
 * GraphQL as it crosses the wire: the request filter's `graphql` field, a
 * journal entry's `graphql` mark, and an endpoint's schema (SDL text). See
 * docs/graphql.md.
 *
 * @module
 */
import { z } from 'zod';

/** The operation types a filter may name. */
export const GRAPHQL_OPERATION_TYPES = ['query', 'mutation', 'subscription'] as const;

/**
 * Which GraphQL operations a filter matches, read from the parsed document (not
 * the text). A batched request matches when one of its operations does.
 * @example { operationName: 'GetUser', variables: { id: '7' } }
 */
export interface GraphqlFilter {
  /** The selected operation's name in the document. */
  operationName?: string;
  /** `query`, `mutation` or `subscription`. */
  operationType?: (typeof GRAPHQL_OPERATION_TYPES)[number];
  /** A JSON subset of the variables (the body filter's rules); absent variables are `{}`. */
  variables?: Record<string, unknown>;
}

/** One operation of a journal entry's GraphQL request. */
export interface GraphqlOperationMark {
  /** The selected operation's name (`null`: anonymous, or none could be selected). */
  operationName: string | null;
  /** Its type (`null`: none could be selected: a syntax error, an unknown operation name). */
  operationType: (typeof GRAPHQL_OPERATION_TYPES)[number] | null;
  /** The variables sent, when any. */
  variables?: Record<string, unknown>;
}

/**
 * A journal entry's GraphQL request: its first operation, and, for a batch,
 * every operation in order.
 */
export interface GraphqlMark extends GraphqlOperationMark {
  /** Present for a batched request: each operation in order. */
  batch?: GraphqlOperationMark[];
}

/** The body of `PUT /api/endpoints/{name}/graphql` as JSON, and its answer. */
export interface GraphqlSchemaBody {
  /** The schema in GraphQL SDL, kept and answered byte for byte. */
  schema: string;
}

/** The zod schemas of the shapes above, for validation and the OpenAPI document. */
export function createGraphqlSchemas() {
  const operationType = z.enum(GRAPHQL_OPERATION_TYPES);
  const filter = z
    .strictObject({
      operationName: z.string().min(1).optional().describe("The selected operation's name in the parsed document."),
      operationType: operationType.optional().describe('query, mutation or subscription.'),
      variables: z
        .record(z.string(), z.unknown())
        .optional()
        .describe("A JSON subset of the operation's variables (absent variables are {})."),
    })
    .meta({
      title: 'GraphqlFilter',
      description:
        'GraphQL operations matched by their parsed document (POST JSON, GET ?query=, batched arrays: one operation of the batch must match). See docs/graphql.md.',
    });
  const operationMark = z.object({
    operationName: z.string().nullable().describe('The selected operation (null: anonymous, or none selected).'),
    operationType: operationType.nullable().describe('Its type (null: none could be selected).'),
    variables: z.record(z.string(), z.unknown()).optional(),
  });
  const mark = operationMark
    .extend({ batch: z.array(operationMark).optional().describe('A batched request: each operation in order.') })
    .describe('Present when the request was a GraphQL request: its (first) operation.');
  const body = z
    .strictObject({ schema: z.string().describe('The schema in GraphQL SDL (kept byte for byte).') })
    .meta({ title: 'GraphqlSchema' });
  return { filter, mark, body };
}

/**
 * An event for the active graphql-ws subscriptions of a name, pushed through
 * `POST /api/endpoints/{name}/sockets/send` (docs/graphql.md): `next` (a
 * GraphQL result), `complete`, or both; only those of `operationName`, or the
 * one `subscription` id, when given.
 * @example { operationName: 'OnStar', next: { data: { starred: { id: '1' } } } }
 */
export interface GraphqlPush {
  /** One connection's id; absent: every open connection of the name. */
  connection?: string;
  /** The payload of a `next` message: `{ data?, errors? }`. */
  next?: { data?: unknown; errors?: unknown[]; extensions?: Record<string, unknown> };
  /** End the subscriptions with a `complete` message (after `next`, if given). */
  complete?: true;
  operationName?: string;
  subscription?: string;
}
