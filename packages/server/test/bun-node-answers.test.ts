// The daemon on Bun (Bun.serve, its own fast path for `/endpoint/`: docs/performance.md "The
// daemon on Bun") answers and journals every request as the daemon on Node does: the same
// requests sent to both, their status, headers (but the date and the connection's own) and
// body bytes compared, then the journal entries (but their times, ids and the Host's port).
// Both daemons are started here, whatever the project's runtime.

import { describe, expect, it } from 'vitest';
import { addEndpoint, type Daemon, startDaemon, useDaemons } from './helpers/daemon.js';

useDaemons({ kill: 'file' });

/** Headers that belong to the connection or the moment, not to the answer. */
const FRAMING = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

interface Sent {
  name: string;
  path: string;
  init?: RequestInit & { duplex?: 'half' };
}

/** What a client sees of an answer: status, headers (names in lower case, sorted) and the body's bytes. */
async function answerOf(daemon: Daemon, sent: Sent) {
  const response = await fetch(`${daemon.url}${sent.path}`, sent.init);
  const headers = [...response.headers].filter(([name]) => !FRAMING.has(name)).sort();
  return { status: response.status, headers, body: Buffer.from(await response.arrayBuffer()).toString('base64') };
}

/** The journal of `name`, without what differs between two daemons (ids, times, the Host's port). */
async function journalOf(daemon: Daemon, name: string) {
  const page = (await (await fetch(`${daemon.url}/api/endpoints/${name}/requests`)).json()) as {
    requests: Array<Record<string, unknown> & { headers: Record<string, unknown> }>;
  };
  return page.requests.map(({ id: _id, receivedAt: _at, timings: _timings, ...entry }) => ({
    ...entry,
    headers: { ...entry.headers, host: '127.0.0.1' },
  }));
}

const WEBHOOK = JSON.stringify({ id: 'evt_3PqR8s', type: 'payment_intent.succeeded', data: { amount: 2000 } });
/** Past the journal's 64 KiB copy: kept whole for the answer, cut in the journal. */
const LONG = JSON.stringify({ pad: 'é'.repeat(40_000) });

function chunked(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes.subarray(0, 7));
      controller.enqueue(bytes.subarray(7));
      controller.close();
    },
  });
}

/** The requests, in order: the first GET reads the store, the next ones the cache. */
function requests(): Sent[] {
  const json = { 'content-type': 'application/json' };
  return [
    { name: 'invoice', path: '/endpoint/invoice' },
    { name: 'invoice', path: '/endpoint/invoice' },
    { name: 'invoice', path: '/endpoint/invoice?page=2&tag=a&tag=b', init: { headers: { 'x-trace': 'one' } } },
    { name: 'invoice', path: '/endpoint/invoice', init: { method: 'HEAD' } },
    { name: 'invoice', path: '/endpoint/invoice', init: { method: 'OPTIONS' } },
    { name: 'hook', path: '/endpoint/hook', init: { method: 'POST', headers: json, body: WEBHOOK } },
    { name: 'hook', path: '/endpoint/hook', init: { method: 'PUT', headers: json, body: '' } },
    { name: 'hook', path: '/endpoint/hook', init: { method: 'POST', headers: json, body: LONG } },
    {
      name: 'hook',
      path: '/endpoint/hook',
      init: { method: 'PATCH', headers: json, body: chunked(WEBHOOK), duplex: 'half' },
    },
    { name: 'empty', path: '/endpoint/empty', init: { method: 'DELETE' } },
    { name: 'nobody', path: '/endpoint/nobody' },
    { name: 'invoice', path: '/endpoint/invoice/below' },
  ];
}

describe('the daemon on Bun answers and journals as the daemon on Node', () => {
  it('the same status, headers and body bytes for every request, and the same journal', async () => {
    const [node, bun] = await Promise.all([
      startDaemon({ args: ['--memory'], runtime: 'node' }),
      startDaemon({ args: ['--memory'], runtime: 'bun' }),
    ]);
    for (const daemon of [node, bun]) {
      await addEndpoint(daemon.url, {
        name: 'invoice',
        data: { id: 'in_1', lines: [{ sku: 'A-1', price: 9.99, note: 'naïve ✓' }] },
        statusCode: 201,
      });
      await addEndpoint(daemon.url, { name: 'hook', data: { received: true } });
      await addEndpoint(daemon.url, { name: 'empty', data: null, statusCode: 204 });
    }
    // Each daemon its own requests (a streamed body is read once).
    const [toNode, toBun] = [requests(), requests()];
    for (const [i, sent] of toNode.entries()) {
      const [onNode, onBun] = [await answerOf(node, sent), await answerOf(bun, toBun[i] as Sent)];
      expect(onBun, `${sent.init?.method ?? 'GET'} ${sent.path}`).toEqual(onNode);
    }
    for (const name of ['invoice', 'hook', 'empty', 'nobody']) {
      const [onNode, onBun] = [await journalOf(node, name), await journalOf(bun, name)];
      expect(onBun.length, name).toBeGreaterThan(0);
      expect(onBun, name).toEqual(onNode);
    }
  });
});
