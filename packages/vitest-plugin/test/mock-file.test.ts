// createMockServer({ config }) and the plugin's `config` option start with a mock
// file loaded (data byte for byte); a bad file makes start-up throw with its location.
import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMockServer } from '../src/index.js';
import { FIXTURES, runVitest } from './run-vitest.js';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function fileWith(text: string, name = 'mockpoint.yaml'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'mockpoint-config-'));
  dirs.push(dir);
  writeFileSync(join(dir, name), text);
  return join(dir, name);
}

describe('createMockServer({ config })', () => {
  it('starts with the file loaded; the handle sees it and can add more', async () => {
    const path = await fileWith(
      'version: 1\nendpoints:\n  - name: big\n    statusCode: 202\n    data: [98765432109876543210, -0]\n',
    );
    await using mock = await createMockServer({ config: path });
    const response = await fetch(mock.endpointUrl('big'));
    expect(response.status).toBe(202);
    expect(await response.text()).toBe('[98765432109876543210,-0]');
    await mock.add({ name: 'more', data: 1 });
    expect((await mock.list()).endpoints.map((endpoint) => endpoint.name)).toEqual(['big', 'more']);
  });

  it('a bad file throws MOCK_FILE_INVALID naming file, line and path, and leaves nothing running', async () => {
    const path = await fileWith('version: 1\nendpoints:\n  - name: x\n    delay: fast\n');
    await expect(createMockServer({ config: path })).rejects.toMatchObject({
      code: 'MOCK_FILE_INVALID',
      message: expect.stringMatching(/mockpoint\.yaml:4:12: endpoints\[0\]\.delay: /),
    });
  });
});

// A child Vitest: the bound the other child-Vitest tests have (runVitest itself gives the child 60 s; the
// default 30 s test timeout cut that short on a busy machine).
describe('the plugin option config', { timeout: 90_000 }, () => {
  it('the run-wide instance starts with the file', async () => {
    const run = await runVitest(join(FIXTURES, 'mock-file'));
    expect(run.output).toMatch(/Tests\s+1 passed \(1\)/);
    expect(run.code, run.output).toBe(0);
  });
});
