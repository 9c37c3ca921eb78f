// The Vitest plugin under Vitest 5 on Node 22, as a user project gets it: the
// packed @mockpoint/core and @mockpoint/vitest tarballs installed with npm next to
// vitest@5 and the `node@22` package (Node from the npm registry), then the
// plugin's fixture projects run there, and tsc checks them without skipLibCheck
// (the matcher types must merge with Vitest 5's). Run by .ci/run after the tests.
// Usage: node scripts/vitest5.mjs   (after pnpm build; uses the normal npm cache)
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const fixtures = join(root, 'packages', 'vitest-plugin', 'test', 'fixtures');
const work = mkdtempSync(join(tmpdir(), 'mockpoint-vitest5-'));
const project = join(work, 'project');
const failures = [];

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: 300_000, ...options });
  return { code: result.status, output: `${result.stdout ?? ''}${result.stderr ?? ''}` };
}

function must(what, result) {
  if (result.code !== 0) {
    console.error(result.output);
    throw new Error(`vitest5: ${what} failed (${result.code})`);
  }
  return result;
}

try {
  const packs = join(work, 'tarballs');
  must(
    'pnpm pack',
    run(
      'npx',
      [
        '-y',
        'pnpm@10.34.9',
        '--filter',
        '@mockpoint/core',
        '--filter',
        '@mockpoint/vitest',
        'pack',
        '--pack-destination',
        packs,
      ],
      {
        cwd: root,
      },
    ),
  );
  const tarball = (name) =>
    join(
      packs,
      readdirSync(packs).find((f) => f.startsWith(`mockpoint-${name}-`)),
    );

  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), '{ "private": true, "type": "module" }\n');
  must(
    'npm install',
    run(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        'node@22',
        'vitest@5',
        'typescript@5.9.3',
        '@types/node@22',
        tarball('core'),
        tarball('vitest'),
        // The global-setup fixture uses store: 'level', an optional peer of the
        // packages: a user installs it beside them (packages/vitest-plugin/README.md).
        'level@10',
        // The sessions-plain fixture's code under test calls out with axios (type-checked below).
        'axios@1',
      ],
      { cwd: project },
    ),
  );
  const node = join(project, 'node_modules', '.bin', 'node');
  const nodeVersion = must('node@22 --version', run(node, ['--version'])).output.trim();
  const vitestVersion = JSON.parse(
    readFileSync(join(project, 'node_modules', 'vitest', 'package.json'), 'utf8'),
  ).version;
  console.log(`vitest5: Vitest ${vitestVersion} on Node ${nodeVersion}`);

  // The fixture projects, pointed at the installed package instead of the sources.
  cpSync(fixtures, join(project, 'fixtures'), { recursive: true });
  // Fixture projects only: a fixture without a Vitest config (node-only-types, a tsc project) is not one.
  const projects = readdirSync(fixtures, { withFileTypes: true }).filter(
    (entry) => entry.isDirectory() && existsSync(join(fixtures, entry.name, 'vitest.config.ts')),
  );
  for (const { name: dir } of projects) {
    const config = join(project, 'fixtures', dir, 'vitest.config.ts');
    const text = readFileSync(config, 'utf8')
      .replace("'../../../src/plugin.js'", "'@mockpoint/vitest/plugin'")
      .replace("'../../../src/setup.ts'", "'@mockpoint/vitest/setup'");
    writeFileSync(config, text);
  }

  const vitest = join(project, 'node_modules', 'vitest', 'vitest.mjs');
  const runFixture = (dir) => {
    const sync = mkdtempSync(join(work, 'sync-'));
    return run(node, [vitest, 'run', '--root', join('fixtures', dir)], {
      cwd: project,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', MOCKPOINT_SYNC_DIR: sync },
    });
  };
  for (const dir of ['per-suite', 'global-setup']) {
    const result = runFixture(dir);
    const ok = result.code === 0 && /Test Files\s+2 passed \(2\)/.test(result.output);
    console.log(`vitest5: ${dir}: ${ok ? 'passed' : 'FAILED'}`);
    if (!ok) failures.push(`${dir}:\n${result.output}`);
  }
  // A failing matcher must fail the run and say which requests arrived.
  const failing = runFixture('failing-matcher');
  const reported =
    failing.code === 1 &&
    /Tests\s+1 failed \| 1 passed \(2\)/.test(failing.output) &&
    failing.output.includes('to have been requested with') &&
    failing.output.includes('received 2 requests:');
  console.log(`vitest5: failing-matcher: ${reported ? 'fails as it should, with the requests' : 'FAILED'}`);
  if (!reported) failures.push(`failing-matcher:\n${failing.output}`);
  // A matcher left without `await` must fail the test that did it, not surface later as an unhandled rejection.
  const unawaited = runFixture('unawaited-matcher');
  const blamed =
    unawaited.code === 1 &&
    /Tests\s+2 failed \| 1 passed \(3\)/.test(unawaited.output) &&
    unawaited.output.includes('expect(endpoint "hook").toHaveBeenRequestedTimes(1) was not awaited') &&
    !unawaited.output.includes('Unhandled');
  console.log(`vitest5: unawaited-matcher: ${blamed ? 'fails the test that forgot the await' : 'FAILED'}`);
  if (!blamed) failures.push(`unawaited-matcher:\n${unawaited.output}`);

  // Types: the fixtures (matchers, fixture context, inject) compile against Vitest 5.
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'es2022',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        types: ['node'],
        lib: ['es2023', 'esnext.disposable', 'dom'],
      },
      include: ['fixtures'],
    }),
  );
  const tsc = run(node, [join(project, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], { cwd: project });
  console.log(`vitest5: tsc over the fixtures: ${tsc.code === 0 ? 'passed' : 'FAILED'}`);
  if (tsc.code !== 0) failures.push(`tsc:\n${tsc.output}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}

if (failures.length > 0) {
  console.error(failures.join('\n\n'));
  console.error(`vitest5: ${failures.length} check(s) failed`);
  process.exit(1);
}
console.log('vitest5: all checks passed');
