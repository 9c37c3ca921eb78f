// The app's clock through createApp: {{now}} and timed state moves follow it; bad changes refused; one per namespace.
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type MockpointApp } from '../../index.js';
import { signWebhook } from '../../signing/signature.js';

const apps: MockpointApp[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.mockpoint.namespaces?.close();
});

function makeApp(): MockpointApp {
  const app = createApp();
  apps.push(app);
  return app;
}

function send(app: MockpointApp, method: string, path: string, body?: unknown) {
  return app.request(path, { method, body: body === undefined ? undefined : JSON.stringify(body) });
}

// biome-ignore lint/suspicious/noExplicitAny: the answers' shapes are checked by the assertions
async function json(response: Response): Promise<any> {
  return response.json();
}

const NOW_ROUTE = { match: { path: '/now' }, answer: { template: true, body: '{{now}}' } };

describe('/api/clock', () => {
  it('shows real time until changed, and DELETE returns to it', async () => {
    const app = makeApp();
    const before = Date.now();
    const shown = await json(await send(app, 'GET', '/api/clock'));
    expect(shown).toMatchObject({ frozen: false, offsetMs: 0 });
    expect(Date.parse(shown.now)).toBeGreaterThanOrEqual(before);
    const moved = await json(await send(app, 'PUT', '/api/clock', { advance: '1d' }));
    expect(moved.frozen).toBe(false);
    expect(moved.offsetMs).toBe(86_400_000);
    expect((await send(app, 'DELETE', '/api/clock')).status).toBe(204);
    expect(await json(await send(app, 'GET', '/api/clock'))).toMatchObject({ frozen: false, offsetMs: 0 });
  });

  it("{{now}}'s date helpers follow the clock: epoch, epochMs, date, plus and minus", async () => {
    const app = makeApp();
    const token = {
      match: { path: '/token' },
      answer: {
        template: true,
        data: {
          issued: '{{now.epoch}}',
          expires: '{{now.plus.1d.epoch}}',
          ms: '{{now.epochMs}}',
          day: '{{now.date}}',
          lastWeek: '{{now.minus.7d}}',
          text: 'until {{now.plus.90m}}',
        },
      },
    };
    const saved = await send(app, 'PUT', '/api/endpoints/e/routes', { routes: [token] });
    expect(saved.status, await saved.clone().text()).toBe(200);
    await send(app, 'PUT', '/api/clock', { freeze: true, set: '2030-01-01T00:00:00Z' });
    const at = Date.parse('2030-01-01T00:00:00Z');
    const expected = {
      issued: at / 1000,
      expires: at / 1000 + 86_400,
      ms: at,
      day: '2030-01-01',
      lastWeek: '2029-12-25T00:00:00.000Z',
      text: 'until 2030-01-01T01:30:00.000Z',
    };
    expect(await json(await send(app, 'GET', '/endpoint/e/token'))).toEqual(expected);
    // Tomorrow happens without waiting: the token issued then expires a day after it.
    await send(app, 'PUT', '/api/clock', { advance: '1d' });
    const tomorrow = await json(await send(app, 'GET', '/endpoint/e/token'));
    expect(tomorrow.issued).toBe(expected.expires);
    expect(tomorrow.day).toBe('2030-01-02');
  });

  it('refuses a date helper it does not know at save, naming the placeholders', async () => {
    const app = makeApp();
    for (const bad of [
      '{{now.tomorrow}}',
      '{{now.plus}}',
      '{{now.plus.1y}}',
      '{{now.plus.1d.iso}}',
      '{{now.epoch.ms}}',
    ]) {
      const route = { match: { path: '/x' }, answer: { template: true, body: bad } };
      const refused = await send(app, 'PUT', '/api/endpoints/e/routes', { routes: [route] });
      expect(refused.status, bad).toBe(400);
      expect((await json(refused)).error.message, bad).toContain('{{now.plus.1d}}');
    }
  });

  it('a frozen clock drives {{now}} in a template; set and advance move it', async () => {
    const app = makeApp();
    await send(app, 'PUT', '/api/endpoints/e/routes', { routes: [NOW_ROUTE] });
    const set = await send(app, 'PUT', '/api/clock', { freeze: true, set: '2030-01-01T00:00:00Z' });
    expect(await json(set)).toMatchObject({ now: '2030-01-01T00:00:00.000Z', frozen: true });
    expect(await (await send(app, 'GET', '/endpoint/e/now')).text()).toBe('2030-01-01T00:00:00.000Z');
    expect(await (await send(app, 'GET', '/endpoint/e/now')).text()).toBe('2030-01-01T00:00:00.000Z');
    await send(app, 'PUT', '/api/clock', { advance: '1d' });
    await send(app, 'PUT', '/api/clock', { advance: 1500 });
    expect(await (await send(app, 'GET', '/endpoint/e/now')).text()).toBe('2030-01-02T00:00:01.500Z');
    // Thawed, it runs on from where it stood: never back before it.
    const thawed = await json(await send(app, 'PUT', '/api/clock', { freeze: false }));
    expect(thawed.frozen).toBe(false);
    expect(Date.parse(await (await send(app, 'GET', '/endpoint/e/now')).text())).toBeGreaterThanOrEqual(
      Date.parse('2030-01-02T00:00:01.500Z'),
    );
  });

  it('refuses bad changes with INVALID_CLOCK, and leaves the clock as it was', async () => {
    const app = makeApp();
    await send(app, 'PUT', '/api/clock', { freeze: true, set: '2030-01-01T00:00:00Z' });
    const bad: unknown[] = [
      {},
      { advance: '-5s' },
      { advance: '1w' },
      { advance: '367d' },
      { advance: 1.5 },
      { set: '2030-01-01T00:00:00' }, // no zone: a local time would depend on the machine
      { set: 'tomorrow' },
      { set: '2030-02-30T00:00:00Z' }, // no such day: never rolled over into March
      { set: '2029-02-29' }, // not a leap year
      { set: '2030-04-31T12:00:00Z' },
      { set: '2030-13-01T00:00:00Z' },
      { set: '2030-01-01T24:00:00Z' },
      { set: '2030-01-01T23:60:00Z' },
      { set: '2030-01-01T23:59:60Z' },
      { set: '2030-01-01T00:00:00+24:00' },
      { set: '9999-12-31T23:59:59Z', advance: '1d' }, // past the year 9999
      { freeze: 'yes' },
      { freeze: true, later: 1 },
    ];
    for (const body of bad) {
      const response = await send(app, 'PUT', '/api/clock', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await json(response)).error.code, JSON.stringify(body)).toBe('INVALID_CLOCK');
    }
    const array = await send(app, 'PUT', '/api/clock', [1]);
    expect(array.status).toBe(400);
    expect(await json(await send(app, 'GET', '/api/clock'))).toMatchObject({
      now: '2030-01-01T00:00:00.000Z',
      frozen: true,
    });
  });

  it('one clock per namespace', async () => {
    const app = makeApp();
    for (const name of ['n1', 'n2']) {
      expect((await send(app, 'POST', '/api/namespaces', { name })).status).toBe(201);
      await send(app, 'PUT', `/ns/${name}/api/endpoints/e/routes`, { routes: [NOW_ROUTE] });
    }
    await send(app, 'PUT', '/ns/n1/api/clock', { freeze: true, set: '2030-01-01T00:00:00Z' });
    await send(app, 'PUT', '/ns/n2/api/clock', { freeze: true, set: '2040-06-01T12:00:00Z' });
    expect(await (await send(app, 'GET', '/ns/n1/endpoint/e/now')).text()).toBe('2030-01-01T00:00:00.000Z');
    expect(await (await send(app, 'GET', '/ns/n2/endpoint/e/now')).text()).toBe('2040-06-01T12:00:00.000Z');
    expect((await json(await send(app, 'GET', '/api/clock'))).frozen).toBe(false);
    await send(app, 'PUT', '/ns/n1/api/clock', { advance: '30s' });
    expect(await (await send(app, 'GET', '/ns/n1/endpoint/e/now')).text()).toBe('2030-01-01T00:00:30.000Z');
    expect(await (await send(app, 'GET', '/ns/n2/endpoint/e/now')).text()).toBe('2040-06-01T12:00:00.000Z');
  });

  it.each([
    ['POST', '/api/reset'],
    ['DELETE', '/api/endpoints'],
  ])('a reset (%s %s) returns the clock to real time; only its namespace', async (method, path) => {
    const app = makeApp();
    expect((await send(app, 'POST', '/api/namespaces', { name: 'other' })).status).toBe(201);
    for (const base of ['', '/ns/other']) {
      await send(app, 'PUT', `${base}/api/clock`, { freeze: true, set: '2030-01-01T00:00:00Z' });
    }
    expect((await send(app, method, path)).status).toBe(204);
    expect(await json(await send(app, 'GET', '/api/clock'))).toMatchObject({ frozen: false, offsetMs: 0 });
    expect(await json(await send(app, 'GET', '/ns/other/api/clock'))).toMatchObject({
      frozen: true,
      now: '2030-01-01T00:00:00.000Z',
    });
    expect((await send(app, method, `/ns/other${path}`)).status).toBe(204);
    expect(await json(await send(app, 'GET', '/ns/other/api/clock'))).toMatchObject({ frozen: false, offsetMs: 0 });
  });

  it("POST /api/reset leaves the namespace's and the endpoints' chaos; DELETE /api/endpoints removes both", async () => {
    const app = makeApp();
    await send(app, 'PUT', '/api/chaos', { rate: 1, faults: ['503'] });
    await send(app, 'PUT', '/api/endpoints/e/chaos', { rate: 1, faults: ['500'] });
    expect((await send(app, 'POST', '/api/reset')).status).toBe(204);
    expect((await send(app, 'GET', '/api/chaos')).status).toBe(200);
    expect((await send(app, 'GET', '/api/endpoints/e/chaos')).status).toBe(200);
    expect((await send(app, 'DELETE', '/api/endpoints')).status).toBe(204);
    expect((await send(app, 'GET', '/api/chaos')).status).toBe(404);
    expect((await send(app, 'GET', '/api/endpoints/e/chaos')).status).toBe(404);
  });
});

