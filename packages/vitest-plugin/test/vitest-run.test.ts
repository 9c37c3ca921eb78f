/**
 * The plugin, fixture and matchers inside a real Vitest: each case runs the
 * repository's Vitest on a fixture project (test/fixtures/*) in a child process.
 */
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIXTURES, runVitest } from './run-vitest.js';

describe('Vitest integration (child Vitest on fixture projects)', { timeout: 90_000 }, () => {
  let sync: string;
  beforeEach(async () => {
    sync = await mkdtemp(join(tmpdir(), 'mockpoint-sync-'));
  });
  afterEach(async () => {
    await rm(sync, { recursive: true, force: true });
  });

  it('per suite: two files running at once each add "shared" on their own instance', async () => {
    const run = await runVitest(join(FIXTURES, 'per-suite'), { MOCKPOINT_SYNC_DIR: sync });
    expect(run.output).toMatch(/Test Files\s+2 passed \(2\)/);
    expect(run.code, run.output).toBe(0);
    const urls = await Promise.all(
      ['fixture-file.url', 'use-mock-server.url'].map((f) => readFile(join(sync, f), 'utf8')),
    );
    expect(urls[0]).not.toBe(urls[1]);
  });

  it('per run: the global setup provides one instance to every file and closes it at the end', async () => {
    const run = await runVitest(join(FIXTURES, 'global-setup'), { MOCKPOINT_SYNC_DIR: sync });
    expect(run.output).toMatch(/Test Files\s+2 passed \(2\)/);
    expect(run.code, run.output).toBe(0);
    const [first, second] = await Promise.all(['first.url', 'second.url'].map((f) => readFile(join(sync, f), 'utf8')));
    expect(first).toBe(second);
    // The teardown closed it when Vitest finished.
    await expect(fetch(`${first}/api/health`)).rejects.toThrow();
  });

  it("the plugin's intercept option: the tests' fetch and https.get to a fixed origin reach the run's instance", async () => {
    const run = await runVitest(join(FIXTURES, 'intercept'));
    expect(run.output).toMatch(/Tests\s+1 passed \(1\)/);
    expect(run.code, run.output).toBe(0);
  });

  it('the plugin as the tarball ships it (dist/ without its maps): no "Failed to load source map" (issue 71)', async () => {
    // A project whose @mockpoint/vitest holds what `files` packs: dist/ less **/*.map and the
    // published exports (no source condition); its dependencies linked from the clone.
    const plugin = fileURLToPath(new URL('..', import.meta.url));
    const project = await mkdtemp(join(tmpdir(), 'mockpoint-shipped-'));
    try {
      const installed = join(project, 'node_modules', '@mockpoint', 'vitest');
      await mkdir(installed, { recursive: true });
      await cp(join(plugin, 'dist'), join(installed, 'dist'), {
        recursive: true,
        filter: (file) => !file.endsWith('.map') && !file.endsWith('.build-stamp'),
      });
      const manifest = JSON.parse(await readFile(join(plugin, 'package.json'), 'utf8'));
      await writeFile(join(installed, 'package.json'), JSON.stringify({ ...manifest, ...manifest.publishConfig }));
      for (const [name, from] of [
        ['@mockpoint/core', join(plugin, '..', 'core')],
        ['@mswjs/interceptors', join(plugin, 'node_modules', '@mswjs', 'interceptors')],
        ['vitest', join(plugin, 'node_modules', 'vitest')],
      ] as const) {
        await mkdir(join(project, 'node_modules', name, '..'), { recursive: true });
        await symlink(from, join(project, 'node_modules', name), 'dir');
      }
      await writeFile(
        join(project, 'vitest.config.mjs'),
        "import { mockpoint } from '@mockpoint/vitest/plugin';\n" +
          "export default { plugins: [mockpoint({ intercept: ['https://api.github.com'] })], test: { include: ['*.test.mjs'] } };\n",
      );
      await writeFile(
        join(project, 'shipped.test.mjs'),
        "import { expect, test } from 'vitest';\ntest('runs', () => expect(1).toBe(1));\n",
      );
      const run = await runVitest(project);
      expect(run.code, run.output).toBe(0);
      expect(run.output).toMatch(/Tests\s+1 passed \(1\)/);
      expect(run.output).not.toContain('source map');
    } finally {
      await rm(project, { recursive: true, force: true });
    }
  });

  it('a failing matcher reports the requests the endpoint received', async () => {
    const run = await runVitest(join(FIXTURES, 'failing-matcher'));
    expect(run.code).toBe(1);
    expect(run.output).toMatch(/Tests\s+1 failed \| 1 passed \(2\)/);
    expect(run.output).toContain(
      'expected endpoint "hook" to have been requested with {"body": {"event": "created", "id": 8}, "method": "PUT"}, but none matched;',
    );
    expect(run.output).toContain('received 2 requests:');
    expect(run.output).toContain('1. POST /endpoint/hook?attempt=1');
    expect(run.output).toContain('body: {"event":"created","id":7}');
    expect(run.output).toContain('2. DELETE /endpoint/hook');
  });

  it('an un-awaited matcher fails the test that forgot the await, naming the matcher', async () => {
    const report = join(sync, 'report.json');
    const run = await runVitest(join(FIXTURES, 'unawaited-matcher'), {}, 60_000, [
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
    ]);
    expect(run.code, run.output).toBe(1);
    // Reported in the test that made the mistake, not as an unhandled rejection blamed on a later test.
    expect(run.output).not.toContain('Unhandled');
    const results = (
      JSON.parse(await readFile(report, 'utf8')) as {
        testResults: { assertionResults: { title: string; status: string; failureMessages: string[] }[] }[];
      }
    ).testResults.flatMap((file) => file.assertionResults);
    expect(results.map(({ title, status }) => [title, status])).toEqual([
      ['passes: every matcher awaited', 'passed'],
      ['forgets await on a matcher that fails', 'failed'],
      ['forgets await on a negated matcher', 'failed'],
    ]);
    const [, failing, negated] = results.map((result) => result.failureMessages.join('\n'));
    expect(failing).toContain('mockpoint: expect(endpoint "hook").toHaveBeenRequestedTimes(1) was not awaited');
    // With what became of it, and the stack from the line that forgot the `await`.
    expect(failing).toMatch(
      / (It had not finished when the test ended|It passed, but too late to count|It failed, too late to fail the test: .*)\.?\n/,
    );
    expect(failing).toMatch(/unawaited\.test\.ts:15:16/);
    expect(negated).toContain(
      'expect(endpoint "hook").not.toHaveBeenRequestedWith({ method: \'PUT\' }) was not awaited',
    );
    expect(negated).toMatch(/unawaited\.test\.ts:23:20/);
  });
});
