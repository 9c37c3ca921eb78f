// `chaos:` in a mock file against the real daemon: applied at start (each
// injected fault journaled as one), changed and removed by a watched edit, an
// endpoint taken out of the file takes its chaos with it, and a bad value is
// refused with the file, the entry and the API's code (at start, on reload and
// by `mockpoint validate`), the last good version staying.
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { killAll, makeTempDir, removeTempDirs, runCli, startDaemon } from './helpers/daemon.js';

afterEach(async () => {
  await killAll();
});
afterAll(async () => {
  await removeTempDirs();
});

/** Writes a file the way editors save: a new file renamed over the old one. */
function save(path: string, text: string): void {
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}

const file = (chaos: string) =>
  `version: 1\nendpoints:\n  - name: flaky\n    data: { ok: true }\n${chaos}  - name: other\n    data: 2\n`;

async function status(url: string): Promise<number> {
  const response = await fetch(url);
  await response.arrayBuffer();
  return response.status;
}

describe('chaos in a mock file, on the daemon', () => {
  it('applied at start, changed and removed by a watched edit; a bad edit is refused and the last good stays', async () => {
    const cwd = await makeTempDir();
    const path = join(cwd, 'mockpoint.yaml');
    writeFileSync(path, file('    chaos: { rate: 1, faults: ["503"], seed: 1 }\n'));
    const daemon = await startDaemon({ cwd, args: ['--memory', '--config', 'mockpoint.yaml', '--watch'] });

    const faulted = await fetch(`${daemon.url}/endpoint/flaky`);
    expect(faulted.status).toBe(503);
    expect(((await faulted.json()) as { error: { code: string } }).error.code).toBe('CHAOS_UNAVAILABLE');
    expect(await status(`${daemon.url}/endpoint/other`)).toBe(200);
    const journal = (await (await fetch(`${daemon.url}/api/endpoints/flaky/requests`)).json()) as {
      requests: { answeredBy: unknown }[];
    };
    expect(journal.requests.map((entry) => entry.answeredBy)).toEqual([{ chaos: '503' }]);

    // Changed: another fault.
    save(path, file('    chaos: { rate: 1, faults: ["500"] }\n'));
    await expect.poll(() => daemon.stderr, { timeout: 10_000 }).toContain('reloaded: changed flaky');
    expect(await status(`${daemon.url}/endpoint/flaky`)).toBe(500);

    // A bad edit: one line naming the file, the line, the entry; nothing changes.
    save(path, file('    chaos: { rate: 1.5, faults: ["500"] }\n'));
    await expect.poll(() => daemon.stderr, { timeout: 10_000 }).toContain('not applied, the last good version stays');
    const refusal = daemon.stderr.split('\n').filter((line) => line.includes('not applied'));
    expect(refusal).toHaveLength(1);
    expect(refusal[0]).toMatch(
      new RegExp(`${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:5:\\d+: endpoints\\[0\\]\\.chaos\\.rate: `),
    );
    expect(await status(`${daemon.url}/endpoint/flaky`)).toBe(500);

    // Taken out of the entry: removed.
    save(path, file(''));
    await expect.poll(() => status(`${daemon.url}/endpoint/flaky`), { timeout: 10_000 }).toBe(200);
    expect(await status(`${daemon.url}/api/endpoints/flaky/chaos`)).toBe(404);

    // Back, then the whole endpoint taken out of the file: its chaos goes with it.
    save(path, file('    chaos: { rate: 1, faults: ["429"] }\n'));
    await expect.poll(() => status(`${daemon.url}/endpoint/flaky`), { timeout: 10_000 }).toBe(429);
    save(path, 'version: 1\nendpoints:\n  - name: other\n    data: 2\n');
    await expect.poll(() => status(`${daemon.url}/api/endpoints/flaky/chaos`), { timeout: 10_000 }).toBe(404);
  });

  it("the namespace's chaos at the top of the file: applied at start, removed by a watched edit", async () => {
    const cwd = await makeTempDir();
    const path = join(cwd, 'mockpoint.yaml');
    writeFileSync(path, `${file('')}chaos: { rate: 1, faults: ["503"] }\n`);
    const daemon = await startDaemon({ cwd, args: ['--memory', '--config', 'mockpoint.yaml', '--watch'] });
    expect(await status(`${daemon.url}/endpoint/flaky`)).toBe(503);
    expect(await status(`${daemon.url}/endpoint/other`)).toBe(503);

    save(path, file(''));
    await expect.poll(() => daemon.stderr, { timeout: 10_000 }).toContain('reloaded: namespace chaos removed');
    expect(await status(`${daemon.url}/endpoint/other`)).toBe(200);
    expect(await status(`${daemon.url}/api/chaos`)).toBe(404);
  });

  it('a bad chaos stops start-up with one line, and validate names the entry and the code', async () => {
    const cwd = await makeTempDir();
    writeFileSync(join(cwd, 'm.yaml'), file('    chaos: { rate: 0.5, faults: ["503", "503"] }\n'));
    const run = await runCli({ cwd, args: ['--memory', '--port', '0', '--config', 'm.yaml'] });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      new RegExp(
        `^mockpoint: error: ${join(cwd, 'm.yaml')}:5:\\d+: endpoints\\[0\\]\\.chaos: faults: each fault once\\n$`,
      ),
    );
    const validate = await runCli({ cwd, args: ['validate', 'm.yaml'] });
    expect(validate.code).toBe(1);
    expect(validate.stderr).toMatch(
      /^m\.yaml:5:\d+: endpoints\[0\]\.chaos: faults: each fault once \[MOCK_FILE_INVALID\]\n$/,
    );
  });
});
