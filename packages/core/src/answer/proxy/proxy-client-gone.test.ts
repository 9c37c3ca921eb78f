/**
 * A client that leaves while a proxy route waits for its upstream: the upstream
 * request is aborted then (the upstream sees its connection close), not held
 * until the proxy's timeout. Through both Node adapters, with a real local
 * upstream that never answers.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeExchanges, closeListeners, exchange } from '@mockpoint/testkit/raw-http';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type JournalEntry } from '../../index.js';
import { NODE_ADAPTER_NAMES, NODE_ADAPTERS } from '../../test-support/node-adapters.js';

const closers: (() => Promise<void>)[] = [];

afterEach(async () => {
  closeExchanges();
  await closeListeners();
  for (const close of closers.splice(0)) await close();
});

/** An upstream that never answers; resolves `arrived` with each request and `closed` once its connection closes. */
async function silentUpstream() {
  let arrived!: (req: IncomingMessage) => void;
  const seen = new Promise<IncomingMessage>((resolve) => {
    arrived = resolve;
  });
  const server = createServer((req) => arrived(req));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

describe.each(NODE_ADAPTER_NAMES)('a proxy route whose client leaves (%s adapter)', (adapter) => {
  it.each([
    ['without a body', 'GET', ''],
    ['with a body', 'POST', 'the body'],
  ])('aborts the upstream request at once (%s), not at the timeout', async (_, method, body) => {
    const upstream = await silentUpstream();
    const app = createApp({ proxyAllowHosts: ['127.0.0.1'] });
    // The longest timeout: only the client leaving can end the upstream request within the test.
    const routes = [{ id: 'up', answer: { proxy: { url: upstream.url, timeoutMs: 600_000 } } }];
    await app.request('/api/endpoints/p/routes', { method: 'PUT', body: JSON.stringify({ routes }) });
    const port = await NODE_ADAPTERS[adapter](app);

    const headers: Record<string, string> = body === '' ? {} : { 'content-length': String(body.length) };
    const client = exchange(port, '/endpoint/p/slow', headers, method);
    if (body !== '') client.socket.write(body);
    const req = await upstream.seen;
    const closed = new Promise<void>((resolve) => req.socket.once('close', () => resolve()));
    client.socket.destroy();
    await closed;

    await expect
      .poll(
        async () =>
          ((await (await app.request('/api/endpoints/p/requests')).json()) as { requests: JournalEntry[] }).requests,
      )
      .toMatchObject([{ statusCode: 499, upstream: { error: 'REQUEST_ABORTED' } }]);
  });
});
