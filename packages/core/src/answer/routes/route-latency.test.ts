import { describe, expect, it } from 'vitest';
import type { RouteAnswer } from '../../api/route.js';
import { createApp } from '../../index.js';
import { type Latency, latencySampler } from '../../random/latency.js';
import { compileAnswer } from './route-answer.js';

function delaysOf(answer: RouteAnswer, n: number): number[] {
  const compiled = compileAnswer(answer);
  return Array.from({ length: n }, () => {
    const sent = compiled.answer(false, undefined);
    if (sent.kind === 'relay') throw new Error('no delay');
    return sent.delay;
  });
}

describe('a route answer with latency', () => {
  const latency: Latency = { distribution: 'lognormal', median: 40, sigma: 0.8, max: 1000, seed: 11 };

  it('adds a seeded draw to its delay per request: the sequence the seed gives, again after a recompile', () => {
    const expected = Array.from({ length: 300 }, latencySampler(latency)).map((drawn) => drawn + 5);
    expect(delaysOf({ data: { ok: true }, delay: 5, latency }, 300)).toEqual(expected);
    expect(delaysOf({ data: { ok: true }, delay: 5, latency }, 300)).toEqual(expected);
    expect(new Set(expected).size).toBeGreaterThan(50);
  });

  it('applies to faults and streams as to plain answers, and leaves an answer without it untouched', () => {
    const uniform: Latency = { distribution: 'uniform', min: 1, max: 9, seed: 3 };
    const expected = Array.from({ length: 50 }, latencySampler(uniform));
    expect(delaysOf({ fault: 'reset', latency: uniform }, 50)).toEqual(expected);
    expect(
      delaysOf({ stream: { format: 'sse', events: [{ data: 'a' }] }, latency: uniform } as RouteAnswer, 50),
    ).toEqual(expected);
    expect(new Set(delaysOf({ body: 'x', delay: 7 }, 10))).toEqual(new Set([7]));
  });

  it('is saved and read back with the route, and the route answers', async () => {
    const app = createApp();
    const answer = { data: { ok: true }, latency: { distribution: 'uniform', min: 0, max: 2, seed: 1 } };
    const put = await app.request('/api/endpoints/e/routes', {
      method: 'PUT',
      body: JSON.stringify({ routes: [{ id: 'r', answer }] }),
    });
    expect(put.status).toBe(200);
    const got = (await (await app.request('/api/endpoints/e/routes')).json()) as { routes: { answer: unknown }[] };
    expect(got.routes[0]?.answer).toEqual(answer);
    const hit = await app.request('/endpoint/e', { headers: { host: 'mock.test' } });
    expect(hit.status).toBe(200);
    expect(await hit.json()).toEqual({ ok: true });
  });

  it.each([
    [
      { distribution: 'uniform', min: 50, max: 10 },
      0,
      /routes\[0\]: latency.min \(50\) is more than latency.max \(10\)/,
    ],
    [{ distribution: 'normal', mean: 100, stddev: 20000 }, 0, /give latency.max/],
    [{ distribution: 'uniform', min: 0, max: 60000 }, 1, /1 \+ 60000 ms.*60000/],
    [{ distribution: 'pareto', min: 1 }, 0, /latency/],
    [{ distribution: 'uniform', min: -1, max: 5 }, 0, /latency/],
    [{ distribution: 'lognormal', median: 10, sigma: 20, max: 100 }, 0, /latency/],
    [{ distribution: 'uniform', min: 1, max: 5, seed: 1.5 }, 0, /latency/],
  ])('refuses %j (delay %i) with 400 INVALID_LATENCY', async (latency, delay, message) => {
    const app = createApp();
    const put = await app.request('/api/endpoints/e/routes', {
      method: 'PUT',
      body: JSON.stringify({ routes: [{ answer: { body: 'x', delay, latency } }] }),
    });
    expect(put.status).toBe(400);
    const { error } = (await put.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('INVALID_LATENCY');
    expect(error.message).toMatch(message);
  });

  it('is for routes: a queued answer with latency is refused', async () => {
    const app = createApp();
    const put = await app.request('/api/endpoints/e/queue', {
      method: 'POST',
      body: JSON.stringify({ answers: [{ body: 'x', latency: { distribution: 'uniform', min: 0, max: 1 } }] }),
    });
    expect(put.status).toBe(400);
  });
});
