// A signature check and the state's start in a mock file: `signature:` and `state:` per
// endpoint, checked as PUT …/signature and PUT …/state check them (refused at the entry's
// line with the API's code), applied to an app, exported and applied again unchanged,
// and removed when taken out of the file.
import { describe, expect, it } from 'vitest';
import { createApp } from '../http/create-app.js';
import type { MockpointError } from '../registry/errors.js';
import { applyChanges, applyMockFile } from './apply-mock-file.js';
import { exportMockFile } from './export-mock-file.js';
import { parseMockFile } from './parse-mock-file.js';

const YAML = `version: 1
endpoints:
  - name: hook
    signature: { scheme: github, secret: "It's a Secret to Everybody", enforce: true }
  - name: pay
    state: { order: paid, default: failed-once }
`;

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

describe('a signature check and state in a mock file', () => {
  it('reads them as the API does', () => {
    const file = parseMockFile(YAML);
    expect(file.endpoints[0]?.signature).toEqual({
      scheme: 'github',
      secrets: ["It's a Secret to Everybody"],
      toleranceSec: 300,
      enforce: true,
    });
    expect(file.endpoints[1]?.state).toEqual({ order: 'paid', default: 'failed-once' });
  });

  it.each([
    [
      'signature: { scheme: nope, secret: s }',
      'UNKNOWN_SIGNATURE_SCHEME',
      /endpoints\[0\]\.signature: unknown signature scheme "nope": use one of /,
    ],
    ['signature: { scheme: github }', 'INVALID_SIGNATURE_SECRET', /endpoints\[0\]\.signature: give the signing secret/],
    [
      'signature: { scheme: standard, secret: "whsec_!!" }',
      'INVALID_SIGNATURE_SECRET',
      /endpoints\[0\]\.signature: a standard \(Standard Webhooks\) secret must be whsec_/,
    ],
    [
      'signature: { scheme: hmac, secret: s }',
      'INVALID_SIGNATURE_OPTIONS',
      /endpoints\[0\]\.signature: the hmac scheme/,
    ],
    ['signature: { scheme: github, secret: s, toleranceSec: -1 }', 'INVALID_SIGNATURE_OPTIONS', /toleranceSec: /],
    ['signature: { scheme: github, secret: s, colour: red }', 'UNKNOWN_FIELD', /unknown field\(s\): colour/],
    ['state: { default: "not a value" }', 'INVALID_STATE', /endpoints\[0\]\.state\.default: /],
    ['state: { default: 5 }', 'INVALID_STATE', /endpoints\[0\]\.state\.default: /],
  ])('refuses { %s } at the entry, with the API code %s', (field, reason, message) => {
    const error = thrown(() => parseMockFile(`version: 1\nendpoints:\n  - name: a\n    ${field}\n`));
    expect(error.code).toBe('MOCK_FILE_INVALID');
    expect(error.message).toMatch(/^mockpoint\.yaml:4:\d+: /);
    expect(error.message).toMatch(message);
    expect(error.details?.reason).toBe(reason);
  });

  it('apply sets them; export gives them back (the secret in full, the start); a file without them removes them', async () => {
    const app = createApp();
    const plan = await applyMockFile(parseMockFile(YAML), target(app));
    expect(plan.created).toEqual(['hook', 'pay']);
    const refused = await app.request('/endpoint/hook', { method: 'POST', body: '{}' });
    expect(refused.status).toBe(401);
    expect(await (await app.request('/api/endpoints/pay/state')).json()).toEqual({
      default: 'failed-once',
      order: 'paid',
    });

    const exported = JSON.parse(await exportMockFile(target(app))) as { endpoints: Record<string, unknown>[] };
    expect(exported.endpoints).toEqual([
      {
        name: 'hook',
        signature: { scheme: 'github', secrets: ["It's a Secret to Everybody"], toleranceSec: 300, enforce: true },
      },
      { name: 'pay', state: { default: 'failed-once', order: 'paid' } },
    ]);
    const again = await applyMockFile(parseMockFile(JSON.stringify(exported), { file: 'export.json' }), target(app));
    expect(again.unchanged).toEqual(['hook', 'pay']);

    // Taken out of the entries (a watched reload): removed.
    const without = parseMockFile('version: 1\nendpoints:\n  - name: hook\n    data: 1\n  - name: pay\n    data: 2\n');
    const reload = await applyChanges(parseMockFile(YAML), without, target(app));
    expect(reload.changed).toEqual(['hook', 'pay']);
    expect((await app.request('/api/endpoints/hook/signature')).status).toBe(404);
    expect(await (await app.request('/api/endpoints/pay/state?start=true')).json()).toEqual({});
  });

  it('export writes the start that was put, not where requests moved the scenarios since', async () => {
    const app = createApp();
    const routes = [{ match: { path: '/go' }, answer: { data: 1, setState: 'moved' } }];
    await app.request('/api/endpoints/flow/routes', { method: 'PUT', body: JSON.stringify({ routes }) });
    await app.request('/api/endpoints/flow/state', { method: 'PUT', body: '{"default":"ready"}' });
    expect((await app.request('/endpoint/flow/go')).status).toBe(200);
    expect(await (await app.request('/api/endpoints/flow/state')).json()).toEqual({ default: 'moved' });
    expect(await (await app.request('/api/endpoints/flow/state?start=true')).json()).toEqual({ default: 'ready' });
    const [entry] = (JSON.parse(await exportMockFile(target(app))) as { endpoints: Record<string, unknown>[] })
      .endpoints;
    expect(entry?.state).toEqual({ default: 'ready' });
  });

  it('apply --prune removes a name holding only a signature check, only state or only queued answers', async () => {
    const app = createApp();
    await applyMockFile(parseMockFile(YAML), target(app));
    await app.request('/api/endpoints/q/queue', { method: 'POST', body: '{"answers":[{"statusCode":503}]}' });
    const listed = (await (await app.request('/api/endpoints')).json()) as { endpoints: unknown[] };
    expect(listed.endpoints).toEqual([
      { name: 'hook', signature: true },
      { name: 'pay', state: true },
      { name: 'q', queue: true },
    ]);
    const plan = await applyMockFile(parseMockFile('version: 1\nendpoints: []\n'), target(app), { prune: true });
    expect(plan.removed).toEqual(['hook', 'pay', 'q']);
    expect(await (await app.request('/api/endpoints')).json()).toEqual({ endpoints: [], next: null, total: 0 });
    expect((await app.request('/endpoint/hook', { method: 'POST', body: '{}' })).status).toBe(404);
  });
});
