// Seeded fuzz of GET /api/coverage's query on the built daemon: random code
// points in names, since, until and in an unknown parameter's key and value,
// percent-encoded as UTF-8, as bytes that are no UTF-8, near valid values
// (a name or an ISO time with noise after), sent raw where a client would
// encode them: every answer is 200 with a report or 400
// INVALID_COVERAGE_QUERY in one bounded line, and /api/health answers
// throughout (asked every 200 ms, each within the fuzz bound, 5 s).
import { prng, randomText } from '@mockpoint/testkit/random-text';
import { expect, it } from 'vitest';
import { requestJson, startDaemon, useDaemons } from './helpers/daemon.js';
import { watchWhileFuzzing } from './helpers/watch-health.js';

useDaemons();

const SEED = 41;
const CASES = 200;

/** `text` as UTF-8 bytes, every byte percent-encoded (a lone surrogate is sent as U+FFFD). */
function percentEncoded(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
}

/** `text`'s bytes percent-encoded with their high bit set: mostly bytes that are no UTF-8. */
function notUtf8(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((byte) => `%${(byte | 0x80).toString(16)}`).join('');
}

/** A value for `param`: near a valid one a quarter of the time, else noise in one of three encodings. */
function randomValue(random: () => number, param: string, i: number): string {
  const noise = randomText(random, 1 + Math.floor(random() * 80));
  const near = param === 'names' ? `shop,${noise}` : `2030-01-01T00:00:00Z${noise}`;
  switch (i % 4) {
    case 0:
      return percentEncoded(near);
    case 1:
      return notUtf8(noise);
    case 2:
      return encodeURIComponent(noise.replace(/[\ud800-\udfff]/g, '?'));
    default:
      return percentEncoded(noise);
  }
}

it(`answers ${CASES} random values of each coverage parameter (seed ${SEED}): a report or 400 INVALID_COVERAGE_QUERY`, async () => {
  const daemon = await startDaemon({ args: ['--memory'] });
  const routes = { routes: [{ id: 'list', match: { method: 'GET', path: '/items' }, answer: { data: [] } }] };
  expect((await requestJson(`${daemon.url}/api/endpoints/shop/routes`, { method: 'PUT', body: routes })).status).toBe(
    200,
  );
  await fetch(`${daemon.url}/endpoint/shop/items`).then((response) => response.arrayBuffer());
  const health = await watchWhileFuzzing(daemon);
  const statuses: Record<string, Record<number, number>> = {};
  try {
    for (const param of ['names', 'since', 'until', 'unknown']) {
      const random = prng(SEED + param.length);
      statuses[param] = {};
      for (let i = 0; i < CASES; i++) {
        const query =
          param === 'unknown'
            ? `${randomValue(random, param, i)}=${randomValue(random, param, i + 1)}`
            : `${param}=${randomValue(random, param, i)}`;
        const answer = await requestJson(`${daemon.url}/api/coverage?${query}`);
        const seen = statuses[param] as Record<number, number>;
        seen[answer.status] = (seen[answer.status] ?? 0) + 1;
        const label = `${query.slice(0, 300)} → ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`;
        if (answer.status === 200) {
          expect(param, label).not.toBe('unknown');
          expect((answer.body as { endpoints: unknown[] }).endpoints, label).toBeInstanceOf(Array);
          continue;
        }
        expect(answer.status, label).toBe(400);
        const error = (answer.body as { error: { code: string; message: string } }).error;
        expect(error.code, label).toBe('INVALID_COVERAGE_QUERY');
        expect(error.message, label).not.toMatch(/[\r\n]/);
        expect(error.message.length, label).toBeLessThanOrEqual(400);
      }
    }
  } finally {
    console.log(`coverage fuzz (seed ${SEED}): statuses ${JSON.stringify(statuses)}`);
    const report = await health.check();
    console.log(`coverage fuzz (seed ${SEED}): slowest health ${report.worstMs} ms`);
  }
  // Every parameter was refused; names and since/until near valid values were also answered.
  for (const param of ['names', 'since', 'until', 'unknown']) expect(statuses[param]?.[400]).toBeGreaterThan(0);
  expect(statuses.names?.[200]).toBeGreaterThan(0);
  const valid = await requestJson(`${daemon.url}/api/coverage?names=shop&since=2020-01-01T00:00:00Z`);
  expect(valid.status).toBe(200);
  expect((valid.body as { totals: unknown }).totals).toEqual({ routes: 1, dead: 0, unmatched: 0 });
  expect((await requestJson(`${daemon.url}/api/health`)).status).toBe(200);
});
