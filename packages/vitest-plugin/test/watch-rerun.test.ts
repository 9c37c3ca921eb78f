/**
 * Watch mode: the per-run instance lives as long as the Vitest process, and the
 * global setup empties it before every rerun (project.onTestsRerun).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it, vi } from 'vitest';
import { startVitest } from './run-vitest.js';

const PACKAGE = fileURLToPath(new URL('..', import.meta.url));
const PLUGIN = join(PACKAGE, 'src', 'plugin.js');
// Printed after each run: "Waiting for file changes" when it passed, "Watching for file changes" when not.
const IDLE = /(?:Waiting|Watching) for file changes/g;

// The project is written under .tmp/ (git-ignored, and under a `fixtures` folder so
// the parent run never collects it), inside the package so it resolves vitest and
// @mockpoint/vitest like the committed fixtures do.
const config = `import { defineConfig } from 'vitest/config';
import { mockpoint } from ${JSON.stringify(PLUGIN)};
export default defineConfig({
  plugins: [mockpoint()],
  ssr: { resolve: { conditions: ['@mockpoint/source'] } },
  test: { include: ['*.test.ts'] },
});
`;
const testFile = (run: number) => `// run ${run}
import { connectMockServer, expect, test } from '@mockpoint/vitest';
import { inject } from 'vitest';

const mock = connectMockServer(inject('mockpoint'));

test('starts from an empty instance', async () => {
  // add() fails with NAME_TAKEN when the previous run's endpoint is still there.
  const once = await mock.add({ name: 'once', data: ${run} });
  await fetch(once.url);
  expect((await mock.list()).endpoints).toHaveLength(1);
  await expect(once).toHaveBeenRequestedTimes(1);
});
`;

let root: string | undefined;
afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

function runsDone(text: string): number {
  return text.match(IDLE)?.length ?? 0;
}

async function until(check: () => boolean, what: string, output: () => string, timeoutMs = 45_000): Promise<void> {
  await vi.waitFor(
    () => {
      if (!check()) throw new Error(`timed out waiting for ${what}; output:\n${output()}`);
    },
    { timeout: timeoutMs, interval: 50 },
  );
}

it('resets the per-run instance before each watch-mode rerun', { timeout: 90_000 }, async () => {
  const parent = join(PACKAGE, '.tmp', 'fixtures');
  await mkdir(parent, { recursive: true });
  root = await mkdtemp(join(parent, 'watch-'));
  await writeFile(join(root, 'vitest.config.ts'), config);
  await writeFile(join(root, 'once.test.ts'), testFile(1));

  const { child, output } = startVitest(['watch', '--root', root]);
  try {
    await until(() => runsDone(output()) >= 1, 'the first run', output);
    expect(output()).toMatch(/Tests\s+1 passed \(1\)/);

    await writeFile(join(root, 'once.test.ts'), testFile(2));
    await until(() => runsDone(output()) >= 2, 'the rerun', output);
    const rerun = output().slice(output().search(IDLE) + 1);
    expect(rerun, output()).toMatch(/Tests\s+1 passed \(1\)/);
    expect(rerun).not.toContain('already exists');
  } finally {
    const exited = new Promise((resolve) => child.once('close', resolve));
    child.kill('SIGTERM');
    await exited;
  }
});
