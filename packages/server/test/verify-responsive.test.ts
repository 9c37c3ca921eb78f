// `POST /api/verify` of a large OpenAPI document against the real daemon: the document is read, indexed and
// compiled a slice per event-loop turn (docs/verify.md), so /api/health keeps answering while it runs.
import { expect, it } from 'vitest';
import { startDaemon, useDaemons } from './helpers/daemon.js';
import { watchHealth } from './helpers/watch-health.js';

useDaemons();

const PATHS = 80_000;

/** A document of `n` paths `/p{i}/{id}`, each a GET answering 200 with an object of an integer id. */
function documentOf(n: number): string {
  const paths: Record<string, unknown> = {};
  const schema = { $ref: '#/components/schemas/Item' };
  for (let i = 0; i < n; i++) {
    paths[`/p${i}/{id}`] = {
      get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema } } } } },
    };
  }
  const Item = { type: 'object', properties: { id: { type: 'integer' } } };
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'Big', version: '1' },
    paths,
    components: { schemas: { Item } },
  });
}

it(`answers /api/health throughout a verify against a ${PATHS.toLocaleString('en')}-path document`, async () => {
  const daemon = await startDaemon({ args: ['--memory', '--max-body-bytes', String(64 * 1024 * 1024)] });
  const routes = Array.from({ length: 200 }, (_, i) => ({
    id: `r${i}`,
    match: { method: 'GET', path: `/p${i * 400}/:id` },
    answer: { data: { id: i % 2 === 0 ? i : 'x' } },
  }));
  // A route for one case of an operation (a literal where the document has {id}): the document's paths are indexed.
  routes.push({ id: 'one-case', match: { method: 'GET', path: '/p7/42' }, answer: { data: { id: 42 } } });
  const put = await fetch(`${daemon.url}/api/endpoints/big/routes`, {
    method: 'PUT',
    body: JSON.stringify({ routes }),
  });
  expect(put.status).toBe(200);
  // Encoded before the watch starts, so this process's own work does not delay its asks.
  const body = Buffer.from(`{"openapi":${documentOf(PATHS)}}`);
  const watch = await watchHealth(daemon.url, daemon.child.pid as number, 5);
  const started = performance.now();
  const response = await fetch(`${daemon.url}/api/verify`, { method: 'POST', body });
  const report = (await response.json()) as { checked: unknown; findings: unknown[] };
  const took = performance.now() - started;
  const health = await watch.stop();
  console.log(
    `verify: ${PATHS} paths, 201 routes in ${took.toFixed(0)} ms; /api/health asked ${health.asked} times, slowest ${health.worstMs.toFixed(0)} ms`,
  );
  expect(response.status).toBe(200);
  expect(report.checked).toEqual({ endpoints: 1, routes: 201 });
  expect(report.findings).toHaveLength(100);
  expect(health.failed).toBe(0);
  expect(health.asked).toBeGreaterThan(5);
  // Generous: a verify that held the event loop for its whole read (over a second) fails it.
  expect(health.worstMs).toBeLessThan(1000);
}, 120_000);
