/**
 * Test sessions in a user's project: test/fixtures/sessions copied to a temporary directory
 * outside the repository, its node_modules linking the built packages (dist/, as installed),
 * run by Vitest with two files of concurrent tests that all use the same endpoint names with
 * different data. Each sees only its own answers, journal and state; the one test that makes
 * requests nothing answers fails, and only it (read from Vitest's JSON report).
 */
import { type ChildProcess, spawn } from 'node:child_process';
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
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIXTURES, runVitest } from './run-vitest.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));

interface Report {
  testResults: { name: string; assertionResults: { title: string; status: string; failureMessages: string[] }[] }[];
}

/** Copies a fixture under `work`, links the built packages into its node_modules, runs it and reads the report. */
async function runFixture(work: string, env: Record<string, string>, fixture = 'sessions') {
  const built = join(REPO, 'packages/vitest-plugin/dist/session-setup.js');
  expect(existsSync(built), `${built} is missing: run pnpm build first`).toBe(true);
  const project = join(work, 'project');
  cpSync(join(FIXTURES, fixture), project, { recursive: true });
  writeFileSync(join(project, 'package.json'), '{ "private": true, "type": "module" }\n');
  const links: Record<string, string> = {
    '@mockpoint/vitest': join(REPO, 'packages/vitest-plugin'),
    '@mockpoint/core': join(REPO, 'packages/core'),
    vitest: join(REPO, 'node_modules/vitest'),
    axios: join(REPO, 'packages/vitest-plugin/node_modules/axios'),
  };
  for (const [name, target] of Object.entries(links)) {
    const link = join(project, 'node_modules', name);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(realpathSync(target), link, 'dir');
  }
  const sync = join(work, 'sync');
  mkdirSync(sync);
  const report = join(work, 'report.json');
  const run = await runVitest(project, { MOCKPOINT_SYNC_DIR: sync, ...env }, 110_000, [
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
  ]);
  expect(existsSync(report), run.output).toBe(true);
  const results = (JSON.parse(readFileSync(report, 'utf8')) as Report).testResults.flatMap((file) =>
    file.assertionResults.map((result) => ({ ...result, file: file.name.slice(project.length + 1) })),
  );
  return { run, results };
}

/** All pass but the one that made requests nothing answered, which fails naming both. */
function expectOnlyTheUnhandledFails({ run, results }: Awaited<ReturnType<typeof runFixture>>): void {
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
  expect(failure).toMatch(/1\. GET nobody \/x → 404: no route of "nobody" matches GET \/x.+/);
  expect(failure).toMatch(
    /2\. DELETE api \/missing → 404: no route of "api" matches DELETE \/missing; the nearest: .+/,
  );
  expect(run.code).toBe(1);
}

/** The built daemon on a free port with an admin token; resolves with its URL once it is listening. */
async function startDaemon(token: string): Promise<{ url: string; child: ChildProcess }> {
  const cli = join(REPO, 'packages/server/dist/cli.js');
  expect(existsSync(cli), `${cli} is missing: run pnpm build first`).toBe(true);
  const child = spawn(process.execPath, [cli, '--memory', '--port', '0', '--host', '127.0.0.1'], {
    env: { ...process.env, MOCKPOINT_ADMIN_TOKEN: token, NO_COLOR: '1' },
    cwd: tmpdir(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the daemon did not start: ${output}`)), 20_000);
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const match = / listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1] as string);
      }
    });
    child.once('exit', () => reject(new Error(`the daemon exited: ${output}`)));
  });
  return { url, child };
}

describe('test sessions, from a project outside the repository', { timeout: 120_000 }, () => {
  let work: string;
  beforeEach(() => {
    work = mkdtempSync(join(tmpdir(), 'mockpoint-sessions-'));
  });
  afterEach(() => {
    rmSync(work, { recursive: true, force: true });
  });

  it("on the run's own instance: every test has its own session; the one with unhandled requests fails, and only it", async () => {
    expectOnlyTheUnhandledFails(await runFixture(work, { MOCKPOINT_URL: '' }));
  });

  it("the code under test's requests to the daemon's plain URL (fetch, node:http, axios) reach its test's session", async () => {
    const { run, results } = await runFixture(work, { MOCKPOINT_URL: '' }, 'sessions-plain');
    expect(
      results.map(({ title, status }) => `${status} ${title.split(':')[0]}`),
      run.output,
    ).toEqual(['passed p1', 'passed p2']);
    expect(run.code, run.output).toBe(0);
  });

  it('on a shared daemon with an admin token (MOCKPOINT_URL): the same, and no namespace is left', async () => {
    const token = 'sessions-admin-token';
    const daemon = await startDaemon(token);
    try {
      expectOnlyTheUnhandledFails(await runFixture(work, { MOCKPOINT_URL: daemon.url, MOCKPOINT_ADMIN_TOKEN: token }));
      const listed = await fetch(`${daemon.url}/api/namespaces`, { headers: { authorization: `Bearer ${token}` } });
      expect(await listed.json()).toEqual({ namespaces: [] });
      // The run used sessions only: the default namespace is as it was.
      expect(await (await fetch(`${daemon.url}/api/endpoints`)).json()).toMatchObject({ endpoints: [] });
    } finally {
      const exited = new Promise((resolve) => daemon.child.once('close', resolve));
      daemon.child.kill();
      await exited;
    }
  });
});
