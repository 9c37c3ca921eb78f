// Seeded fuzz of the places the clock, rate limits, chaos and latency read text a
// request brings (PUT /api/clock's set and advance, a route's rateLimit.per and
// style, a route answer's latency, PUT .../chaos's faults and rate, and the
// namespace's PUT /api/chaos), with random
// code points against the built daemon: every one is answered under 500 with a
// stable code in one bounded line, and /api/health answers throughout.
import { prng, randomText } from '@mockpoint/testkit/random-text';
import { expect, it } from 'vitest';
import { requestJson, startDaemon, useDaemons } from './helpers/daemon.js';
import { watchWhileFuzzing } from './helpers/watch-health.js';

useDaemons();

const SEED = 53;
const CASES = 300;

it(`answers ${CASES} random clock, rate-limit, latency and chaos inputs (seed ${SEED}) under 500, and stays healthy`, async () => {
  const daemon = await startDaemon({ args: ['--memory'] });
  const health = await watchWhileFuzzing(daemon);
  await requestJson(`${daemon.url}/api/endpoint/add`, { method: 'PUT', body: { name: 'fuzz', data: 1 } });
  const random = prng(SEED);
  const codes = new Map<string, number>();
  for (let i = 0; i < CASES; i++) {
    const noise = randomText(random, 1 + Math.floor(random() * 60));
    // Near a valid value half the time, so the parsers see near misses too.
    const near = random() < 0.5 ? `${Math.floor(random() * 90)}${noise}` : noise;
    const kind = i % 6;
    const [method, path, body] =
      kind === 0
        ? ['PUT', '/api/clock', { advance: near }]
        : kind === 1
          ? ['PUT', '/api/clock', { set: near }]
          : kind === 2
            ? [
                'PUT',
                '/api/endpoints/fuzz/routes',
                {
                  routes: [
                    { match: { path: '/x' }, rateLimit: { limit: 2, per: near, style: noise }, answer: { data: 1 } },
                  ],
                },
              ]
            : kind === 3
              ? [
                  'PUT',
                  '/api/endpoints/fuzz/routes',
                  {
                    routes: [
                      { match: { path: '/y' }, answer: { data: 1, latency: { distribution: near, min: 0, max: 5 } } },
                    ],
                  },
                ]
              : kind === 4
                ? ['PUT', '/api/endpoints/fuzz/chaos', { rate: 0, faults: [near], seed: 1 }]
                : ['PUT', '/api/chaos', { rate: random() < 0.5 ? near : 0, faults: ['503', near], seed: 1 }];
    const answer = await requestJson(`${daemon.url}${path}`, { method, body });
    const label = `${method} ${path} ${JSON.stringify(body).slice(0, 300)} → ${JSON.stringify(answer.body).slice(0, 300)}`;
    expect(answer.status, label).toBeLessThan(500);
    if (answer.status >= 400) {
      const error = (answer.body as { error: { code: string; message: string } }).error;
      expect(error.code, label).toMatch(/^[A-Z_]+$/);
      expect(error.message.length, label).toBeLessThanOrEqual(2000);
      expect(error.message, label).not.toMatch(/[\n\r\u2028\u2029]/);
      codes.set(error.code, (codes.get(error.code) ?? 0) + 1);
    }
  }
  // The refusals of each place were reached.
  expect([...codes.keys()].sort()).toEqual(expect.arrayContaining(['INVALID_CHAOS', 'INVALID_CLOCK']));
  // No fuzzed chaos was taken: the name still answers.
  expect((await requestJson(`${daemon.url}/endpoint/fuzz`)).status).toBe(200);
  await health.check();
});