describe('timed state moves (setState with after)', () => {
  const ORDER_ROUTES = [
    {
      match: { method: 'POST', path: '/orders' },
      answer: { statusCode: 201, setState: { after: '30s', to: 'shipped' } },
    },
    { match: { path: '/orders/1', state: 'shipped' }, answer: { data: { status: 'shipped' } } },
    { match: { path: '/orders/1' }, answer: { data: { status: 'processing' } } },
  ];

  async function ordered(app: MockpointApp): Promise<void> {
    expect((await send(app, 'PUT', '/api/endpoints/shop/routes', { routes: ORDER_ROUTES })).status).toBe(200);
    await send(app, 'PUT', '/api/clock', { freeze: true });
    expect((await send(app, 'POST', '/endpoint/shop/orders')).status).toBe(201);
  }

  const status = async (app: MockpointApp) => (await json(await send(app, 'GET', '/endpoint/shop/orders/1'))).status;

  it('a 30-second transition happens when the clock advances past it, without waiting', async () => {
    const app = makeApp();
    await ordered(app);
    expect(await status(app)).toBe('processing');
    await send(app, 'PUT', '/api/clock', { advance: '29s' });
    expect(await status(app)).toBe('processing');
    expect(await json(await send(app, 'GET', '/api/endpoints/shop/state'))).toEqual({ default: 'started' });
    await send(app, 'PUT', '/api/clock', { advance: '1s' });
    expect(await status(app)).toBe('shipped');
    expect(await json(await send(app, 'GET', '/api/endpoints/shop/state'))).toEqual({ default: 'shipped' });
  });

  it('on a running clock, advancing past it fires it too', async () => {
    const app = makeApp();
    await send(app, 'PUT', '/api/endpoints/shop/routes', { routes: ORDER_ROUTES });
    expect((await send(app, 'POST', '/endpoint/shop/orders')).status).toBe(201);
    await send(app, 'PUT', '/api/clock', { advance: '1m' });
    expect((await json(await send(app, 'GET', '/api/clock'))).frozen).toBe(false);
    expect(await status(app)).toBe('shipped');
  });

  it('setting the clock past it fires it too; a reset or a put state forgets it', async () => {
    const app = makeApp();
    await ordered(app);
    const { now } = await json(await send(app, 'GET', '/api/clock'));
    await send(app, 'PUT', '/api/clock', { set: new Date(Date.parse(now) + 60_000).toISOString() });
    expect(await status(app)).toBe('shipped');

    await send(app, 'POST', '/api/endpoints/shop/reset');
    expect((await send(app, 'POST', '/endpoint/shop/orders')).status).toBe(201);
    await send(app, 'POST', '/api/endpoints/shop/reset');
    await send(app, 'PUT', '/api/clock', { advance: '1m' });
    expect(await status(app)).toBe('processing');

    expect((await send(app, 'POST', '/endpoint/shop/orders')).status).toBe(201);
    await send(app, 'PUT', '/api/endpoints/shop/state', { default: 'cancelled' });
    await send(app, 'PUT', '/api/clock', { advance: '1m' });
    expect(await json(await send(app, 'GET', '/api/endpoints/shop/state'))).toEqual({ default: 'cancelled' });
  });

  it('a queued answer moves the state later too', async () => {
    const app = makeApp();
    await send(app, 'PUT', '/api/clock', { freeze: true });
    await send(app, 'PUT', '/api/endpoints/q/routes', { routes: [{ answer: { statusCode: 200 } }] });
    const queued = { answers: [{ statusCode: 202, setState: { after: '5m', to: 'done' } }] };
    expect((await send(app, 'POST', '/api/endpoints/q/queue', queued)).status).toBe(201);
    expect((await send(app, 'GET', '/endpoint/q')).status).toBe(202);
    expect(await json(await send(app, 'GET', '/api/endpoints/q/state'))).toEqual({});
    await send(app, 'PUT', '/api/clock', { advance: '5m' });
    expect(await json(await send(app, 'GET', '/api/endpoints/q/state'))).toEqual({ default: 'done' });
  });

  it('refuses an after that is not a duration, and a to that is not a state', async () => {
    const app = makeApp();
    for (const setState of [
      { after: 'soon', to: 'shipped' },
      { after: '30s', to: 'not a state' },
    ]) {
      const response = await send(app, 'PUT', '/api/endpoints/shop/routes', {
        routes: [{ answer: { setState } }],
      });
      expect(response.status, JSON.stringify(setState)).toBe(400);
      expect((await json(response)).error.code).toBe('INVALID_STATE');
    }
  });
});

