// `--config FILE` whose file maps a host MOCKPOINT_HOSTS maps elsewhere: start-up
// stops with HOST_TAKEN, the line naming the file, and the error keeps what the
// check said (409, details { host, name }) for a caller that reads them.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, MemoryStore } from '@mockpoint/core';
import { afterAll, expect, it } from 'vitest';
import { loadAndWatch } from './watch-mock-file.js';

const dir = mkdtempSync(join(tmpdir(), 'mockpoint-watch-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('a host MOCKPOINT_HOSTS maps elsewhere stops the load: HOST_TAKEN with the file, its status and details', async () => {
  const path = join(dir, 'mockpoint.yaml');
  writeFileSync(path, 'version: 1\nendpoints:\n  - name: github\n    hosts: [uploads.github.com]\n    data: 1\n');
  const store = new MemoryStore();
  const app = createApp({ store, hosts: { 'uploads.github.com': 'octo' } });
  await app.mockpoint.hostsLoaded;
  const target = { url: 'http://app', fetch: async (request: Request) => app.request(request) };
  const error = await loadAndWatch(path, target).catch((caught: unknown) => caught);
  expect(error).toMatchObject({
    code: 'HOST_TAKEN',
    status: 409,
    details: { host: 'uploads.github.com', name: 'octo' },
  });
  expect((error as Error).message).toMatch(
    new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: endpoint "github" maps`),
  );
  expect(await store.get('github')).toBeUndefined();
});
