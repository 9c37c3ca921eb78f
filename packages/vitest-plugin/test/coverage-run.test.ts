/**
 * The plugin's `coverage` option in a real Vitest run of test/fixtures/dead-routes: three tests,
 * each in a session of its own that starts with a mock file of four routes, hit two of them. At the
 * end of the run the two never hit are printed and written as JSON, and `failOnDead` fails the run
 * (exit 1) although every test passed; without sessions the run's instance is read instead.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES, runVitest } from './run-vitest.js';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

const DEAD_LINES = ['  api: GET /users/:id/avatar  (route route-3)', '  billing: GET /invoices  (route invoices)'];

describe('mockpoint({ coverage })', { timeout: 120_000 }, () => {
  it('adds up every test session, prints the dead routes, writes the file and fails the run', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mockpoint-coverage-run-'));
    dirs.push(dir);
    const file = join(dir, 'out', 'coverage.json');
    const run = await runVitest(
      join(FIXTURES, 'dead-routes'),
      { MOCKPOINT_FAIL_ON_DEAD: '1', MOCKPOINT_COVERAGE_FILE: file },
      110_000,
    );
    expect(run.output).toContain('Tests  3 passed (3)');
    expect(run.output).toContain(
      ['mockpoint coverage: 4 routes in 3 sessions, 2 never hit', ...DEAD_LINES, '  1 request hit no route'].join('\n'),
    );
    expect(run.output).toContain('mockpoint: DEAD_MOCKS: 2 never hit, the run fails (coverage.failOnDead)');
    expect(run.code, run.output).toBe(1);

    const written = JSON.parse(readFileSync(file, 'utf8'));
    expect(written).toMatchObject({ sessions: 3, routes: 4, dead: 2, unmatched: 1 });
    expect(written.endpoints).toEqual([
      {
        name: 'api',
        routes: [
          { id: 'route-1', match: 'GET /users/:id', hits: 3, sessions: 3 },
          { id: 'route-2', match: 'POST /users', hits: 1, sessions: 3 },
          { id: 'route-3', match: 'GET /users/:id/avatar', hits: 0, sessions: 3 },
        ],
        dead: [{ id: 'route-3', match: 'GET /users/:id/avatar' }],
        unmatched: 1,
      },
      {
        name: 'billing',
        routes: [{ id: 'invoices', match: 'GET /invoices', hits: 0, sessions: 3 }],
        dead: [{ id: 'invoices', match: 'GET /invoices' }],
        unmatched: 0,
      },
    ]);
  });

  it("without sessions reads the run's instance, and without failOnDead only prints", async () => {
    const run = await runVitest(join(FIXTURES, 'dead-routes'), { MOCKPOINT_FIXTURE_SESSIONS: '0' }, 110_000);
    expect(run.output).toContain(['mockpoint coverage: 4 routes in 1 session, 2 never hit', ...DEAD_LINES].join('\n'));
    expect(run.output).not.toContain('DEAD_MOCKS');
    expect(run.code, run.output).toBe(0);
  });
});
