/**
 * A GraphQL SDL schema: the endpoint's `graphql`, byte for byte.
 *
 * @module
 */
import { basename } from 'node:path';
import type { Importer } from './importer.js';

export const graphql: Importer = {
  kind: 'graphql',
  help: `With --from graphql (or a .graphql / .gql file), the SDL schema becomes the endpoint's graphql:
kept byte for byte, checked as the daemon checks it; every GraphQL request to /endpoint/<name>
is answered from it with deterministic data, errors and introspection (docs/graphql.md).`,
  options: '',
  detect: (source) => !source.dir && /\.(graphql|gql)$/i.test(source.path),
  async convert(source, { name }) {
    return {
      mockFile: `${JSON.stringify({ version: 1, endpoints: [{ name, graphql: source.text() }] }, null, 2)}\n`,
      leftOut: [],
      summary: `the GraphQL schema of ${basename(source.path)} as endpoint ${name}`,
    };
  },
};
