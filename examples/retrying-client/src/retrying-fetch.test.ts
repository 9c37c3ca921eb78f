// The retrying client against mockpoint's chaos (docs/chaos.md): a seeded share
// of the requests is answered with a 503, a reset connection or no answer at
// all, so each test replays the same failures every run. The journal shows what
// the daemon injected, request by request, and the client must agree with it.
import { expect, it, useMockServer } from '@mockpoint/vitest';
import { describe } from 'vitest';
import { fetchWithRetry, RetriesExhaustedError, type RetryOptions } from './retrying-fetch.js';

const ORDER = { id: 7, status: 'paid' };

/** Options that never really wait: the waits are recorded instead. */
function recorded(options: RetryOptions = {}): { options: RetryOptions; waits: number[]; failures: string[] } {
  const waits: number[] = [];
  const failures: string[] = [];
  return {
    waits,
    failures,
    options: {
      timeoutMs: 300,
      sleep: async (ms) => {
        waits.push(ms);
      },
      onRetry: ({ failure }) => failures.push(failure.kind === 'status' ? String(failure.status) : failure.kind),
      ...options,
    },
  };
}

/** How each request to `name` was answered, as the daemon journaled it. */
async function journaled(mock: { requests(name: string): Promise<{ answeredBy: unknown }[]> }, name: string) {
  return (await mock.requests(name)).map((entry) =>
    typeof entry.answeredBy === 'object' && entry.answeredBy !== null && 'chaos' in entry.answeredBy
      ? (entry.answeredBy as { chaos: string }).chaos
      : entry.answeredBy,
  );
}

describe('fetchWithRetry against seeded chaos', () => {
  // One instance for the file; the full reset after each test also ends its chaos.
  const mock = useMockServer({ resetAfterEach: true });

  it('gets through a reset, a timeout and a 503 to the answer', async () => {
    await mock.put('orders', { data: ORDER });
    // Seed 118 at rate 0.6 decides: reset, timeout, 503, then an answer.
    await mock.setChaos('orders', { rate: 0.6, faults: ['503', 'reset', 'timeout'], seed: 118 });
    const { options, failures } = recorded({ retries: 5 });

    const response = await fetchWithRetry(`${mock.url}/endpoint/orders`, {}, options);

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(ORDER);
    expect(failures).toEqual(['network', 'timeout', '503']);
    expect(await journaled(mock, 'orders')).toEqual(['reset', 'timeout', '503', 'record']);
  });

  it('gives up after its retries, with backoff doubling, and says how the last attempt failed', async () => {
    await mock.put('orders', { data: ORDER });
    await mock.setChaos('orders', { rate: 1, faults: ['503'] });
    const { options, waits } = recorded({ retries: 3, baseDelayMs: 100, jitter: false });

    const error = await fetchWithRetry(`${mock.url}/endpoint/orders`, {}, options).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(RetriesExhaustedError);
    expect(error).toMatchObject({ attempts: 4, failure: { kind: 'status', status: 503 } });
    expect(waits).toEqual([100, 200, 400]);
    expect(await journaled(mock, 'orders')).toEqual(['503', '503', '503', '503']);
  });

  it("waits as the server's Retry-After says (429), capped by maxDelayMs", async () => {
    await mock.setChaos('orders', { rate: 1, faults: ['429'] });
    const { options, waits } = recorded({ retries: 2, baseDelayMs: 10, maxDelayMs: 800 });

    const error = await fetchWithRetry(`${mock.url}/endpoint/orders`, {}, options).catch((e: unknown) => e);

    expect(error).toMatchObject({ attempts: 3, failure: { kind: 'status', status: 429 } });
    // Chaos answers 429 with Retry-After: 1 (1000 ms); the client waits at most 800.
    expect(waits).toEqual([800, 800]);
  });

  it('sends a POST once, and answers a 404 at once: neither is worth another attempt', async () => {
    await mock.setChaos('orders', { rate: 1, faults: ['503'] });
    const post = await fetchWithRetry(`${mock.url}/endpoint/orders`, { method: 'POST', body: '{}' }, recorded().options)
      .then(() => undefined)
      .catch((e: unknown) => e);
    expect(post).toMatchObject({ attempts: 1, failure: { kind: 'status', status: 503 } });
    expect(await journaled(mock, 'orders')).toEqual(['503']);

    const missing = await fetchWithRetry(`${mock.url}/endpoint/no-such-order`, {}, recorded().options);
    expect(missing.status).toBe(404);
    await missing.body?.cancel();
    await expect(mock.requests('no-such-order')).resolves.toHaveLength(1);
  });

  it("the namespace's chaos reaches every endpoint; the client gets through to each", async () => {
    await mock.put('orders', { data: ORDER });
    await mock.put('customers', { data: { id: 1 } });
    await mock.setNamespaceChaos({ rate: 0.3, faults: ['503', 'reset'], seed: 5 });
    const { options, failures } = recorded({ retries: 8 });

    for (let i = 0; i < 10; i++) {
      for (const name of ['orders', 'customers']) {
        const response = await fetchWithRetry(`${mock.url}/endpoint/${name}`, {}, options);
        expect(response.status).toBe(200);
        await response.body?.cancel();
      }
    }
    // The same seed injects the same faults every run: the client retried each one.
    const injected = [...(await journaled(mock, 'orders')), ...(await journaled(mock, 'customers'))].filter(
      (by) => by !== 'record',
    );
    expect(injected.length).toBeGreaterThan(0);
    expect(failures).toHaveLength(injected.length);
  });
});
