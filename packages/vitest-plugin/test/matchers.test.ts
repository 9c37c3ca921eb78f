import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockEndpoint, type MockServer, mockpointMatchers } from '../src/index.js';

expect.extend(mockpointMatchers);

describe('request matchers', () => {
  let mock: MockServer;
  let hook: MockEndpoint<{ ok: boolean }>;
  let silent: MockEndpoint<null>;

  beforeAll(async () => {
    mock = await createMockServer();
    hook = await mock.add({ name: 'hook', data: { ok: true } });
    silent = await mock.add({ name: 'silent', data: null });
    await fetch(`${hook.url}?page=2&tag=a&tag=b`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-Signature': 'sha256=abc' },
      body: JSON.stringify({ event: 'created', id: 1 }),
    });
    await fetch(hook.url, { method: 'PUT', body: 'plain text' });
  });
  afterAll(() => mock.close());

  it('toHaveBeenRequested passes with requests and fails, saying so, without', async () => {
    await expect(hook).toHaveBeenRequested();
    await expect(silent).not.toHaveBeenRequested();
    await expect(expect(silent).toHaveBeenRequested()).rejects.toThrow(
      'expected endpoint "silent" to have been requested, but it received no requests',
    );
    await expect(expect(hook).not.toHaveBeenRequested()).rejects.toThrow(/POST \/endpoint\/hook\?page=2&tag=a&tag=b/);
  });

  it('toHaveBeenRequestedTimes counts exactly and lists what was received', async () => {
    await expect(hook).toHaveBeenRequestedTimes(2);
    await expect(silent).toHaveBeenRequestedTimes(0);
    await expect(hook).not.toHaveBeenRequestedTimes(1);
    const failure = await expect(hook)
      .toHaveBeenRequestedTimes(3)
      .catch((e: Error) => e.message);
    expect(failure).toContain('expected endpoint "hook" to have been requested 3 times, received 2 requests:');
    expect(failure).toContain('1. POST /endpoint/hook?page=2&tag=a&tag=b');
    expect(failure).toContain('body: {"event":"created","id":1}');
    expect(failure).toContain('2. PUT /endpoint/hook');
    expect(failure).toContain('body: plain text');
    await expect(expect(hook).toHaveBeenRequestedTimes(-1)).rejects.toThrow(TypeError);
  });

  it('toHaveBeenRequestedWith matches method, JSON body, headers and query of any request', async () => {
    await expect(hook).toHaveBeenRequestedWith({ method: 'post' });
    await expect(hook).toHaveBeenRequestedWith({ body: { event: 'created', id: 1 } });
    await expect(hook).toHaveBeenRequestedWith({ body: expect.objectContaining({ event: 'created' }) });
    await expect(hook).toHaveBeenRequestedWith({ method: 'PUT', body: 'plain text' });
    await expect(hook).toHaveBeenRequestedWith({ body: '{"event":"created","id":1}' });
    await expect(hook).toHaveBeenRequestedWith({ headers: { 'x-signature': 'sha256=abc' } });
    await expect(hook).toHaveBeenRequestedWith({ headers: { 'X-Signature': expect.stringMatching(/^sha256=/) } });
    await expect(hook).toHaveBeenRequestedWith({ query: { page: '2', tag: ['a', 'b'] } });
    // Every field must hold for the same request.
    await expect(hook).not.toHaveBeenRequestedWith({ method: 'PUT', body: { event: 'created', id: 1 } });
    // The body is a JSON subset, as in every request filter: other keys are ignored.
    await expect(hook).toHaveBeenRequestedWith({ body: { event: 'created' } });
    await expect(hook).not.toHaveBeenRequestedWith({ body: { event: 'deleted' } });
    await expect(hook).not.toHaveBeenRequestedWith({ body: { event: 'created', id: 1, more: true } });
    await expect(hook).not.toHaveBeenRequestedWith({ query: { page: '3' } });
  });

  it('toHaveBeenRequestedWith finds only headers and query parameters that were sent, not Object.prototype members', async () => {
    // `constructor`, `toString`, `hasOwnProperty` and `__proto__` exist on every plain object's prototype.
    for (const key of ['constructor', 'toString', 'hasOwnProperty', '__proto__']) {
      await expect(hook, key).not.toHaveBeenRequestedWith({ headers: { [key]: expect.anything() } });
      await expect(hook, key).not.toHaveBeenRequestedWith({ query: { [key]: expect.anything() } });
    }
    const failure = await expect(hook)
      .toHaveBeenRequestedWith({ headers: { constructor: expect.anything() } })
      .catch((e: Error) => e.message);
    expect(failure).toContain('headers: constructor: null');

    // A request that does send such names is matched.
    const odd = await mock.add({ name: 'odd', data: null });
    await fetch(`${odd.url}?toString=yes&constructor=1`, { headers: { constructor: 'c' } });
    await expect(odd).toHaveBeenRequestedWith({
      headers: { constructor: 'c' },
      query: { toString: 'yes', constructor: '1' },
    });
  });

  it('toHaveBeenRequestedWith shows the received requests and the asked-for headers on failure', async () => {
    const failure = await expect(hook)
      .toHaveBeenRequestedWith({ method: 'DELETE', headers: { 'X-Signature': 'sha256=zzz' } })
      .catch((e: Error) => e.message);
    expect(failure).toContain('expected endpoint "hook" to have been requested with');
    expect(failure).toContain('{"headers": {"X-Signature": "sha256=zzz"}, "method": "DELETE"}');
    expect(failure).toContain('but none matched;\nreceived 2 requests:');
    expect(failure).toContain('1. POST /endpoint/hook');
    expect(failure).toContain('headers: x-signature: "sha256=abc"');
    expect(failure).toContain('headers: x-signature: null');

    const negated = await expect(hook)
      .not.toHaveBeenRequestedWith({ method: 'PUT' })
      .catch((e: Error) => e.message);
    expect(negated).toContain('but request 2 matched');
  });

  it('toHaveBeenRequestedWith takes a path pattern over the subpath, on a name with routes and no record', async () => {
    const api = await mock.api('api', [{ match: { path: '/users/:id' }, answer: { data: { id: 1 } } }]);
    await fetch(api.urlFor('/users/42?full=1'), { method: 'PATCH', body: '{"name":"Ada","role":"admin"}' });
    await expect(api).toHaveBeenRequestedWith({ path: '/users/:id' });
    await expect(api).toHaveBeenRequestedWith({ path: '/users/*', method: 'PATCH', query: { full: '1' } });
    await expect(api).toHaveBeenRequestedWith({ path: '/users/42', body: { name: 'Ada' } });
    await expect(api).not.toHaveBeenRequestedWith({ path: '/users' });
    await expect(api).not.toHaveBeenRequestedWith({ path: '/users/:id/posts' });
    await expect(api).not.toHaveBeenRequestedWith({ path: '/users/:id', method: 'GET' });
    await expect(hook).not.toHaveBeenRequestedWith({ path: '/users/:id' });
    await expect(hook).toHaveBeenRequestedWith({ path: '/' });
  });

  it('toHaveState compares the default scenario, or the scenarios named; a scenario never moved is at started', async () => {
    const shop = await mock.api('shop', [
      { match: { path: '/pay', state: { order: 'created' } }, answer: { setState: { order: 'paid' } } },
      { match: { path: '/login' }, answer: { setState: 'in' } },
    ]);
    await expect(shop).toHaveState('started');
    await expect(shop).toHaveState({ order: 'started', never: 'started' });
    await shop.setState({ order: 'created' });
    await fetch(shop.urlFor('/pay'), { method: 'POST' });
    await expect(shop).toHaveState({ order: 'paid' });
    await expect(shop).toHaveState({ order: expect.stringMatching(/^pa/) });
    await expect(shop).not.toHaveState({ order: 'created' });
    await expect(shop).not.toHaveState('in');
    await fetch(shop.urlFor('/login'));
    await expect(shop).toHaveState('in');
    await expect(shop).toHaveState({ default: 'in', order: 'paid' });
    await expect(shop).not.toHaveState({ default: 'in', order: 'shipped' });
  });

  it('toHaveState says which scenarios differ and lists the whole state; .not says it has it', async () => {
    const cart = await mock.api('cart', [{ match: { state: 'started' }, answer: { setState: 'full' } }]);
    await cart.setState({ order: 'created', login: 'in' });
    const failure = await expect(cart)
      .toHaveState({ order: 'paid', login: 'in' })
      .catch((e: Error) => e.message);
    expect(failure).toContain('expected endpoint "cart" to have state {"login": "in", "order": "paid"}');
    expect(failure).toContain('but order is "created"');
    expect(failure).not.toContain('login is');
    expect(failure).toContain('its state: {"default":"started","login":"in","order":"created"}');
    const negated = await expect(cart)
      .not.toHaveState('started')
      .catch((e: Error) => e.message);
    expect(negated).toBe(
      'expected endpoint "cart" not to have state "started", but it has; its state: {"default":"started","login":"in","order":"created"}',
    );
  });

  it('toHaveState refuses what is not a state: a TypeError', async () => {
    const api = await mock.api('api');
    for (const expected of [{}, { order: 1 }, 7, null]) {
      await expect(expect(api).toHaveState(expected as never)).rejects.toThrow(TypeError);
    }
  });

  it('reject what is not an endpoint handle with NOT_AN_ENDPOINT', async () => {
    await expect(expect('hook' as never).toHaveBeenRequested()).rejects.toMatchObject({ code: 'NOT_AN_ENDPOINT' });
    await expect(expect({ name: 'hook' } as never).toHaveState('paid')).rejects.toMatchObject({
      code: 'NOT_AN_ENDPOINT',
    });
  });
});
