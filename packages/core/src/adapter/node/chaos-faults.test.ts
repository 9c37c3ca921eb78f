// The endpoint's chaos over real sockets, as Node's fetch (undici) sees it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, createClient, type MockpointClient } from '../../index.js';
import { createNodeListener } from './index.js';

const servers: Server[] = [];

async function start(): Promise<MockpointClient> {
  const app = createApp();
  const server = createServer(createNodeListener(app, { overrideGlobalObjects: false }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return createClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function rejection(promise: Promise<unknown>): Promise<Error & { cause?: { code?: string } }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { cause?: { code?: string } };
  }
  throw new Error('expected a rejection');
}

describe('chaos over a real socket (createNodeListener)', () => {
  it('reset: fetch fails with ECONNRESET and no response; journaled as chaos with fault reset', async () => {
    const client = await start();
    await client.add({ name: 'api', data: { ok: true } });
    await client.setChaos('api', { rate: 1, faults: ['reset'] });
    const error = await rejection(fetch(client.endpointUrl('api'), { method: 'POST', body: '{"n":1}' }));
    expect(error.message).toBe('fetch failed');
    expect(error.cause?.code).toBe('ECONNRESET');
    const [entry] = await client.requests('api');
    expect(entry).toMatchObject({ method: 'POST', statusCode: 0, answeredBy: { chaos: 'reset' }, fault: 'reset' });
    await client.clearChaos('api');
    expect((await fetch(client.endpointUrl('api'))).status).toBe(200);
  });

  it('bandwidth: the whole body arrives, no faster than the rate (2000 bytes at 2000 bytes/s: 0.9 s at least)', async () => {
    const client = await start();
    const body = 'y'.repeat(2000);
    await client.setRoutes('api', [{ answer: { body } }]);
    await client.setChaos('api', { rate: 0, faults: ['503'], bandwidth: 2000 });
    const started = performance.now();
    const response = await fetch(client.endpointUrl('api'));
    expect(await response.text()).toBe(body);
    // Ten slices of 200 bytes, 100 ms apart: the bound is the behaviour (a generous lower one).
    expect(performance.now() - started).toBeGreaterThan(700);
  });

  it('timeout: nothing is answered until the client gives up; journaled as chaos with fault hang', async () => {
    const client = await start();
    await client.add({ name: 'api', data: { ok: true } });
    expect(await client.setChaos('api', { rate: 1, faults: ['timeout'], seed: 5 })).toEqual({
      rate: 1,
      faults: ['timeout'],
      seed: 5,
    });
    const error = await rejection(fetch(client.endpointUrl('api'), { signal: AbortSignal.timeout(300) }));
    expect(error.name).toBe('TimeoutError');
    const [entry] = await client.requests('api');
    expect(entry).toMatchObject({ answeredBy: { chaos: 'timeout' }, fault: 'hang' });
  });

  it('timeout: a held request is let go (the connection reset, nothing sent) when the chaos is cleared', async () => {
    const client = await start();
    await client.add({ name: 'api', data: { ok: true } });
    await client.setChaos('api', { rate: 1, faults: ['timeout'] });
    const held = rejection(fetch(client.endpointUrl('api')));
    expect((await client.journal('api', { wait: 5000, count: 1 })).requests).toHaveLength(1);
    await client.clearChaos('api');
    const error = await held;
    expect(error.message).toBe('fetch failed');
    expect(error.cause?.code).toBe('ECONNRESET');
    expect((await fetch(client.endpointUrl('api'))).status).toBe(200);
  });
});
