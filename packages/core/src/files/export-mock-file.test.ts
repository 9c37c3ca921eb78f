// Export as YAML keeps every data exact: export yaml → reset → apply answers
// the same bytes, and exporting again gives the same text, byte for byte.
import { describe, expect, it } from 'vitest';
import { createApp } from '../http/create-app.js';
import { applyMockFile } from './apply-mock-file.js';
import { exportMockFile } from './export-mock-file.js';
import { parseMockFile } from './parse-mock-file.js';

const EXACT = '{"n":123456789012345678901234567890,"z":-0,"p":1.50,"e":"caf\\u00e9 \\/","k":{"b":1,"2":2},"big":1e400}';

async function seed(app: ReturnType<typeof createApp>): Promise<void> {
  const put = async (path: string, body: string, method = 'PUT') => {
    const response = await app.request(path, { method, body });
    expect(response.status, await response.clone().text()).toBeLessThan(300);
  };
  await put('/api/endpoints/one', `{"data":${EXACT},"statusCode":202,"delay":1}`);
  await put('/api/endpoints/scalar', '{"data":-0.0e-0}');
  await put('/api/endpoints/words', '{"data":["yes","0123","null","a: b","#x","multi\\nline  "]}');
  await put(
    '/api/endpoints/two/routes',
    JSON.stringify({
      routes: [
        {
          id: 'r1',
          match: { method: 'POST', path: '/x/:id', headers: { prefer: 'code=404' }, body: { kind: 'a' } },
          answer: { statusCode: 404, headers: { 'set-cookie': ['a=1', 'b=2'] }, data: 'x' },
        },
        { answer: { body: '{{params.id}}: yes\n', template: true, headers: { 'content-type': 'text/plain' } } },
      ],
    }).replace('"data":"x"', `"data":${EXACT}`),
  );
  await put('/api/endpoints/two', '{"data":[1.0]}');
  await put(
    '/api/endpoints/two/queue',
    `{"answers":[{"statusCode":503,"data":${EXACT},"times":2},{"statusCode":500,"body":"later"}]}`,
    'POST',
  );
}

async function answers(app: ReturnType<typeof createApp>): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const [path, method] of [
    ['/endpoint/one', 'GET'],
    ['/endpoint/scalar', 'GET'],
    ['/endpoint/words', 'GET'],
    ['/endpoint/two/x/5', 'GET'],
    ['/endpoint/two', 'GET'],
  ] as const) {
    const response = await app.request(path, { method });
    out.push({ status: response.status, type: response.headers.get('content-type'), text: await response.text() });
  }
  return out;
}

describe('exportMockFile', () => {
  it('YAML: each data in exact JSON form; export → reset → apply → export gives the same bytes and answers', async () => {
    const app = createApp();
    const target = { url: 'http://app', fetch: async (request: Request) => app.request(request) };
    await seed(app);
    const names = ['one', 'scalar', 'two', 'words'];
    const yaml = await exportMockFile(target, { names, format: 'yaml' });
    expect(yaml).toContain(`data: ${EXACT}\n`);
    expect(yaml).toContain('data: -0.0e-0\n');
    expect(yaml.startsWith('version: 1\nendpoints:\n  - name: one\n')).toBe(true);
    // The same endpoints as the JSON export says.
    const fromYaml = parseMockFile(yaml, { file: 'x.yaml' });
    const fromJson = parseMockFile(await exportMockFile(target, { names }), { file: 'x.json' });
    expect(fromYaml).toEqual(fromJson);

    expect((await app.request('/api/endpoints', { method: 'DELETE' })).status).toBe(204);
    for (const name of names) await app.request(`/api/endpoints/${name}/queue`, { method: 'DELETE' });
    expect((await app.request('/endpoint/one')).status).toBe(404);

    await applyMockFile(fromYaml, target);
    expect(await exportMockFile(target, { names, format: 'yaml' })).toBe(yaml);
    // The same answers as an app that never went through the file.
    const untouched = createApp();
    await seed(untouched);
    expect(await answers(app)).toEqual(await answers(untouched));
  });
});
