// Applying a mock file compares it with what the daemon holds now, not with
// what was applied last: a queue the daemon has used up since is a change, and
// applying the file again restores it.
import { describe, expect, it } from 'vitest';
import { createApp } from '../http/create-app.js';
import { applyMockFile } from './apply-mock-file.js';
import { parseMockFile } from './parse-mock-file.js';

const FILE = `version: 1
endpoints:
  - name: flaky
    data: { ok: true }
    queue:
      - { statusCode: 503, times: 2 }
  - name: steady
    data: 1
`;

describe('applyMockFile', () => {
  it('an endpoint whose queue was used up on the daemon is changed, and applying restores the queue', async () => {
    const app = createApp();
    const target = { url: 'http://app', fetch: async (request: Request) => app.request(request) };
    const file = parseMockFile(FILE);
    const statuses = async (n: number) => {
      const out: number[] = [];
      for (let i = 0; i < n; i++) out.push((await app.request('/endpoint/flaky')).status);
      return out;
    };

    expect(await applyMockFile(file, target)).toEqual({
      created: ['flaky', 'steady'],
      changed: [],
      unchanged: [],
      removed: [],
      moved: [],
    });
    expect(await applyMockFile(file, target)).toMatchObject({ changed: [], unchanged: ['flaky', 'steady'] });
    // Half used: one of the two 503s is left, which is not what the file says.
    expect(await statuses(1)).toEqual([503]);
    expect(await applyMockFile(file, target)).toMatchObject({ changed: ['flaky'], unchanged: ['steady'] });
    expect(await statuses(3)).toEqual([503, 503, 200]);
    // Used up: the queue is empty on the daemon.
    expect(await applyMockFile(file, target, { dryRun: true })).toMatchObject({ changed: ['flaky'] });
    expect(await statuses(1)).toEqual([200]);
    expect(await applyMockFile(file, target)).toMatchObject({ changed: ['flaky'], unchanged: ['steady'] });
    expect(await statuses(3)).toEqual([503, 503, 200]);
  });
});
