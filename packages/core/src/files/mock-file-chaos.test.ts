// Chaos in a mock file: `chaos:` per endpoint, checked as PUT …/chaos checks it
// (refused at the entry's line with the API's code), applied to an app,
// exported and applied again unchanged, and removed when taken out of the file.
import { describe, expect, it } from 'vitest';
import { createApp } from '../http/create-app.js';
import type { MockpointError } from '../registry/errors.js';
import { applyChanges, applyMockFile } from './apply-mock-file.js';
import { exportMockFile } from './export-mock-file.js';
import { parseMockFile } from './parse-mock-file.js';

const YAML = `version: 1
endpoints:
  - name: flaky
    data: { ok: true }
    chaos: { rate: 1, faults: ["503"], seed: 7, latency: { distribution: uniform, min: 0, max: 5 } }
  - name: calm
    data: 1
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

describe('chaos in a mock file', () => {
  it('reads it as the API does', () => {
    const file = parseMockFile(YAML);
    expect(file.endpoints[0]?.chaos).toEqual({
      rate: 1,
      faults: ['503'],
      seed: 7,
      latency: { distribution: 'uniform', min: 0, max: 5 },
    });
    expect(file.endpoints[1]?.chaos).toBeUndefined();
  });

  it.each([
    ['rate: 2, faults: ["503"]', 'INVALID_CHAOS', /endpoints\[0\]\.chaos\.rate: /],
    ['rate: 0.5, faults: []', 'INVALID_CHAOS', /endpoints\[0\]\.chaos\.faults: /],
    ['rate: 0.5, faults: ["404"]', 'INVALID_CHAOS', /endpoints\[0\]\.chaos\.faults\[0\]: /],
    ['rate: 0.5, faults: ["503", "503"]', 'INVALID_CHAOS', /endpoints\[0\]\.chaos: faults: each fault once/],
    ['rate: 0.5, faults: ["503"], seed: 1.5', 'INVALID_CHAOS', /endpoints\[0\]\.chaos\.seed: /],
    ['rate: 0.5, faults: ["503"], color: red', 'UNKNOWN_FIELD', /endpoints\[0\]\.chaos: unknown field\(s\): color/],
    [
      'rate: 0.5, faults: ["503"], latency: { distribution: uniform, min: 0, max: 999999 }',
      'INVALID_LATENCY',
      /endpoints\[0\]\.chaos\.latency\.max: /,
    ],
    [
      'rate: 0.5, faults: ["503"], latency: { distribution: normal, mean: 5, stddev: 1, seed: 3 }',
      'INVALID_LATENCY',
      /endpoints\[0\]\.chaos: latency\.seed: the chaos seed/,
    ],
  ])('refuses chaos { %s } at the entry, with the API code %s', (chaos, reason, message) => {
    const error = thrown(() => parseMockFile(`version: 1\nendpoints:\n  - name: a\n    chaos: { ${chaos} }\n`));
    expect(error.code).toBe('MOCK_FILE_INVALID');
    expect(error.message).toMatch(/^mockpoint\.yaml:4:\d+: /);
    expect(error.message).toMatch(message);
    expect(error.details?.reason).toBe(reason);
  });

  it('apply sets it; export gives it back; applying the export changes nothing; a file without it removes it', async () => {
    const app = createApp();
    const plan = await applyMockFile(parseMockFile(YAML), target(app));
    expect(plan.created).toEqual(['flaky', 'calm']);
    const faulted = await app.request('/endpoint/flaky');
    expect(faulted.status).toBe(503);
    expect(((await faulted.json()) as { error: { code: string } }).error.code).toBe('CHAOS_UNAVAILABLE');
    expect((await app.request('/endpoint/calm')).status).toBe(200);

    const exported = await exportMockFile(target(app));
    expect(JSON.parse(exported).endpoints[1]).toMatchObject({ name: 'flaky' });
    expect(JSON.parse(exported).endpoints[1].chaos).toEqual({
      rate: 1,
      faults: ['503'],
      latency: { distribution: 'uniform', min: 0, max: 5 },
      seed: 7,
    });
    const again = await applyMockFile(parseMockFile(exported, { file: 'export.json' }), target(app));
    expect(again.unchanged).toEqual(['calm', 'flaky']);

    // The chaos taken out of the entry (a watched reload): removed.
    const without = parseMockFile(YAML.replace(/ {4}chaos: .*\n/, ''));
    const reload = await applyChanges(parseMockFile(YAML), without, target(app));
    expect(reload.changed).toEqual(['flaky']);
    expect((await app.request('/api/endpoints/flaky/chaos')).status).toBe(404);
    expect((await app.request('/endpoint/flaky')).status).toBe(200);
  });

  it("the namespace's chaos at the top: checked, applied, exported, removed when taken out of the file", async () => {
    const bad = thrown(() => parseMockFile('version: 1\nendpoints: []\nchaos: { rate: -1, faults: ["503"] }\n'));
    expect(bad.message).toMatch(/^mockpoint\.yaml:3:\d+: chaos\.rate: /);
    expect(bad.details?.reason).toBe('INVALID_CHAOS');

    const app = createApp();
    const withChaos = parseMockFile(`${YAML}chaos: { rate: 1, faults: ["429"], seed: 2 }\n`);
    expect(withChaos.chaos).toEqual({ rate: 1, faults: ['429'], seed: 2 });
    const plan = await applyMockFile(withChaos, target(app));
    expect(plan.chaos).toBe('set');
    expect((await app.request('/endpoint/calm')).status).toBe(429);
    // flaky's own chaos wins.
    expect((await app.request('/endpoint/flaky')).status).toBe(503);
    expect(JSON.parse(await exportMockFile(target(app))).chaos).toEqual({ rate: 1, faults: ['429'], seed: 2 });
    expect((await applyMockFile(withChaos, target(app))).chaos).toBeUndefined();

    const reload = await applyChanges(withChaos, parseMockFile(YAML), target(app));
    expect(reload.chaos).toBe('removed');
    expect((await app.request('/api/chaos')).status).toBe(404);
    expect((await app.request('/endpoint/calm')).status).toBe(200);
  });

  it('an endpoint taken out of the file takes its chaos with it, also without a record', async () => {
    const app = createApp();
    const only = parseMockFile('version: 1\nendpoints:\n  - name: bare\n    chaos: { rate: 1, faults: ["500"] }\n');
    await applyMockFile(only, target(app));
    expect((await app.request('/endpoint/bare')).status).toBe(500);
    const plan = await applyChanges(only, parseMockFile('version: 1\nendpoints: []\n'), target(app));
    expect(plan.removed).toEqual(['bare']);
    expect((await app.request('/api/endpoints/bare/chaos')).status).toBe(404);
  });
});
