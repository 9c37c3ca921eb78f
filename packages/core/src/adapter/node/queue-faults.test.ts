// Queued answers and faults over real sockets, as Node's fetch (undici) sees them.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, createClient, type JournalEntry, type MockpointApp, type MockpointClient } from '../../index.js';
import { createNodeListener, serve } from './index.js';

interface Running {
  app: MockpointApp;
  url: string;
  server: Server;
  client: MockpointClient;
}

const running: Running[] = [];

async function start(): Promise<Running> {
  const app = createApp();
  const server = createServer(createNodeListener(app, { overrideGlobalObjects: false }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const r = { app, server, url, client: createClient({ baseUrl: url }) };
  running.push(r);
  return r;
}

afterEach(async () => {
  for (const r of running.splice(0)) {
    r.server.closeAllConnections();
    await new Promise((resolve) => r.server.close(resolve));
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

describe('queued answers over a real socket (createNodeListener)', () => {
  it('answers 503, 503, then the record — also for the cached GET fast path — and journals each', async () => {
    const { client } = await start();
    await client.add({ name: 'hook', data: { ok: true } });
    await fetch(client.endpointUrl('hook')); // the record is now in the cache
    await client.clearRequests('hook');
    await client.queue('hook', [{ statusCode: 503, data: { error: 'busy' }, times: 2 }]);

    const answers: [number, string][] = [];
    for (let i = 0; i < 3; i++) {
      const response = await fetch(client.endpointUrl('hook'), { method: i === 0 ? 'POST' : 'GET' });
      answers.push([response.status, await response.text()]);
    }
    expect(answers).toEqual([
      [503, '{"error":"busy"}'],
      [503, '{"error":"busy"}'],
      [200, '{"ok":true}'],
    ]);
    const journal = await client.requests('hook');
    expect(journal.map((r) => [r.method, r.statusCode, r.queued, r.fault])).toEqual([
      ['POST', 503, true, undefined],
      ['GET', 503, true, undefined],
      ['GET', 200, undefined, undefined],
    ]);
    expect(await client.queued('hook')).toEqual([]);
  });

  it('falls back to the record field by field, and answers 404 NOT_FOUND with neither data nor a record', async () => {
    const { client } = await start();
    await client.add({ name: 'hook', data: [1, 2], statusCode: 201 });
    await client.queue('hook', [{ statusCode: 500 }, { data: 'x' }, { statusCode: 204, data: 'dropped' }]);
    const first = await fetch(client.endpointUrl('hook'));
    expect([first.status, await first.text(), first.headers.get('content-type')]).toEqual([
      500,
      '[1,2]',
      'application/json; charset=utf-8',
    ]);
    const second = await fetch(client.endpointUrl('hook'));
    expect([second.status, await second.text()]).toEqual([201, '"x"']);
    const third = await fetch(client.endpointUrl('hook'));
    expect([third.status, await third.text()]).toEqual([204, '']);

    await client.queue('nobody', [{ statusCode: 500 }, { data: { made: 'up' } }]);
    const missing = await fetch(client.endpointUrl('nobody'));
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
    const made = await fetch(client.endpointUrl('nobody'));
    expect([made.status, await made.text()]).toEqual([200, '{"made":"up"}']);
  });

  it('reset: fetch fails with ECONNRESET and no response; journaled as queued with fault reset', async () => {
    const { client } = await start();
    await client.add({ name: 'hook', data: { ok: true } });
    await client.queue('hook', [{ fault: 'reset' }]);
    const error = await rejection(fetch(client.endpointUrl('hook'), { method: 'POST', body: '{"n":1}' }));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe('fetch failed');
    expect(error.cause?.code).toBe('ECONNRESET');
    // The next request gets the record.
    expect((await fetch(client.endpointUrl('hook'))).status).toBe(200);
    const [entry] = await client.requests('hook');
    expect(entry).toMatchObject({ method: 'POST', json: { n: 1 }, statusCode: 0, queued: true, fault: 'reset' });
  });

  it('close: the status and headers arrive, then reading the body fails (UND_ERR_SOCKET) after half of it', async () => {
    const { client } = await start();
    const data = { items: 'x'.repeat(1000) };
    await client.add({ name: 'hook', data });
    await client.queue('hook', [{ fault: 'close', statusCode: 502 }]);
    const response = await fetch(client.endpointUrl('hook'));
    expect(response.status).toBe(502);
    expect(response.headers.get('content-length')).toBe(String(JSON.stringify(data).length));
    const error = await rejection(response.text());
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe('terminated');
    expect(error.cause?.code).toBe('UND_ERR_SOCKET');
    const [entry] = await client.requests('hook');
    expect(entry).toMatchObject({ statusCode: 502, queued: true, fault: 'close' });
  });

  it('close: a raw socket receives exactly the headers and half the body, then the end of the connection', async () => {
    const { client, url } = await start();
    await client.add({ name: 'hook', data: 'abcdefghij' }); // 12 bytes of JSON
    await client.queue('hook', [{ fault: 'close' }]);
    const { connect } = await import('node:net');
    const port = Number(new URL(url).port);
    const received = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write('GET /endpoint/hook HTTP/1.1\r\nhost: x\r\n\r\n'));
      let text = '';
      socket.setEncoding('latin1');
      socket.on('data', (chunk) => {
        text += chunk;
      });
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    const [head, body] = received.split('\r\n\r\n') as [string, string];
    expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(head.toLowerCase()).toContain('content-length: 12');
    expect(body).toBe('"abcde');
  });

  it('hang: no answer until the client gives up (TimeoutError); the next request gets the record', async () => {
    const { client } = await start();
    await client.add({ name: 'hook', data: { ok: true } });
    await client.queue('hook', [{ fault: 'hang' }]);
    // 1 s: a client that gives up before its request is even written (one CPU stall on a busy machine)
    // leaves the hang queued, and the next request below would hang instead of getting the record.
    const error = await rejection(fetch(client.endpointUrl('hook'), { signal: AbortSignal.timeout(1000) }));
    expect(error.name).toBe('TimeoutError');
    const [entry] = await client.requests('hook');
    expect(entry).toMatchObject({ statusCode: 0, queued: true, fault: 'hang' });
    expect((await fetch(client.endpointUrl('hook'))).status).toBe(200);
  });

  it('hang: clearing the queue releases the request, which then gets the record', async () => {
    const { client, server } = await start();
    await client.add({ name: 'hook', data: { ok: true } });
    await client.queue('hook', [{ fault: 'hang' }]);
    // The server's side of each request: whether anything of an answer was sent is read there.
    const answers: ServerResponse[] = [];
    server.on('request', (_req, res: ServerResponse) => answers.push(res));
    const pending = fetch(client.endpointUrl('hook'));
    let settled = false;
    void pending.finally(() => {
      settled = true;
    });
    // It has arrived, been given the hang (the journal says so) and is held: the server has sent
    // nothing for it, and the client has had nothing, until the queue is cleared.
    const [taken] = await client.waitForRequests('hook');
    expect(taken).toMatchObject({ statusCode: 0, queued: true, fault: 'hang' });
    const [held] = answers.filter((res) => res.req.url === '/endpoint/hook');
    expect([held?.headersSent, held?.writableEnded, settled]).toEqual([false, false, false]);
    await client.clearQueue('hook');
    const response = await pending;
    expect([response.status, await response.text()]).toEqual([200, '{"ok":true}']);
  });

  it('a delay applies before the fault', async () => {
    const { client } = await start();
    await client.add({ name: 'hook', data: 1 });
    await client.queue('hook', [{ fault: 'reset', delay: 200 }]);
    const started = Date.now();
    const error = await rejection(fetch(client.endpointUrl('hook')));
    expect(error.cause?.code).toBe('ECONNRESET');
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });

  it('50 concurrent requests: each queued answer is given exactly once, then the record answers', async () => {
    const { client } = await start();
    await client.add({ name: 'hook', data: 'record' });
    await client.queue(
      'hook',
      Array.from({ length: 50 }, (_, n) => ({ data: { n }, statusCode: 200 + (n % 2) })),
    );
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        fetch(client.endpointUrl('hook'), { method: 'POST' }).then(async (r) => ({
          status: r.status,
          body: await r.json(),
        })),
      ),
    );
    const ns = responses.map((r) => (r.body as { n: number }).n).sort((a, b) => a - b);
    expect(ns).toEqual(Array.from({ length: 50 }, (_, n) => n));
    for (const r of responses) expect(r.status).toBe(200 + ((r.body as { n: number }).n % 2));
    expect(await client.queued('hook')).toEqual([]);
    const after = await fetch(client.endpointUrl('hook'));
    expect(await after.json()).toBe('record');

    const journal = await client.requests('hook');
    const queued = journal.filter((r: JournalEntry) => r.queued);
    expect(queued).toHaveLength(50);
    expect(journal.at(-1)).toMatchObject({ statusCode: 200 });
    expect(journal.at(-1)?.queued).toBeUndefined();
  });

  it('50 concurrent requests take a times-repeated answer exactly `times` times, in queue order', async () => {
    const { client } = await start();
    await client.add({ name: 'hook', data: 'record' });
    await client.queue('hook', [
      { statusCode: 503, times: 30 },
      { statusCode: 429, times: 20 },
    ]);
    const statuses = await Promise.all(
      Array.from({ length: 50 }, () => fetch(client.endpointUrl('hook')).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 503)).toHaveLength(30);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
    // Taken in arrival order: the journal (in arrival order) has every 503 before any 429.
    const journal = (await client.requests('hook')).map((r) => r.statusCode);
    expect(journal.lastIndexOf(503)).toBeLessThan(journal.indexOf(429));
    expect((await fetch(client.endpointUrl('hook'))).status).toBe(200);
  });

  it('hang: closing the server answers a hanging request with the record instead of holding the close', async () => {
    const app = createApp();
    const served = await serve(app, { overrideGlobalObjects: false });
    const client = createClient({ baseUrl: served.url });
    try {
      await client.add({ name: 'hook', data: { ok: true } });
      await client.queue('hook', [{ fault: 'hang' }]);
      const pending = fetch(client.endpointUrl('hook'));
      await client.waitForRequests('hook'); // journaled: it is hanging now
      const started = Date.now();
      // A 20 s grace period: only a released hang lets close() finish well before it.
      await served.close({ graceMs: 20_000 });
      expect(Date.now() - started).toBeLessThan(15_000);
      const response = await pending;
      expect([response.status, await response.text()]).toEqual([200, '{"ok":true}']);
    } finally {
      await served.close();
    }
  });
});