describe('signature timestamps follow the clock', () => {
  it("a webhook signed at the clock's time is on time; one signed at real time is stale then", async () => {
    const app = makeApp();
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    await send(app, 'PUT', '/api/endpoints/hook/routes', { routes: [{ answer: { statusCode: 200 } }] });
    await send(app, 'PUT', '/api/endpoints/hook/signature', { scheme: 'standard', secret, enforce: true });
    await send(app, 'PUT', '/api/clock', { freeze: true, set: '2030-01-01T00:00:00Z' });
    const body = '{"event":"paid"}';
    const post = async (timestamp: number) =>
      app.request('/endpoint/hook', {
        method: 'POST',
        body,
        headers: await signWebhook({ scheme: 'standard', secret, body: new TextEncoder().encode(body), timestamp }),
      });
    expect((await post(Date.parse('2030-01-01T00:00:00Z') / 1000)).status).toBe(200);
    const stale = await post(Math.floor(Date.now() / 1000));
    expect(stale.status).toBe(401);
    expect((await json(stale)).error.details.status).toBe('stale');
    await send(app, 'DELETE', '/api/clock');
    expect((await post(Math.floor(Date.now() / 1000))).status).toBe(200);
  });
});

describe('LLM answers follow the clock', () => {
  it("an OpenAI chat completion's created is the clock's time", async () => {
    const app = makeApp();
    const llm = { provider: 'openai', api: 'chat.completions', text: 'hi' };
    await send(app, 'PUT', '/api/endpoints/ai/routes', { routes: [{ answer: { llm } }] });
    await send(app, 'PUT', '/api/clock', { freeze: true, set: '2030-01-01T00:00:00Z' });
    const answer = await app.request('/endpoint/ai/v1/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] }),
    });
    expect(answer.status).toBe(200);
    expect((await json(answer)).created).toBe(Date.parse('2030-01-01T00:00:00Z') / 1000);
  });
});
