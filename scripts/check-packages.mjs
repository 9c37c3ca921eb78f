// Lints what would be published: packs every public package under packages/ (pnpm pack,
// as the READMEs say), then runs publint and `attw --profile esm-only`
// (@arethetypeswrong/cli) on each tarball. Part of `pnpm lint`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packPublished, ROOT } from './pack-packages.mjs';

const PUBLINT = 'publint@0.3.25';
const ATTW = '@arethetypeswrong/cli@0.18.5';
const dest = mkdtempSync(join(tmpdir(), 'mockpoint-check-packages-'));

function run(command, args) {
  const result = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8', timeout: 300_000 });
  return { ok: result.status === 0, output: `${result.stdout ?? ''}${result.stderr ?? ''}`.trim() };
}

let failed = 0;
try {
  for (const tarball of packPublished(dest)) {
    const file = join(dest, tarball);
    for (const [tool, args] of [
      ['publint', ['-y', PUBLINT, '--strict', file]],
      ['attw', ['-y', '-p', ATTW, 'attw', '--profile', 'esm-only', '--format', 'ascii', file]],
    ]) {
      const result = run('npx', args);
      console.log(`check-packages: ${tarball}: ${tool} ${result.ok ? 'ok' : 'FAILED'}`);
      if (!result.ok) {
        console.log(result.output);
        failed++;
      }
    }
  }
} finally {
  rmSync(dest, { recursive: true, force: true });
}
if (failed > 0) {
  console.error(`check-packages: ${failed} check(s) failed`);
  process.exit(1);
}
