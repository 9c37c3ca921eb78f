/**
 * A queued answer whose fields are absent falls back to what would answer
 * without the queue, also when that is a route whose answer streams: the
 * route's events go out under the queued status, delay or headers. Read off
 * real sockets through both Node NODE_ADAPTERS.
 */
import { closeExchanges, closeListeners, dechunk, exchange } from '@mockpoint/testkit/raw-http';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../index.js';
import { NODE_ADAPTER_NAMES, NODE_ADAPTERS, type NodeAdapter } from '../../test-support/node-adapters.js';

afterEach(async () => {
  closeExchanges();
  await closeListeners();
});

const STREAMED = 'id: 1\ndata: {"n":12345678901234567890}\n\nid: 2\ndata: [DONE]\n\n';

/** An app whose name `llm` streams EVENTS at /chat, with `answers` queued in front. */
async function setup(adapter: NodeAdapter, answers: unknown[]) {
  const app = createApp();
  // JSON.stringify would round the big integer: the route is written as text.
  const routes = `{"routes":[{"id":"s","match":{"path":"/chat"},"answer":{"headers":{"x-route":"yes"},"stream":{"format":"sse","events":[
    {"id":"1","data":{"n":12345678901234567890}},{"id":"2","data":"[DONE]"}]}}}]}`;
  expect((await app.request('/api/endpoints/llm/routes', { method: 'PUT', body: routes })).status).toBe(200);
  const queued = await app.request('/api/endpoints/llm/queue', { method: 'POST', body: JSON.stringify({ answers }) });
  expect(queued.status, await queued.clone().text()).toBe(201);
  return { app, port: await NODE_ADAPTERS[adapter](app) };
}

async function fetchRaw(port: number, headers: Record<string, string> = {}, method = 'GET') {
  const ex = exchange(port, '/endpoint/llm/chat', headers, method);
  await ex.complete();
  return dechunk(ex.text());
}

describe.each(NODE_ADAPTER_NAMES)('queued answers over a streaming route (%s)', (adapter) => {
  it('a queued status alone: the route streams its events under that status, then the route answers again', async () => {
    const { app, port } = await setup(adapter, [{ statusCode: 503 }]);
    const first = await fetchRaw(port);
    expect(first.head).toMatch(/^HTTP\/1\.1 503 /);
    expect(first.head.toLowerCase()).toContain('content-type: text/event-stream; charset=utf-8');
    expect(first.head.toLowerCase()).toContain('x-route: yes');
    expect(first.head.toLowerCase()).toContain('x-accel-buffering: no');
    expect(first.head.toLowerCase()).toContain('transfer-encoding: chunked');
    expect(first.body).toBe(STREAMED);
    const second = await fetchRaw(port);
    expect(second.head).toMatch(/^HTTP\/1\.1 200 /);
    expect(second.body).toBe(STREAMED);
    const journal = (await (await app.request('/api/endpoints/llm/requests')).json()) as {
      requests: { statusCode: number; answeredBy: unknown }[];
    };
    expect(journal.requests.map((entry) => entry.statusCode)).toEqual([503, 200]);
  });

  it('a queued delay alone: the same stream, after the delay', async () => {
    const { port } = await setup(adapter, [{ delay: 400 }]);
    const started = performance.now();
    const got = await fetchRaw(port);
    expect(performance.now() - started).toBeGreaterThanOrEqual(390);
    expect(got.head).toMatch(/^HTTP\/1\.1 200 /);
    expect(got.body).toBe(STREAMED);
  });

  it('queued headers replace the route’s but keep the stream’s type and no-buffering; Last-Event-ID resumes', async () => {
    const { port } = await setup(adapter, [{ headers: { 'x-queued': '1' } }]);
    const got = await fetchRaw(port, { 'Last-Event-ID': '1' });
    expect(got.head.toLowerCase()).toContain('x-queued: 1');
    expect(got.head.toLowerCase()).not.toContain('x-route');
    expect(got.head.toLowerCase()).toContain('content-type: text/event-stream; charset=utf-8');
    expect(got.head.toLowerCase()).toContain('cache-control: no-cache, no-transform');
    expect(got.body).toBe('id: 2\ndata: [DONE]\n\n');
  });

  it('a queued body replaces the stream; a bodiless status sends none; HEAD gets the headers alone', async () => {
    const { port } = await setup(adapter, [{ statusCode: 429, data: { slow: 'down' } }, { statusCode: 204 }]);
    const body = await fetchRaw(port);
    expect(body.head).toMatch(/^HTTP\/1\.1 429 /);
    expect(body.head.toLowerCase()).toContain('content-type: application/json');
    expect(body.body).toBe('{"slow":"down"}');
    // A 204 has neither a length nor chunks: its end is the blank line.
    const none = exchange(port, '/endpoint/llm/chat');
    await none.until('\r\n\r\n');
    expect(none.text()).toMatch(/^HTTP\/1\.1 204 /);
    expect(none.text().toLowerCase()).not.toContain('transfer-encoding');

    const head = await setup(adapter, [{ statusCode: 502 }]);
    const ex = exchange(head.port, '/endpoint/llm/chat', {}, 'HEAD');
    await ex.until('\r\n\r\n');
    expect(ex.text()).toMatch(/^HTTP\/1\.1 502 /);
    expect(ex.text().toLowerCase()).toContain('content-type: text/event-stream');
    expect(ex.text()).not.toContain('data:');
  });
});

describe('queued faults over a streaming route (native listener)', () => {
  it('close cuts the written-out stream in half; a released hang gets the stream', async () => {
    const { app, port } = await setup('native', [{ fault: 'close' }, { fault: 'hang' }]);
    const closed = exchange(port, '/endpoint/llm/chat');
    await closed.ended;
    const cut = dechunk(closed.text());
    expect(cut.head.toLowerCase()).toContain(`content-length: ${STREAMED.length}`);
    expect(cut.body).toBe(STREAMED.slice(0, Math.floor(STREAMED.length / 2)));

    const held = exchange(port, '/endpoint/llm/chat');
    // The hang is taken (and journaled) before the queue is cleared.
    await expect
      .poll(
        async () =>
          ((await (await app.request('/api/endpoints/llm/requests')).json()) as { requests: [] }).requests.length,
      )
      .toBe(2);
    expect((await app.request('/api/endpoints/llm/queue', { method: 'DELETE' })).status).toBe(204);
    await held.complete();
    const released = dechunk(held.text());
    expect(released.head).toMatch(/^HTTP\/1\.1 200 /);
    expect(released.body).toBe(STREAMED);
  });
});
