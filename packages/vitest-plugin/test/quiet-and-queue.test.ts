// Endpoint handles: queued answers, filtered waits, quiet periods and the
// toHaveBeenRequestedWithin matcher, against a real createMockServer() socket.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer, mockpointMatchers } from '../src/index.js';

expect.extend(mockpointMatchers);

/**
 * Sends `method` to `url` once the matcher waits, then resolves what `settled` settles to: the
 * matcher counts only requests arriving after it started, so the request goes once the server holds
 * its long-poll of the journal (`longPolls` of `/api/health`).
 */
async function sendWhenWaiting<T>(mock: MockServer, url: string, method: string, settled: Promise<T>): Promise<T> {
  const longPolls = async () =>
    ((await (await fetch(`${mock.url}/api/health`)).json()) as { longPolls: number }).longPolls;
  await expect.poll(longPolls, { timeout: 10_000 }).toBe(1);
  await fetch(url, { method });
  return settled;
}

describe('endpoint handle: queue, filtered waits, quiet periods', () => {
  let mock: MockServer;

  beforeAll(async () => {
    mock = await createMockServer();
  });
  afterAll(() => mock.close());

  it('queues answers, lists them and clears them; replace empties the queue', async () => {
    const hook = await mock.add({ name: 'queued', data: { ok: true } });
    expect(await hook.queue([{ statusCode: 503, times: 2 }, { fault: 'reset' }])).toEqual([
      { statusCode: 503, times: 2 },
      { fault: 'reset', times: 1 },
    ]);
    expect(await hook.queued()).toHaveLength(2);
    await hook.clearQueue();
    expect(await hook.queued()).toEqual([]);
    await hook.queue([{ statusCode: 500 }]);
    await hook.replace({ data: { ok: false } });
    expect(await mock.queued('queued')).toEqual([]);
  });

  it('waitForRequests with match waits for the matching request over real sockets', async () => {
    const hook = await mock.add({ name: 'events', data: null });
    const waiting = hook.waitForRequests({ match: { body: { type: 'paid' } }, timeout: 10_000 });
    await fetch(hook.url, { method: 'POST', body: JSON.stringify({ type: 'created' }) });
    await fetch(hook.url, { method: 'POST', body: JSON.stringify({ type: 'paid', id: 9 }) });
    expect((await waiting).map((r) => r.json)).toEqual([{ type: 'paid', id: 9 }]);
  });

  it('expectNoRequests resolves when nothing arrives and throws UNEXPECTED_REQUEST when something does', async () => {
    const hook = await mock.add({ name: 'quiet', data: null });
    await hook.expectNoRequests({ within: 100 });
    // An explicit cursor: the request counts however late the wait starts.
    const after = (await hook.requests()).at(-1)?.id ?? 0;
    const noisy = hook.expectNoRequests({ within: 10_000, after }).catch((e: unknown) => e);
    await fetch(hook.url, { method: 'POST' });
    expect(await noisy).toMatchObject({ code: 'UNEXPECTED_REQUEST' });
  });

  it('not.toHaveBeenRequestedWithin passes after a quiet period and fails as soon as a request arrives', async () => {
    const hook = await mock.add({ name: 'retry-once', data: null });
    await fetch(hook.url, { method: 'POST' }); // earlier requests do not count
    await expect(hook).not.toHaveBeenRequestedWithin(100);

    const failing = expect(hook)
      .not.toHaveBeenRequestedWithin(10_000)
      .catch((e: Error) => e.message);
    const message = await sendWhenWaiting(mock, hook.url, 'PUT', failing);
    expect(message).toMatch(
      /expected endpoint "retry-once" not to have been requested within 10000 ms, but it received PUT \/endpoint\/retry-once after \d+ ms/,
    );
  });

  it('toHaveBeenRequestedWithin passes on the first matching request and fails, saying so, without one', async () => {
    const hook = await mock.add({ name: 'within', data: null });
    await fetch(hook.url, { method: 'GET' });
    await sendWhenWaiting(
      mock,
      hook.url,
      'DELETE',
      expect(hook).toHaveBeenRequestedWithin(10_000, { method: 'DELETE' }),
    );
    await expect(expect(hook).toHaveBeenRequestedWithin(50, { method: 'PATCH' })).rejects.toThrow(
      'expected endpoint "within" to have been requested with {"method": "PATCH"} within 50 ms, but no request arrived',
    );
    await expect(expect(hook).toHaveBeenRequestedWithin(-1)).rejects.toThrow(TypeError);
    await expect(expect({ name: 'x', requests: async () => [] }).toHaveBeenRequestedWithin(1)).rejects.toThrow(
      /needs an endpoint handle/,
    );
  });
});
