/**
 * Test sessions in a user's project: test/fixtures/sessions copied to a temporary directory
 * outside the repository, its node_modules linking the built packages (dist/, as installed),
 * run by Vitest with two files of concurrent tests that all use the same endpoint names with
 * different data. Each sees only its own answers, journal and state; the one test that makes
 * requests nothing answers fails, and only it (read from Vitest's JSON report).
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, runVitest } from './run-vitest.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));

interface Report {
  testResults: { name: string; assertionResults: { title: string; status: string; failureMessages: string[] }[] }[];
}

describe('test sessions, from a project outside the repository', { timeout: 120_000 }, () => {
  let work: string;
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'mockpoint-sessions-'));
  });
  afterAll(() => {
    rmSync(work, { recursive: true, force: true });
  });

  it('every test has its own session; the one with unhandled requests fails, and only it', async () => {
    const built = join(REPO, 'packages/vitest-plugin/dist/session-setup.js');
    expect(existsSync(built), `${built} is missing: run pnpm build first`).toBe(true);
    const project = join(work, 'project');
    cpSync(join(FIXTURES, 'sessions'), project, { recursive: true });
    writeFileSync(join(project, 'package.json'), '{ "private": true, "type": "module" }\n');
    const links: Record<string, string> = {
      '@mockpoint/vitest': join(REPO, 'packages/vitest-plugin'),
      '@mockpoint/core': join(REPO, 'packages/core'),
      vitest: join(REPO, 'node_modules/vitest'),
    };
    for (const [name, target] of Object.entries(links)) {
      const link = join(project, 'node_modules', name);
      mkdirSync(dirname(link), { recursive: true });
      symlinkSync(realpathSync(target), link, 'dir');
    }
    const sync = join(work, 'sync');
    mkdirSync(sync);
    const report = join(work, 'report.json');
    const run = await runVitest(project, { MOCKPOINT_SYNC_DIR: sync, MOCKPOINT_URL: '' }, 110_000, [
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
    ]);
    expect(existsSync(report), run.output).toBe(true);
    const results = (JSON.parse(readFileSync(report, 'utf8')) as Report).testResults.flatMap((file) =>
      file.assertionResults.map((result) => ({ ...result, file: file.name.slice(project.length + 1) })),
    );
    expect(
      results.map(({ file, title, status }) => `${file} ${status} ${title.split(' ')[0]}`).sort(),
      run.output,
    ).toEqual([
      'a.test.ts passed a1',
      'a.test.ts passed a2',
      'a.test.ts passed a3',
      'b.test.ts failed unhandled:',
      'b.test.ts passed b1',
      'b.test.ts passed b2',
      'b.test.ts passed b3',
    ]);
    const failure = results.find((result) => result.status === 'failed')?.failureMessages.join('\n') ?? '';
    expect(failure).toContain(
      "mockpoint: 2 requests in this test's session reached no endpoint or route (onUnhandledRequest: 'error'):",
    );
    expect(failure).toMatch(/1\. GET nobody \/x → 404: .+/);
    expect(failure).toMatch(/2\. DELETE api \/missing → 404: .+/);
    expect(run.code).toBe(1);
  });
});
