import { describe, expect, it } from 'vitest';
import type { ChaosSettings } from '../../api/chaos.js';
import { createApp, type MockpointApp } from '../../index.js';
import { ChaosPlan } from './chaos-plan.js';

const HOST = { host: 'mock.test' };

async function put(app: MockpointApp, name: string, chaos: unknown): Promise<Response> {
  return app.request(`/api/endpoints/${name}/chaos`, { method: 'PUT', body: JSON.stringify(chaos) });
}

async function withRoute(chaos: ChaosSettings): Promise<MockpointApp> {
  const app = createApp({ journalSize: 1000 });
  const routes = await app.request('/api/endpoints/api/routes', {
    method: 'PUT',
    body: JSON.stringify({ routes: [{ id: 'ok', answer: { data: { ok: true } } }] }),
  });
  expect(routes.status).toBe(200);
  expect((await put(app, 'api', chaos)).status).toBe(200);
  return app;
}

/** The statuses of `n` GETs, in order. */
async function statuses(app: MockpointApp, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const response = await app.request(`/endpoint/api/x${i}`, { headers: HOST });
    out.push(response.status);
    await response.arrayBuffer();
  }
  return out;
}

describe('chaos', () => {
  it('injects faults at its rate: 600 requests at 0.3 within 4 binomial sigmas, each fault about as often, each journaled', async () => {
    const n = 600;
    const rate = 0.3;
    const app = await withRoute({ rate, faults: ['500', '503', '429'], seed: 1234 });
    const seen = await statuses(app, n);
    const faulted = seen.filter((status) => status !== 200).length;
    const sigma = Math.sqrt(n * rate * (1 - rate));
    expect(Math.abs(faulted - n * rate)).toBeLessThan(4 * sigma);
    // Each of three faults: a third of the faulted ones, within 4 sigmas.
    for (const status of [500, 503, 429]) {
      const count = seen.filter((s) => s === status).length;
      expect(Math.abs(count - faulted / 3)).toBeLessThan(4 * Math.sqrt(faulted * (1 / 3) * (2 / 3)));
    }
    const journal = (await (await app.request('/api/endpoints/api/requests')).json()) as {
      requests: { statusCode: number; answeredBy: unknown }[];
    };
    expect(journal.requests.length).toBe(n);
    const marked = journal.requests.filter((entry) => entry.statusCode !== 200);
    expect(marked.length).toBe(faulted);
    for (const entry of marked) expect(entry.answeredBy).toEqual({ chaos: String(entry.statusCode) });
  });

  it('answers its HTTP faults as JSON errors with stable codes; 429 with Retry-After', async () => {
    const app = await withRoute({ rate: 1, faults: ['429'], seed: 1 });
    const response = await app.request('/endpoint/api/a', { headers: HOST });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('1');
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('CHAOS_RATE_LIMITED');
    expect(body.error.message).toMatch(/chaos of "api"/);
    for (const [fault, status, code] of [
      ['500', 500, 'CHAOS_INTERNAL_ERROR'],
      ['503', 503, 'CHAOS_UNAVAILABLE'],
    ] as const) {
      expect((await put(app, 'api', { rate: 1, faults: [fault] })).status).toBe(200);
      const got = await app.request('/endpoint/api/a', { headers: HOST });
      expect(got.status).toBe(status);
      expect(((await got.json()) as { error: { code: string } }).error.code).toBe(code);
    }
  });

  it('replays: the same seed gives the same sequence of decisions, set again or on another app; another seed another', async () => {
    const chaos: ChaosSettings = { rate: 0.5, faults: ['500', '503', '429'], seed: 77 };
    const app = await withRoute(chaos);
    const first = await statuses(app, 100);
    expect((await put(app, 'api', chaos)).status).toBe(200); // set again: the sequence starts again
    expect(await statuses(app, 100)).toEqual(first);
    expect(await statuses(await withRoute(chaos), 100)).toEqual(first);
    expect(await statuses(await withRoute({ ...chaos, seed: 78 }), 100)).not.toEqual(first);
  });

  it("draws its latency per request from the seed: the plan's delays have the distribution's median", () => {
    const plan = new ChaosPlan({
      rate: 0,
      faults: ['reset'],
      latency: { distribution: 'lognormal', median: 100, sigma: 0.5, max: 5000 },
      seed: 9,
    });
    const delays = Array.from({ length: 2000 }, () => plan.next());
    expect(delays.every((decision) => decision.fault === undefined)).toBe(true);
    const sorted = delays.map((decision) => decision.delay).sort((a, b) => a - b);
    const median = ((sorted[999] as number) + (sorted[1000] as number)) / 2;
    // log-median standard error: sigma·sqrt(pi/2)/sqrt(n) ≈ 0.014; 4 of them, plus rounding.
    expect(Math.abs(Math.log(median / 100))).toBeLessThan(0.07);
    const again = new ChaosPlan({ ...plan.settings });
    expect(Array.from({ length: 2000 }, () => again.next().delay)).toEqual(delays.map((decision) => decision.delay));
  });

  it('sends a body at its bandwidth: the whole body, as a stream, journaled whole', async () => {
    const app = createApp();
    const body = 'x'.repeat(3000);
    await app.request('/api/endpoints/api/routes', {
      method: 'PUT',
      body: JSON.stringify({ routes: [{ answer: { body } }] }),
    });
    expect((await put(app, 'api', { rate: 0, faults: ['503'], bandwidth: 100_000 })).status).toBe(200);
    const response = await app.request('/endpoint/api/a', { headers: HOST });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBeNull();
    expect(await response.text()).toBe(body);
    const journal = (await (await app.request('/api/endpoints/api/requests')).json()) as {
      requests: { response: { body: string } }[];
    };
    expect(journal.requests[0]?.response.body).toBe(body);
  });

  it('is stored, shown and cleared; cleared, every request is answered again', async () => {
    const app = await withRoute({ rate: 1, faults: ['503'] });
    const got = await app.request('/api/endpoints/api/chaos');
    expect(await got.json()).toEqual({ rate: 1, faults: ['503'] });
    expect((await app.request('/endpoint/api/a', { headers: HOST })).status).toBe(503);
    expect((await app.request('/api/endpoints/api/chaos', { method: 'DELETE' })).status).toBe(204);
    expect((await app.request('/endpoint/api/a', { headers: HOST })).status).toBe(200);
    const none = await app.request('/api/endpoints/api/chaos');
    expect(none.status).toBe(404);
  });

  it.each([
    [{ rate: 1.5, faults: ['503'] }, 'INVALID_CHAOS', /rate/],
    [{ rate: 0.1, faults: [] }, 'INVALID_CHAOS', /faults/],
    [{ rate: 0.1, faults: ['418'] }, 'INVALID_CHAOS', /faults/],
    [{ rate: 0.1, faults: ['503', '503'] }, 'INVALID_CHAOS', /each fault once/],
    [{ rate: 0.1, faults: ['503'], seed: 0.5 }, 'INVALID_CHAOS', /seed/],
    [{ faults: ['503'] }, 'INVALID_CHAOS', /rate/],
    [{ rate: 0.1, faults: ['503'], jitter: 10 }, 'UNKNOWN_FIELD', /jitter/],
    [{ rate: 0.1, faults: ['503'], bandwidth: 0 }, 'INVALID_CHAOS', /bandwidth/],
    [{ rate: 0.1, faults: ['503'], bandwidth: 1.5 }, 'INVALID_CHAOS', /bandwidth/],
    [{ rate: 0.1, faults: ['503'], latency: { distribution: 'uniform', min: 9, max: 1 } }, 'INVALID_LATENCY', /min/],
    [
      { rate: 0.1, faults: ['503'], latency: { distribution: 'normal', mean: 10, stddev: 50000 } },
      'INVALID_LATENCY',
      /max/,
    ],
    [
      { rate: 0.1, faults: ['503'], latency: { distribution: 'uniform', min: 1, max: 2, seed: 3 } },
      'INVALID_LATENCY',
      /seed/,
    ],
  ])('refuses %j with %s', async (chaos, code, message) => {
    const app = createApp();
    const response = await put(app, 'api', chaos);
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
  });
});
