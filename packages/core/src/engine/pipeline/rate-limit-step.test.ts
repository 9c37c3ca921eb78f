import { describe, expect, it } from 'vitest';
import { parseMockFile } from '../../files/parse-mock-file.js';
import { createApp, type MockpointApp } from '../../index.js';

/** A clock the test moves by hand. */
function clock(start = 1_800_000_000_000) {
  const time = { now: start };
  return { time, now: () => time.now };
}

async function app(routes: unknown[], now: () => number, name = 'api'): Promise<MockpointApp> {
  const mock = createApp({ rateLimitNow: now });
  const put = await mock.request(`/api/endpoints/${name}/routes`, { method: 'PUT', body: JSON.stringify({ routes }) });
  expect(put.status, await put.clone().text()).toBe(200);
  return mock;
}

async function statuses(mock: MockpointApp, path: string, count: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push((await mock.request(path)).status);
  return out;
}

const ok = (n: number) => Array.from({ length: n }, () => 200);

describe('a rate-limited route', () => {
  it('answers exactly limit requests, refuses the next with 429, and is full again one window later', async () => {
    const { time, now } = clock();
    const mock = await app([{ id: 'r', rateLimit: { limit: 5, per: '1m' }, answer: { data: { ok: true } } }], now);
    expect(await statuses(mock, '/endpoint/api', 6)).toEqual([...ok(5), 429]);
    // A fifth of the window brings back one token: one more passes, the next is refused.
    time.now += 12_000 - 1;
    expect(await statuses(mock, '/endpoint/api', 1)).toEqual([429]);
    time.now += 1;
    expect(await statuses(mock, '/endpoint/api', 2)).toEqual([200, 429]);
    time.now += 60_000;
    expect(await statuses(mock, '/endpoint/api', 6)).toEqual([...ok(5), 429]);
  });

  it('says when to retry, journals the refusal with the route and rateLimited, and the answers with none', async () => {
    const { now } = clock();
    const mock = await app([{ id: 'r', rateLimit: { limit: 2, per: '10s' }, answer: { data: { ok: true } } }], now);
    await statuses(mock, '/endpoint/api/x', 2);
    const refused = await mock.request('/endpoint/api/x');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(await refused.json()).toMatchObject({ success: false, error: { code: 'RATE_LIMITED' } });
    const journal = (await (await mock.request('/api/endpoints/api/requests')).json()) as {
      requests: { statusCode: number; answeredBy: unknown; rateLimited?: true }[];
    };
    const entries = journal.requests.map((r) => [r.statusCode, r.answeredBy, r.rateLimited ?? null]);
    expect(entries).toEqual([
      [200, { route: 'r' }, null],
      [200, { route: 'r' }, null],
      [429, { route: 'r' }, true],
    ]);
  });

  it('keeps one bucket per route by default, and one for all routes naming the same bucket', async () => {
    const { now } = clock();
    const own = await app(
      [
        { id: 'a', match: { path: '/a' }, rateLimit: { limit: 1, per: 1000 }, answer: {} },
        { id: 'b', match: { path: '/b' }, rateLimit: { limit: 1, per: 1000 }, answer: {} },
      ],
      now,
    );
    expect([...(await statuses(own, '/endpoint/api/a', 2)), ...(await statuses(own, '/endpoint/api/b', 2))]).toEqual([
      200, 429, 200, 429,
    ]);
    const shared = await app(
      [
        { id: 'a', match: { path: '/a' }, rateLimit: { limit: 3, per: '1s', bucket: 'all' }, answer: {} },
        { id: 'b', rateLimit: { limit: 3, per: '1s', bucket: 'all' }, answer: {} },
      ],
      now,
    );
    const mixed = [
      ...(await statuses(shared, '/endpoint/api/a', 2)),
      ...(await statuses(shared, '/endpoint/api/other', 2)),
    ];
    expect(mixed).toEqual([200, 200, 200, 429]);
  });

  it('keeps the buckets of each endpoint name apart, and starts them full when the routes change', async () => {
    const { now } = clock();
    const routes = [{ id: 'r', rateLimit: { limit: 1, per: '1h' }, answer: {} }];
    const mock = await app(routes, now, 'one');
    const put = await mock.request('/api/endpoints/two/routes', { method: 'PUT', body: JSON.stringify({ routes }) });
    expect(put.status).toBe(200);
    expect(await statuses(mock, '/endpoint/one', 2)).toEqual([200, 429]);
    expect(await statuses(mock, '/endpoint/two', 2)).toEqual([200, 429]);
    await mock.request('/api/endpoints/one/routes', { method: 'PUT', body: JSON.stringify({ routes }) });
    expect(await statuses(mock, '/endpoint/one', 2)).toEqual([200, 429]);
  });

  it("does not count a refused request in the route's {{seq}}", async () => {
    const { time, now } = clock();
    const mock = await app([{ rateLimit: { limit: 1, per: '1s' }, answer: { template: true, body: '{{seq}}' } }], now);
    const texts: string[] = [];
    for (let i = 0; i < 2; i++) texts.push(await (await mock.request('/endpoint/api')).text());
    time.now += 1000;
    texts.push(await (await mock.request('/endpoint/api')).text());
    expect([texts[0], texts[2]]).toEqual(['1', '2']);
  });

  it('refuses a route that moves the state without moving it', async () => {
    const { time, now } = clock();
    const pay = { path: '/pay' };
    const limit = { limit: 1, per: '1m', bucket: 'pay' };
    const mock = await app(
      [
        { match: { ...pay, state: 'started' }, rateLimit: limit, answer: { body: 'paid', setState: 'paid' } },
        { match: { ...pay, state: 'paid' }, rateLimit: limit, answer: { body: 'refunded', setState: 'started' } },
        { match: { path: '/state' }, answer: { template: true, body: '{{state.default}}' } },
      ],
      now,
    );
    const text = async (path: string) => {
      const response = await mock.request(`/endpoint/api${path}`);
      return `${response.status} ${await response.text()}`;
    };
    expect(await text('/pay')).toBe('200 paid');
    expect((await text('/pay')).slice(0, 3)).toBe('429');
    expect(await text('/state')).toBe('200 paid');
    time.now += 60_000;
    expect(await text('/pay')).toBe('200 refunded');
    expect(await text('/state')).toBe('200 started');
  });

  it('leaves routes without a limit, and queued answers, alone', async () => {
    const { now } = clock();
    const mock = await app(
      [
        { match: { path: '/free' }, answer: {} },
        { id: 'r', rateLimit: { limit: 1, per: '1h' }, answer: {} },
      ],
      now,
    );
    expect(await statuses(mock, '/endpoint/api/free', 3)).toEqual(ok(3));
    expect((await mock.request('/endpoint/api/free')).headers.get('ratelimit')).toBeNull();
    expect(await statuses(mock, '/endpoint/api', 2)).toEqual([200, 429]);
    const queued = await mock.request('/api/endpoints/api/queue', {
      method: 'POST',
      body: JSON.stringify({ answers: [{ statusCode: 202 }] }),
    });
    expect(queued.status, await queued.clone().text()).toBeLessThan(300);
    expect(await statuses(mock, '/endpoint/api', 2)).toEqual([202, 429]);
  });
});

