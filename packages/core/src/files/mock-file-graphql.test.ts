// A GraphQL schema in a mock file: SDL text (a YAML block or a JSON string) or
// a $file, checked with the file's line, applied to an app, exported and
// applied again byte for byte.
import { describe, expect, it } from 'vitest';
import { createApp } from '../http/create-app.js';
import type { MockpointError } from '../registry/errors.js';
import { applyMockFile } from './apply-mock-file.js';
import { exportMockFile } from './export-mock-file.js';
import { parseMockFile } from './parse-mock-file.js';

const YAML = `version: 1
endpoints:
  - name: gh
    data: { ok: true }
    graphql: |
      # the schema
      type Query {
        "Who is asking"
        viewer: String!
      }
  - name: files
    graphql: { $file: ./schema.graphql }
`;

const FROM_FILE = '\uFEFF# from a file, CRLF kept\r\ntype Query { hello: String }\r\n';

function target(app: ReturnType<typeof createApp>) {
  return { url: 'http://mockpoint.test', fetch: (request: Request) => Promise.resolve(app.fetch(request)) };
}

function thrown(run: () => unknown): MockpointError {
  try {
    run();
  } catch (error) {
    return error as MockpointError;
  }
  throw new Error('did not throw');
}

describe('graphql in a mock file', () => {
  it('reads the SDL exactly, from a YAML block and from a $file', () => {
    const file = parseMockFile(YAML, { readFile: () => FROM_FILE });
    expect(file.endpoints[0]?.graphql).toBe('# the schema\ntype Query {\n  "Who is asking"\n  viewer: String!\n}\n');
    expect(file.endpoints[1]?.graphql).toBe(FROM_FILE);
  });

  it('refuses a schema that does not build, with the line and the reason', () => {
    const bad = 'version: 1\nendpoints:\n  - name: gh\n    graphql: "type Query { a: Nope }"\n';
    const error = thrown(() => parseMockFile(bad));
    expect(error.code).toBe('MOCK_FILE_INVALID');
    expect(error.message).toMatch(/mockpoint\.yaml:4:\d+: endpoints\[0\]\.graphql: .*Unknown type "Nope"/);
    expect(error.details?.reason).toBe('INVALID_GRAPHQL_SCHEMA');
    const notText = 'version: 1\nendpoints:\n  - name: gh\n    graphql: [1]\n';
    const refused = thrown(() => parseMockFile(notText));
    expect(refused.code).toBe('MOCK_FILE_INVALID');
    expect(refused.message).toMatch(/endpoints\[0\]\.graphql/);
  });

  it('apply answers from it; export gives it back exactly; applying the export changes nothing; a file without it removes it', async () => {
    const app = createApp();
    const file = parseMockFile(YAML, { readFile: () => FROM_FILE });
    expect(await applyMockFile(file, target(app))).toMatchObject({ created: ['gh', 'files'] });
    const answer = await app.request('/endpoint/gh', { method: 'POST', body: '{"query":"{ viewer }"}' });
    expect(typeof ((await answer.json()) as { data: { viewer: unknown } }).data.viewer).toBe('string');
    expect(await applyMockFile(file, target(app))).toMatchObject({ unchanged: ['gh', 'files'] });

    for (const format of ['json', 'yaml'] as const) {
      // `files` holds only a schema: listed, so exported without being named.
      const exported = await exportMockFile(target(app), { format });
      const again = parseMockFile(exported, { file: `mockpoint.${format}` });
      expect(again.endpoints.map((endpoint) => endpoint.graphql)).toEqual(
        file.endpoints.map((e) => e.graphql).reverse(),
      );
      expect(await applyMockFile(again, target(app))).toMatchObject({ unchanged: ['files', 'gh'] });
    }
    const without = 'version: 1\nendpoints:\n  - name: gh\n    data: { ok: true }\n';
    expect(await applyMockFile(parseMockFile(without), target(app))).toMatchObject({ changed: ['gh'] });
    expect((await app.request('/api/endpoints/gh/graphql')).status).toBe(404);
  });
});
