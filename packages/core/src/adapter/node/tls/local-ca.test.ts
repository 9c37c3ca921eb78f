// loadOrCreateCa() on a real directory: several creations at once on a fresh
// one (two daemons started with --https together) end with one key and the
// certificate it signs, and every caller signs with that pair; a key and a
// certificate of two different CAs are refused with LOCAL_CA_UNUSABLE.
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { copyFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CA_CERT_FILE, CA_KEY_FILE, loadOrCreateCa } from './local-ca.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'mockpoint-ca-'));
  dirs.push(dir);
  return dir;
}

describe('loadOrCreateCa', () => {
  it('four creations at once on a fresh directory end with one matching pair, used by all four', async () => {
    const dir = await tempDir();
    const cas = await Promise.all([1, 2, 3, 4].map(() => loadOrCreateCa(join(dir, 'data'))));
    const certPem = await readFile(join(dir, 'data', CA_CERT_FILE), 'utf8');
    const keyPem = await readFile(join(dir, 'data', CA_KEY_FILE), 'utf8');
    const onDisk = new X509Certificate(certPem);
    expect(onDisk.checkPrivateKey(createPrivateKey(keyPem))).toBe(true);
    for (const ca of cas) {
      expect(ca.certPem).toBe(certPem);
      // What each caller signs verifies against the CA clients are told to trust.
      expect(new X509Certificate(ca.issue(['localhost']).cert).verify(onDisk.publicKey)).toBe(true);
    }
    // No part files are left behind.
    expect((await readdir(join(dir, 'data'))).sort()).toEqual([CA_KEY_FILE, CA_CERT_FILE].sort());
    // A later start loads the same pair.
    expect((await loadOrCreateCa(join(dir, 'data'))).certPem).toBe(certPem);
  });

  it('a key that does not match its certificate is refused, naming both files and what to do', async () => {
    const [one, two] = [await tempDir(), await tempDir()];
    await loadOrCreateCa(one);
    await loadOrCreateCa(two);
    await copyFile(join(two, CA_KEY_FILE), join(one, CA_KEY_FILE));
    const refused = loadOrCreateCa(one);
    await expect(refused).rejects.toMatchObject({ code: 'LOCAL_CA_UNUSABLE' });
    const message = await refused.then(
      () => '',
      (error: Error) => error.message,
    );
    expect(message).toContain(join(one, CA_KEY_FILE));
    expect(message).toContain(join(one, CA_CERT_FILE));
    expect(message).toMatch(/; delete .* and .* to make a new CA/);
    expect(message).not.toContain('\n');
  });
});