describe('the styles', () => {
  async function exchange(style: string, limit = 2) {
    const { time, now } = clock(1_800_000_000_000);
    const mock = await app(
      [{ id: 'r', rateLimit: { limit, per: '1m', style }, answer: { headers: { 'x-own': 'kept' }, data: {} } }],
      now,
    );
    const first = await mock.request('/endpoint/api');
    time.now += 1_000;
    for (let i = 1; i < limit; i++) await mock.request('/endpoint/api');
    const refused = await mock.request('/endpoint/api');
    return { first, refused, body: (await refused.json()) as Record<string, unknown> };
  }

  const pick = (response: Response, names: string[]) =>
    Object.fromEntries(names.map((n) => [n, response.headers.get(n)]));

  it('ietf: RateLimit-Policy and RateLimit on every answer (draft-ietf-httpapi-ratelimit-headers structured fields)', async () => {
    const { first, refused, body } = await exchange('ietf');
    expect(first.headers.get('x-own')).toBe('kept');
    expect(pick(first, ['ratelimit-policy', 'ratelimit'])).toEqual({
      'ratelimit-policy': '"r";q=2;w=60',
      ratelimit: '"r";r=1;t=30',
    });
    // After 1 s the bucket holds 1 + 1/30 tokens; the second takes one: 30 s - 1 s to full, 29 s to the next token.
    expect(pick(refused, ['ratelimit-policy', 'ratelimit', 'retry-after'])).toEqual({
      'ratelimit-policy': '"r";q=2;w=60',
      ratelimit: '"r";r=0;t=59',
      'retry-after': '29',
    });
    expect(body).toMatchObject({ error: { code: 'RATE_LIMITED', details: { route: 'r', limit: 2, retryAfter: 29 } } });
  });

  it("github: the x-ratelimit-* headers, then GitHub's 429 with remaining 0", async () => {
    const { first, refused, body } = await exchange('github');
    const names = [
      'x-ratelimit-limit',
      'x-ratelimit-remaining',
      'x-ratelimit-reset',
      'x-ratelimit-used',
      'x-ratelimit-resource',
    ];
    expect(pick(first, names)).toEqual({
      'x-ratelimit-limit': '2',
      'x-ratelimit-remaining': '1',
      'x-ratelimit-reset': String(1_800_000_000 + 30),
      'x-ratelimit-used': '1',
      'x-ratelimit-resource': 'core',
    });
    expect(pick(refused, [...names, 'retry-after'])).toEqual({
      'x-ratelimit-limit': '2',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(1_800_000_001 + 59),
      'x-ratelimit-used': '2',
      'x-ratelimit-resource': 'core',
      'retry-after': '29',
    });
    expect(body.message).toMatch(/^API rate limit exceeded/);
    expect(body.documentation_url).toMatch(/^https:\/\/docs\.github\.com\//);
  });

  it('github-secondary: no headers while tokens remain; the 429 says "secondary rate limit" with Retry-After', async () => {
    const { first, refused, body } = await exchange('github-secondary');
    expect(first.headers.get('x-ratelimit-remaining')).toBeNull();
    expect(refused.headers.get('x-ratelimit-remaining')).toBeNull();
    expect(refused.headers.get('retry-after')).toBe('29');
    expect(body.message).toMatch(/exceeded a secondary rate limit/);
  });

  it("openai: the x-ratelimit-*-requests headers with OpenAI's durations, then its rate_limit_exceeded error", async () => {
    const { first, refused, body } = await exchange('openai');
    const names = ['x-ratelimit-limit-requests', 'x-ratelimit-remaining-requests', 'x-ratelimit-reset-requests'];
    expect(pick(first, names)).toEqual({
      'x-ratelimit-limit-requests': '2',
      'x-ratelimit-remaining-requests': '1',
      'x-ratelimit-reset-requests': '30s',
    });
    expect(pick(refused, [...names, 'retry-after', 'retry-after-ms'])).toEqual({
      'x-ratelimit-limit-requests': '2',
      'x-ratelimit-remaining-requests': '0',
      'x-ratelimit-reset-requests': '59s',
      'retry-after': '29',
      'retry-after-ms': '29000',
    });
    expect(body).toMatchObject({ error: { type: 'requests', code: 'rate_limit_exceeded', param: null } });
    expect((body.error as { message: string }).message).toMatch(/Please try again in 29s\.$/);
  });

  it("stripe: no headers while tokens remain; the 429 is Stripe's rate_limit_error with Stripe-Should-Retry", async () => {
    const { first, refused, body } = await exchange('stripe');
    expect([...first.headers.keys()].filter((n) => n.includes('ratelimit'))).toEqual([]);
    expect(pick(refused, ['stripe-should-retry', 'retry-after'])).toEqual({
      'stripe-should-retry': 'true',
      'retry-after': '29',
    });
    expect(body).toMatchObject({ error: { type: 'rate_limit_error', code: 'rate_limit' } });
  });

  it('a HEAD request is refused without a body', async () => {
    const { now } = clock();
    const mock = await app([{ id: 'r', rateLimit: { limit: 1, per: '1m', style: 'stripe' }, answer: {} }], now);
    await mock.request('/endpoint/api', { method: 'HEAD' });
    const refused = await mock.request('/endpoint/api', { method: 'HEAD' });
    expect(refused.status).toBe(429);
    expect(await refused.text()).toBe('');
  });
});

describe('validation at save', () => {
  async function refusal(rateLimit: unknown): Promise<[number, string, string]> {
    const mock = createApp();
    const response = await mock.request('/api/endpoints/api/routes', {
      method: 'PUT',
      body: JSON.stringify({ routes: [{ answer: {} }, { rateLimit, answer: {} }] }),
    });
    const { error } = (await response.json()) as { error: { code: string; message: string } };
    return [response.status, error.code, error.message];
  }

  it.each([
    [{ limit: 0, per: '1m' }, 'routes[1]: rateLimit.limit is 0; give a whole number of requests from 1 to 1000000'],
    [{ limit: 1.5, per: '1m' }, 'routes[1]: rateLimit.limit is 1.5; give a whole number of requests from 1 to 1000000'],
    [
      { limit: 1_000_001, per: '1m' },
      'routes[1]: rateLimit.limit is 1000001; give a whole number of requests from 1 to 1000000',
    ],
    [
      { limit: 1, per: '1 minute' },
      'routes[1]: rateLimit.per is "1 minute"; give a duration such as "1m", "30s", "1h30m", "500ms" (units ms, s, m, h, d) or whole milliseconds',
    ],
    [{ limit: 1, per: 0 }, 'routes[1]: rateLimit.per is 0 ms; give 1 ms to 31 days'],
    [{ limit: 1, per: '32d' }, 'routes[1]: rateLimit.per is 2764800000 ms; give 1 ms to 31 days'],
    [{ limit: 1, per: '1m', bucket: 'a b' }, 'routes[1]: rateLimit.bucket must be 1-64 characters of A-Z a-z 0-9 _ -'],
  ])('refuses %j with INVALID_RATE_LIMIT', async (rateLimit, message) => {
    expect(await refusal(rateLimit)).toEqual([400, 'INVALID_RATE_LIMIT', message]);
  });

  it('refuses an unknown style, a missing limit and an unknown field, naming the field', async () => {
    const [status, code, message] = await refusal({ limit: 1, per: '1m', style: 'twitter' });
    expect([status, code]).toEqual([400, 'INVALID_RATE_LIMIT']);
    expect(message).toMatch(/^routes\[1\]\.rateLimit\.style: /);
    expect((await refusal({ per: '1m' })).slice(0, 2)).toEqual([400, 'INVALID_RATE_LIMIT']);
    expect(await refusal({ limit: 1, per: '1m', burst: 2 })).toEqual([
      400,
      'UNKNOWN_FIELD',
      'routes[1].rateLimit: unknown field(s): burst',
    ]);
  });

  it('keeps a valid rate limit with the route, in place after match and validate', async () => {
    const mock = createApp();
    const rateLimit = { limit: 10, per: '1h30m', style: 'github', bucket: 'core' };
    await mock.request('/api/endpoints/api/routes', {
      method: 'PUT',
      body: JSON.stringify({ routes: [{ answer: {}, rateLimit, id: 'r', match: { path: '/x' } }] }),
    });
    const text = await (await mock.request('/api/endpoints/api/routes')).text();
    expect(text).toBe(
      '{"routes":[{"id":"r","match":{"path":"/x"},"rateLimit":{"limit":10,"per":"1h30m","style":"github","bucket":"core"},"answer":{}}]}',
    );
  });
});

describe('in a mock file', () => {
  const file = (limit: number) =>
    [
      'version: 1',
      'endpoints:',
      '  - name: github',
      '    routes:',
      '      - id: repo',
      `        rateLimit: { limit: ${limit}, per: 1m, style: github }`,
      '        answer: { data: { ok: true } }',
    ].join('\n');

  it('keeps the rate limit with its route', () => {
    const parsed = parseMockFile(file(2));
    expect(parsed.endpoints[0]?.routes?.[0]?.rateLimit).toEqual({ limit: 2, per: '1m', style: 'github' });
  });

  it('refuses a bad one at its route, with the same message', () => {
    expect(() => parseMockFile(file(0), { file: 'm.yaml' })).toThrow(
      'm.yaml:5:9: endpoints[0].routes[0]: rateLimit.limit is 0; give a whole number of requests from 1 to 1000000',
    );
  });
});
