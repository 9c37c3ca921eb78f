/**
 * The GraphQL schema methods of the client: the SDL that answers GraphQL requests to a name.
 *
 * @module
 */
import type { GraphqlSchemaBody } from '../api/graphql-json.js';
import { seg, type Transport } from './transport.js';

/** These methods of the client, over `transport` (createClient in client.ts puts the parts together). */
export function graphqlSchemaMethods({ call, json }: Transport) {
  const schemaOf = async (name: string): Promise<string> =>
    (await json<GraphqlSchemaBody>('GET', `/api/endpoints/${seg(name)}/graphql`)).schema;
  const clearSchema = async (name: string): Promise<void> => {
    await call('DELETE', `/api/endpoints/${seg(name)}/graphql`);
  };
  return {
    /**
     * Puts the GraphQL schema (SDL) that answers GraphQL requests to `name` and
     * its subpaths (schema mode, docs/graphql.md); kept byte for byte.
     * @throws MockpointError `INVALID_GRAPHQL_SCHEMA` (the message gives line and column), `GRAPHQL_SCHEMA_TOO_LARGE`.
     * @example await client.setGraphqlSchema('gh', await readFile('schema.graphql', 'utf8'))
     */
    async setGraphqlSchema(name: string, sdl: string): Promise<void> {
      await call('PUT', `/api/endpoints/${seg(name)}/graphql`, { schema: sdl } satisfies GraphqlSchemaBody);
    },

    /** The GraphQL schema of `name` as its SDL text, byte for byte; throws `NOT_FOUND` when it has none. */
    getGraphqlSchema: schemaOf,

    /** Removes the GraphQL schema of `name` (nothing happens when it had none). */
    clearGraphqlSchema: clearSchema,

    /** @deprecated Use {@link getGraphqlSchema}: the client reads every per-name setting with `get…`, puts it with `set…` and removes it with `clear…` (docs/api.md). */
    graphqlSchema: schemaOf,

    /** @deprecated Use {@link clearGraphqlSchema}: the client reads every per-name setting with `get…`, puts it with `set…` and removes it with `clear…` (docs/api.md). */
    removeGraphqlSchema: clearSchema,
  };
}
