// Secrets on disk: the data directory of the built daemon (LevelDB, the local CA) is its owner's
// alone. Started under umask 000 (the most permissive), with a webhook signing secret and a
// delivery's signing secret stored, every file under data/ is 0600 and the folder 0700, checked
// with stat on the real files; a folder and files left looser (by an older version) are tightened
// at the next start, said in one line.
import { chmod, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTempDir, ON_BUN, requestJson, startDaemon, useDaemons } from './helpers/daemon.js';

useDaemons();

const SIGNING_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const DELIVERY_SECRET = 'whsec_c2VjcmV0LWRlbGl2ZXJ5LWtleS0xMjM0NTY3OA==';
/** A umask of 000 for the daemon's process, before anything of it runs. */
const UMASK_000 = ['--import', 'data:text/javascript,process.umask(0)'];

/** Each entry under `dir` (the folder itself first) with its permission bits. */
async function modes(dir: string): Promise<[string, number][]> {
  const out: [string, number][] = [[dir, (await stat(dir)).mode & 0o777]];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await modes(path)));
    else out.push([path, (await stat(path)).mode & 0o777]);
  }
  return out;
}

async function storeSecrets(url: string): Promise<void> {
  const check = await requestJson(`${url}/api/endpoints/hook/signature`, {
    method: 'PUT',
    body: { scheme: 'standard', secret: SIGNING_SECRET, enforce: true },
  });
  expect(check.status, JSON.stringify(check.body)).toBe(200);
  // A delivery to a port nothing listens on, retried later: pending, so kept on disk with its secret.
  const delivery = await requestJson(`${url}/api/deliveries`, {
    method: 'POST',
    body: {
      url: 'http://127.0.0.1:9/hook',
      data: { type: 'order.paid' },
      sign: { scheme: 'standard', secret: DELIVERY_SECRET },
      retry: { delaysMs: [3_600_000] },
    },
  });
  expect(delivery.status, JSON.stringify(delivery.body)).toBe(202);
}

describe.skipIf(ON_BUN)('the data directory on disk', () => {
  it('keeps the folder 0700 and every file 0600 under umask 000: LevelDB with secrets, the CA', async () => {
    const daemon = await startDaemon({ nodeArgs: UMASK_000, args: ['--https', '--https-port', '0'] });
    await storeSecrets(daemon.url);
    await daemon.stop();
    const data = join(daemon.cwd, 'data');
    const found = await modes(data);
    // The secrets are in these files (LevelDB keeps them as written): what the modes protect.
    const texts = await Promise.all(found.slice(1).map(([path]) => readFile(path, 'latin1')));
    expect(texts.some((text) => text.includes(SIGNING_SECRET))).toBe(true);
    expect(found.map(([path]) => path)).toContain(join(data, 'mockpoint-ca-key.pem'));
    expect(found.length).toBeGreaterThan(4);
    expect(found.map(([path, mode]) => [path, mode.toString(8)])).toEqual(
      found.map(([path], index) => [path, index === 0 ? '700' : '600']),
    );
    expect(daemon.stderr).toBe('');
  });

  it('tightens a folder and files left readable by others at the next start, in one line', async () => {
    const cwd = await makeTempDir('mockpoint-modes-');
    const first = await startDaemon({ cwd, args: [] });
    await storeSecrets(first.url);
    await first.stop();
    const data = join(cwd, 'data');
    // As an older version under umask 022 left them.
    for (const [path] of await modes(data)) await chmod(path, path === data ? 0o755 : 0o644);
    const second = await startDaemon({ cwd, args: [] });
    const lines = second.stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^mockpoint: warning: data directory ${data}: the folder was mode 0755 and \\d+ file\\(s\\) in it were readable by others; now the folder is 0700 and its files 0600`,
      ),
    );
    for (const [path, mode] of await modes(data))
      expect([path, mode.toString(8)]).toEqual([path, path === data ? '700' : '600']);
    await second.stop();
  });
});
