// `mockpoint coverage` against the real built daemon: the text report (dead routes, requests that hit no route),
// --json, --names, --fail-on-dead's exit 1, and exit 2 for a bad time or no daemon.
import { afterAll, afterEach, expect, it } from 'vitest';
import { killAll, removeTempDirs, runCli, startDaemon } from './helpers/daemon.js';

afterEach(async () => {
  await killAll();
});
afterAll(async () => {
  await removeTempDirs();
});

it('prints the dead routes and unmatched requests; --fail-on-dead exits 1 while one is dead, 2 when it cannot tell', async () => {
  const daemon = await startDaemon({ args: ['--memory'] });
  const env = { MOCKPOINT_URL: daemon.url };
  const routes = [
    { id: 'pet', match: { method: 'GET', path: '/pets/:id' }, answer: { data: { id: 1 } } },
    { id: 'remove', match: { method: 'DELETE', path: '/pets/:id' }, answer: { statusCode: 204 } },
  ];
  const put = await fetch(`${daemon.url}/api/endpoints/pets/routes`, {
    method: 'PUT',
    body: JSON.stringify({ routes }),
  });
  expect(put.status).toBe(200);
  expect((await fetch(`${daemon.url}/endpoint/pets/pets/7`)).status).toBe(200);
  expect((await fetch(`${daemon.url}/endpoint/pets/owners/1`)).status).toBe(404);

  const text = await runCli({ args: ['coverage'], env });
  expect(text.stderr).toBe('');
  expect(text.code).toBe(0);
  expect(text.stdout).toContain('mockpoint coverage: 2 requests, 2 routes: 1 never hit, 1 request hit no route');
  expect(text.stdout).toContain('pets: 1 of 2 routes hit');
  expect(text.stdout).toContain('never hit: DELETE /pets/:id  (route remove, #1)');
  expect(text.stdout).toContain('GET /owners/1 → 404 (none)');

  const failing = await runCli({ args: ['coverage', '--fail-on-dead', '--json'], env });
  expect(failing.code).toBe(1);
  const report = JSON.parse(failing.stdout);
  expect(report.endpoints[0].dead).toEqual([{ id: 'remove', index: 1, match: 'DELETE /pets/:id' }]);

  expect((await fetch(`${daemon.url}/endpoint/pets/pets/7`, { method: 'DELETE' })).status).toBe(204);
  const passing = await runCli({ args: ['coverage', '--fail-on-dead', '--names', 'pets'], env });
  expect(passing.code).toBe(0);
  expect(passing.stdout).toContain('pets: 2 of 2 routes hit');

  const badTime = await runCli({ args: ['coverage', '--since', 'yesterday'], env });
  expect(badTime.code).toBe(2);
  expect(badTime.stderr).toContain('since must be an ISO 8601 time');
  const noDaemon = await runCli({ args: ['coverage'], env: { MOCKPOINT_URL: 'http://127.0.0.1:9' } });
  expect(noDaemon.code).toBe(2);
});
