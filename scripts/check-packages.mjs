// Lints what would be published: packs every public package under packages/ (pnpm pack,
// as the READMEs say), then runs publint and `attw --profile esm-only`
// (@arethetypeswrong/cli) on each tarball, then installs them all into an empty project with
// npm in one command (the one docs/packages.md gives), on the Node running this (the project
// supports Node 20): the install must print no warning (EBADENGINE once came from a dependency
// that declares Node >= 22.15; npm's own install-scripts notice aside) and the installed
// `mockpoint --version` must answer.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packPublished, ROOT } from './pack-packages.mjs';

const PUBLINT = 'publint@0.3.25';
const ATTW = '@arethetypeswrong/cli@0.18.5';
const dest = mkdtempSync(join(tmpdir(), 'mockpoint-check-packages-'));

function run(command, args, cwd = ROOT) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 300_000 });
  return { ok: result.status === 0, output: `${result.stdout ?? ''}${result.stderr ?? ''}`.trim() };
}

let failed = 0;
try {
  const tarballs = packPublished(dest);
  for (const tarball of tarballs) {
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
  const project = join(dest, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), '{"name":"outside","private":true,"type":"module"}\n');
  const install = run(
    'npm',
    ['install', '--no-audit', '--no-fund', ...tarballs.map((tarball) => join(dest, tarball))],
    project,
  );
  // Any warning but npm's install-scripts notice (classic-level's node-gyp-build, which loads its prebuilt binary).
  const warnings = install.output
    .split('\n')
    .filter((line) => /^npm (?:warn|WARN)|EBADENGINE/.test(line) && !/^npm warn install-scripts/.test(line));
  const version = run(join(project, 'node_modules', '.bin', 'mockpoint'), ['--version'], project);
  const expected = JSON.parse(readFileSync(join(ROOT, 'packages', 'server', 'package.json'), 'utf8')).version;
  const installed = install.ok && warnings.length === 0 && version.ok && version.output === expected;
  console.log(
    `check-packages: npm install of the ${tarballs.length} tarballs on Node ${process.versions.node}: ${installed ? 'ok' : 'FAILED'}`,
  );
  if (!installed) {
    console.log(install.output);
    console.log(`mockpoint --version: ${version.output}`);
    failed++;
  }
} finally {
  rmSync(dest, { recursive: true, force: true });
}
if (failed > 0) {
  console.error(`check-packages: ${failed} check(s) failed`);
  process.exit(1);
}
