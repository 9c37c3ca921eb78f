// `--https` against the built daemon: ready means ready (once /api/health answers, the HTTPS port
// listens and the CA file is on disk: curl --cacert succeeds at once), and `--memory` writes
// nothing into the data directory (the CA lives in a temporary folder of the run's, removed on stop).
import { execFile } from 'node:child_process';
import { access, readdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import { makeTempDir, ON_BUN, spawnCli, startDaemon, useDaemons } from './helpers/daemon.js';
import { freePort } from './helpers/free-port.js';

const run = promisify(execFile);

useDaemons();

/** curl's status for `url` trusting `ca`, or its failure (e.g. `curl: (7) Failed to connect`). */
async function curlStatus(url: string, ca: string): Promise<string> {
  try {
    const { stdout } = await run('curl', [
      '-sS',
      '--max-time',
      '5',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code}',
      '--cacert',
      ca,
      url,
    ]);
    return stdout;
  } catch (error) {
    return (error as { stderr: string }).stderr.trim();
  }
}

describe.skipIf(ON_BUN)('--https start-up', () => {
  it('listens on HTTPS and has written the CA before /api/health first answers (fresh data directory)', async () => {
    const [port, httpsPort] = [await freePort(), await freePort()];
    const cwd = await makeTempDir('mockpoint-ready-');
    const proc = await spawnCli({
      cwd,
      args: ['--port', String(port), '--host', '127.0.0.1', '--https', '--https-port', String(httpsPort)],
    });
    let exited = false;
    await vi.waitFor(
      async () => {
        exited ||= proc.child.exitCode !== null;
        if (exited) return;
        const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
          (response) => response.ok,
          () => false,
        );
        if (!ok) throw new Error('/api/health: not answering within 20 s');
      },
      { timeout: 20_000, interval: 5 },
    );
    expect(proc.child.exitCode, proc.stderr).toBeNull();
    // The moment health answers: the CA is on disk and the HTTPS port answers with a certificate it signed.
    const ca = join(cwd, 'data', 'mockpoint-ca.pem');
    expect(await curlStatus(`https://127.0.0.1:${httpsPort}/api/health`, ca)).toBe('200');
  });

  it('with --memory keeps the CA out of the data directory, in a temporary folder removed on stop', async () => {
    const daemon = await startDaemon({ args: ['--memory', '--https', '--https-port', '0'] });
    const https = daemon.notes.find((note) => note.startsWith('https on '))?.match(/https:\/\/\S+/)?.[0] as string;
    const ca = daemon.notes.find((note) => note.startsWith('local CA '))?.match(/NODE_EXTRA_CA_CERTS=(\S+)/)?.[1];
    expect(ca, daemon.startLine).toMatch(
      new RegExp(`^${tmpdir().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/mockpoint-ca-`),
    );
    expect(await curlStatus(`${https}/api/health`, ca as string)).toBe('200');
    // Nothing written where the daemon stands (the data directory's default is ./data).
    expect(await readdir(daemon.cwd)).toEqual([]);
    const folder = join(ca as string, '..');
    expect((await stat(folder)).mode & 0o777).toBe(0o700);
    await daemon.stop();
    await expect(access(folder)).rejects.toThrow(/ENOENT/);
  });
});
