// The linux-arm64 executable (`pnpm binaries`, cross-compiled on this x64 machine:
// Bun fetched the arm64 runtime from the npm registry) run for real under qemu-user,
// with Debian's arm64 C and C++ libraries (qemu-user, libc6-arm64-cross,
// libstdc++6-arm64-cross; pnpm test's preflight installs them), built into .tmp/binary-test-arm64
// (its own folder: the linux-x64 test builds beside it at the same time). Copied alone into
// an empty folder, a PATH without node: --version, the page, the embedded arm64
// LevelDB addon storing, and acknowledged writes through SIGKILL. The CPU is
// emulated, so each start takes seconds (up to ~12 s on a busy 2-core machine).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, copyFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VERSION } from '@mockpoint/core/defaults';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  addEndpoint,
  assertBuilt,
  killAll,
  makeTempDir,
  removeTempDirs,
  runCli,
  startDaemon,
} from './helpers/daemon.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const OUT = join(ROOT, '.tmp', 'binary-test-arm64');
const WEB = fileURLToPath(new URL('../dist/web/', import.meta.url));
const QEMU = '/usr/bin/qemu-aarch64';
const ARM64_LIBS = '/usr/aarch64-linux-gnu';
const DEADLINE_MS = 90_000;

let folder: string;
/** A two-line script that runs the copy under qemu: what `mockpoint` is on an arm64 machine. */
let launcher: string;
let env: Record<string, string>;

beforeAll(async () => {
  assertBuilt();
  for (const need of [
    QEMU,
    join(ARM64_LIBS, 'lib', 'ld-linux-aarch64.so.1'),
    join(ARM64_LIBS, 'lib', 'libstdc++.so.6'),
  ]) {
    if (!existsSync(need)) {
      throw new Error(`${need} is missing: apt-get install qemu-user libc6-arm64-cross libstdc++6-arm64-cross`);
    }
  }
  const build = spawnSync(
    process.execPath,
    [join(ROOT, 'scripts', 'binaries.mjs'), '--target', 'linux-arm64', '--out', OUT, '--if-stale'],
    { encoding: 'utf8', timeout: 240_000 },
  );
  expect(build.status, `${build.stdout}${build.stderr}`).toBe(0);
  folder = await makeTempDir('mockpoint-binary-arm64-');
  const exe = join(folder, 'mockpoint');
  await copyFile(join(OUT, 'mockpoint-linux-arm64'), exe);
  await chmod(exe, 0o755);
  const bin = await makeTempDir('mockpoint-binary-arm64-launcher-');
  launcher = join(bin, 'mockpoint');
  await writeFile(launcher, `#!/bin/sh\nexec ${QEMU} -L ${ARM64_LIBS} ${exe} "$@"\n`, { mode: 0o755 });
  // No node: the launcher's directory alone (its script names /bin/sh and qemu by path).
  env = { PATH: bin, TMPDIR: await makeTempDir('mockpoint-binary-arm64-tmp-') };
}, 300_000);
afterEach(() => killAll());
afterAll(() => removeTempDirs());

describe('the linux-arm64 executable under qemu-user', () => {
  it('is an aarch64 ELF file that answers --version', async () => {
    expect(readFileSync(join(folder, 'mockpoint')).subarray(0, 20)).toEqual(
      // ELF, 64-bit, little-endian, … e_machine 183 (AArch64)
      Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 183, 0]),
    );
    const which = spawnSync('/bin/sh', ['-c', 'command -v node'], { env });
    expect(which.status).not.toBe(0);
    const version = await runCli({ bin: launcher, cwd: folder, env, args: ['--version'], deadlineMs: DEADLINE_MS });
    expect(version).toMatchObject({ code: 0, stdout: `${VERSION}\n` });
  }, 120_000);

  it('serves the page, stores in LevelDB with its arm64 addon, and keeps acknowledged writes through SIGKILL', async () => {
    const first = await startDaemon({ bin: launcher, cwd: folder, env, deadlineMs: DEADLINE_MS });
    expect(first.store).toBe(`level at ${join(folder, 'data')}`);
    const page = await fetch(`${first.url}/`, { headers: { 'accept-encoding': 'identity' } });
    expect(await page.text()).toBe(readFileSync(join(WEB, 'index.html'), 'utf8'));
    const names = Array.from({ length: 10 }, (_, i) => `arm-${i}`);
    const adds = await Promise.all(names.map((name, i) => addEndpoint(first.url, { name, data: { i, name } })));
    expect(adds.map((a) => a.status)).toEqual(names.map(() => 201));
    expect(await first.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });

    const second = await startDaemon({ bin: launcher, cwd: folder, env, deadlineMs: DEADLINE_MS });
    for (const [i, name] of names.entries()) {
      const response = await fetch(`${second.url}/endpoint/${name}`);
      expect(await response.json(), name).toEqual({ i, name });
    }
    expect(await second.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    expect((await readdir(folder)).sort()).toEqual(['data', 'mockpoint']);
  }, 240_000);
});
