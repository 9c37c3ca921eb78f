// Collections in mock files: read exactly (YAML and JSON, and from a $file),
// checked with the file's line, applied to an app, exported and applied again
// byte for byte.
import { describe, expect, it } from 'vitest';
import { createApp } from '../http/create-app.js';
import type { MockpointError } from '../registry/errors.js';
import { applyMockFile } from './apply-mock-file.js';
import { exportMockFile } from './export-mock-file.js';
import { parseMockFile } from './parse-mock-file.js';

const YAML = `version: 1
endpoints:
  - name: api
    routes:
      - id: users
        match: { path: /users }
        answer: { resource: users }
    collections:
      users:
        - { "id": 1, "big": 12345678901234567890, "price": 1.50 }
        - id: 2
          name: Grace
      posts: { $file: ./posts.json }
`;

function target(app: ReturnType<typeof createApp>) {
  return { url: 'http://mockpoint.test', fetch: (request: Request) => Promise.resolve(app.fetch(request)) };
}

describe('collections in a mock file', () => {
  it('reads each collection as its exact text, from YAML, JSON flow and a $file', () => {
    const file = parseMockFile(YAML, { readFile: () => '[ {"id": 1, "title": "caf\\u00e9"} ]' });
    const collections = file.endpoints[0]?.collections;
    expect(collections?.get('users')?.text).toBe(
      '[{"id":1,"big":12345678901234567890,"price":1.50},{"id":2,"name":"Grace"}]',
    );
    expect(collections?.get('posts')?.text).toBe('[{"id":1,"title":"caf\\u00e9"}]');
  });

  it('refuses a collection that is not a list of objects, with the line', () => {
    const bad = 'version: 1\nendpoints:\n  - name: api\n    collections:\n      users: [1, 2]\n';
    const error = (() => {
      try {
        parseMockFile(bad);
      } catch (e) {
        return e;
      }
    })() as MockpointError;
    expect(error.code).toBe('MOCK_FILE_INVALID');
    expect(error.message).toMatch(/mockpoint\.yaml:5:\d+: endpoints\[0\]\.collections\.users: .*item 0/);
    expect(error.details?.reason).toBe('INVALID_COLLECTION');
  });

  it('apply serves them; export gives them back exactly, and applying the export changes nothing', async () => {
    const app = createApp();
    const file = parseMockFile(YAML, { readFile: () => '[{"id":1,"title":"x"}]' });
    expect(await applyMockFile(file, target(app))).toMatchObject({ created: ['api'] });
    const users = await app.request('/endpoint/api/users');
    expect(await users.text()).toBe('[{"id":1,"big":12345678901234567890,"price":1.50},{"id":2,"name":"Grace"}]');
    // A write through the resource route, then apply again: the file's collections are back.
    await app.request('/endpoint/api/users', { method: 'POST', body: '{"name":"new"}' });
    expect(await applyMockFile(file, target(app))).toMatchObject({ changed: ['api'] });
    expect(JSON.parse(await (await app.request('/endpoint/api/users')).text())).toHaveLength(2);

    for (const format of ['json', 'yaml'] as const) {
      const exported = await exportMockFile(target(app), { format });
      expect(exported).toContain('12345678901234567890');
      const again = parseMockFile(exported, { file: `mockpoint.${format}` });
      const fresh = createApp();
      await applyMockFile(again, target(fresh));
      expect(await (await fresh.request('/api/endpoints/api/collections')).text()).toBe(
        await (await app.request('/api/endpoints/api/collections')).text(),
      );
      expect(await applyMockFile(again, target(app))).toMatchObject({ unchanged: ['api'] });
    }
  });

  it('a file without collections removes the ones a name had', async () => {
    const app = createApp();
    await applyMockFile(parseMockFile(YAML, { readFile: () => '[]' }), target(app));
    const without =
      'version: 1\nendpoints:\n  - name: api\n    routes: [{ id: users, match: { path: /users }, answer: { resource: users } }]\n';
    expect(await applyMockFile(parseMockFile(without), target(app))).toMatchObject({ changed: ['api'] });
    expect(await (await app.request('/api/endpoints/api/collections')).text()).toBe('{}');
  });
});
