// Request validation in the built daemon under hostile requests: a backtracking
// pattern (^(a+)+$ against 'a' x 31 + '!'), uniqueItems over 80,000 items and a
// 20,000-object enum. While each is checked, /api/health keeps answering within
// 1 s (the bound is the behaviour: validation must not block the event loop),
// and each hostile request still gets its answer. One daemon on 127.0.0.1 port 0.
import { describe, expect, it } from 'vitest';
import { requestJson, startDaemon, useDaemons } from './helpers/daemon.js';

useDaemons();

const HEALTH_BOUND_MS = 1000;

/** Sends `hostile` and, until it is answered, one health request after another; the slowest health time. */
async function healthWhile(url: string, hostile: () => Promise<Response>) {
  let settled = false;
  const answer = hostile().finally(() => {
    settled = true;
  });
  let slowest = 0;
  let checks = 0;
  do {
    const started = performance.now();
    const health = await fetch(`${url}/api/health`);
    expect(health.status).toBe(200);
    await health.arrayBuffer();
    slowest = Math.max(slowest, performance.now() - started);
    checks++;
  } while (!settled);
  const response = await answer;
  return { response, body: await response.text(), slowest, checks };
}

describe('request validation cannot stall the daemon', () => {
  it('answers /api/health within 1 s while hostile patterns, uniqueItems and enums are checked', async () => {
    const daemon = await startDaemon();
    const pattern = { type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } };
    const values = Array.from({ length: 20_000 }, (_, i) => ({ code: i, name: `n${i}` }));
    const routes = [
      { id: 'pattern', match: { path: '/pattern' }, validate: { mode: 'enforce', body: pattern }, answer: {} },
      { id: 'query', match: { path: '/query' }, validate: { mode: 'report', query: pattern }, answer: {} },
      {
        id: 'unique',
        match: { path: '/unique' },
        validate: { mode: 'enforce', body: { uniqueItems: true } },
        answer: {},
      },
      {
        id: 'enum',
        match: { path: '/enum' },
        validate: { mode: 'enforce', body: { type: 'array', items: { enum: values } } },
        answer: {},
      },
    ];
    const put = await requestJson(`${daemon.url}/api/endpoints/hostile/routes`, { method: 'PUT', body: { routes } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const endpoint = `${daemon.url}/endpoint/hostile`;
    const hostile = `${'a'.repeat(31)}!`;
    const json = (body: unknown) => ({
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

    // Warm up first (connections, each route's schemas compiled): the bound is about the hostile checks.
    expect((await fetch(`${daemon.url}/api/health`)).status).toBe(200);
    expect((await fetch(`${endpoint}/pattern`, json({ s: 'aaa' }))).status).toBe(200);
    expect((await fetch(`${endpoint}/query?s=aaa`)).status).toBe(200);
    expect((await fetch(`${endpoint}/unique`, json([1, 2]))).status).toBe(200);
    expect((await fetch(`${endpoint}/enum`, json([values[0]]))).status).toBe(200);

    const viaBody = await healthWhile(daemon.url, () => fetch(`${endpoint}/pattern`, json({ s: hostile })));
    expect(viaBody.response.status).toBe(400);
    expect(viaBody.body).toContain('String does not match pattern.');
    expect(viaBody.slowest).toBeLessThan(HEALTH_BOUND_MS);

    const viaQuery = await healthWhile(daemon.url, () => fetch(`${endpoint}/query?s=${hostile}`));
    expect(viaQuery.response.status).toBe(200);
    expect(viaQuery.slowest).toBeLessThan(HEALTH_BOUND_MS);

    const items: unknown[] = Array.from({ length: 80_000 }, (_, i) => ({ id: i }));
    items.push({ id: 79_999 });
    const unique = await healthWhile(daemon.url, () => fetch(`${endpoint}/unique`, json(items)));
    expect(unique.response.status).toBe(400);
    expect(unique.body).toContain('Duplicate items at indexes 79999 and 80000.');
    expect(unique.slowest).toBeLessThan(HEALTH_BOUND_MS);

    const missing = Array.from({ length: 300 }, (_, i) => ({ code: -i, name: 'x' }));
    const inEnum = await healthWhile(daemon.url, () => fetch(`${endpoint}/enum`, json(missing)));
    expect(inEnum.response.status).toBe(400);
    expect(inEnum.body).toContain('REQUEST_INVALID');
    expect(inEnum.slowest).toBeLessThan(HEALTH_BOUND_MS);

    // The report-mode request was answered and journalled with its error.
    const journal = await requestJson(`${daemon.url}/api/endpoints/hostile/requests`);
    const entries = (journal.body as { requests: { subpath: string; validation?: { errors: unknown[] } }[] }).requests;
    expect(
      entries.find((entry) => entry.subpath === '/query' && entry.validation?.errors.length)?.validation?.errors,
    ).toEqual([{ in: 'query', path: '/s', message: 'String does not match pattern.' }]);
  });
});
