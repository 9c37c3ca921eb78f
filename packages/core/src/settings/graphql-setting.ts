/**
 * The per-name setting `graphql`: the GraphQL schema, its SDL text exactly as set (docs/graphql.md).
 * A PUT's body is `{ "schema": "…" }` or the SDL itself; the route checks the SDL in the GraphQL
 * worker (`http/routes/graphql.ts`), bounded by `MOCKPOINT_MAX_GRAPHQL_SCHEMA_BYTES`.
 *
 * @module
 */
import { z } from 'zod';
import { createGraphqlSchemas } from '../api/graphql-json.js';
import { onFirstUse } from '../cache/on-first-use.js';
import { decodeUtf8, parseJsonBody, readDecodedBody } from '../codec/body.js';
import { MockpointError } from '../registry/errors.js';
import type { NameSetting } from './setting-declaration.js';

const graphqlSchemas = onFirstUse(createGraphqlSchemas);

/**
 * The SDL a PUT body carries: a JSON object `{ "schema": "…" }` when the body
 * starts with `{` (no SDL can: a document starts with a definition, a
 * description or a comment), otherwise the body itself, whatever its Content-Type.
 */
function sdlOf(text: string): string {
  if (!text.trimStart().startsWith('{')) return text;
  const body = parseJsonBody(
    text,
    'the body starts with { but is not JSON; send { "schema": "…SDL…" } or the SDL itself',
  );
  const parsed = graphqlSchemas().body.safeParse(body);
  if (!parsed.success) {
    throw new MockpointError('INVALID_GRAPHQL_SCHEMA', 'a JSON body must be { "schema": "…SDL…" } and nothing else');
  }
  return parsed.data.schema;
}

export const graphqlSetting: NameSetting<string> = {
  key: 'graphql',
  label: 'GraphQL schema',
  encode: (text) => text,
  decode: (text) => text,
  limit: { option: 'maxGraphqlSchemaBytes', code: 'GRAPHQL_SCHEMA_TOO_LARGE' },
  input: {
    schema: () => graphqlSchemas().body,
    read: async (request, limits) => sdlOf(decodeUtf8(await readDecodedBody(request, limits.maxBodyBytes))),
  },
  file: {
    member: () =>
      z
        .union([z.string(), z.strictObject({ $file: z.string() })])
        .optional()
        .describe(
          'A GraphQL schema (SDL text, or { "$file": "./schema.graphql" }): GraphQL requests are answered from it (docs/graphql.md).',
        ),
    check: (value, file) => {
      if (typeof value !== 'string') {
        throw new MockpointError('INVALID_GRAPHQL_SCHEMA', 'graphql must be SDL text or { $file }');
      }
      file.buildGraphql(value);
      return value;
    },
    read: async (get) => {
      const text = await get('graphql');
      return text === undefined ? undefined : (JSON.parse(text) as { schema: string }).schema;
    },
    body: (sdl) => JSON.stringify({ schema: sdl }),
    entry: (sdl) => sdl,
    clear: { unknown: true, olderOk: false },
  },
};
