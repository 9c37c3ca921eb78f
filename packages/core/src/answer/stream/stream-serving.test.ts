/**
 * Streamed answers as a client sees them, through both Node adapters (the
 * native listener and the Fetch route on @hono/node-server), read off real
 * sockets: the bytes of each format, each event sent as it is due, resume with
 * Last-Event-ID, templating per event, the three ends, and a client that leaves.
 */
import { closeExchanges, closeListeners, dechunk, exchange } from '@mockpoint/testkit/raw-http';
import { afterEach, describe, expect, it } from 'vitest';
import { serve } from '../../adapter/node/serve.js';
import { createApp } from '../../index.js';
import { NODE_ADAPTER_NAMES, NODE_ADAPTERS, type NodeAdapter } from '../../test-support/node-adapters.js';

afterEach(async () => {
  closeExchanges();
  await closeListeners();
});

async function setup(adapter: NodeAdapter, answer: unknown, options: Parameters<typeof createApp>[0] = {}) {
  const app = createApp(options);
  const put = await app.request('/api/endpoints/llm/routes', {
    method: 'PUT',
    body: JSON.stringify({ routes: [{ id: 's', match: { path: '/chat' }, answer }] }),
  });
  expect(put.status, await put.clone().text()).toBe(200);
  return { app, port: await NODE_ADAPTERS[adapter](app) };
}

describe.each(NODE_ADAPTER_NAMES)('streamed answers (%s adapter)', (adapter) => {
  it('sends SSE events as their exact bytes, JSON data as its exact text, with no-buffering headers', async () => {
    const app = createApp();
    const body = `{"routes":[{"match":{"path":"/chat"},"answer":{"statusCode":201,"stream":{"format":"sse","events":[
      {"id":"1","event":"chunk","data":{"n":12345678901234567890,"x":1.0}},
      {"data":"line one\\nline two","retry":500},
      {"data":"[DONE]"}]}}}]}`;
    expect((await app.request('/api/endpoints/llm/routes', { method: 'PUT', body })).status).toBe(200);
    const port = await NODE_ADAPTERS[adapter](app);
    const ex = exchange(port, '/endpoint/llm/chat');
    await ex.complete();
    const { head, body: sent, complete } = dechunk(ex.text());
    expect(complete).toBe(true);
    expect(head).toMatch(/^HTTP\/1\.1 201 /);
    expect(head.toLowerCase()).toContain('content-type: text/event-stream; charset=utf-8');
    expect(head.toLowerCase()).toContain('cache-control: no-cache, no-transform');
    expect(head.toLowerCase()).toContain('x-accel-buffering: no');
    expect(head.toLowerCase()).toContain('transfer-encoding: chunked');
    expect(sent).toBe(
      'id: 1\nevent: chunk\ndata: {"n":12345678901234567890,"x":1.0}\n\n' +
        'retry: 500\ndata: line one\ndata: line two\n\n' +
        'data: [DONE]\n\n',
    );
    // The stored route keeps the data exact, too.
    expect(await (await app.request('/api/endpoints/llm/routes')).text()).toContain(
      '{"n":12345678901234567890,"x":1.0}',
    );
  });

  it('writes each event as it is due: event 1 arrives while event 2 is still a minute away', async () => {
    const { app, port } = await setup(adapter, {
      stream: { format: 'sse', events: [{ data: 'one' }, { data: 'two', delay: 60_000 }] },
    });
    const ex = exchange(port, '/endpoint/llm/chat');
    await ex.until('data: one\n\n');
    expect(ex.text()).not.toContain('two');
    expect(app.mockpoint.streams.size).toBe(1);
    // The client leaves: the stream stops and its timer is freed at once.
    ex.socket.destroy();
    await expect.poll(() => app.mockpoint.streams.size).toBe(0);
  });

  it('resumes after Last-Event-ID (every event when the id is unknown)', async () => {
    const { port } = await setup(adapter, {
      stream: {
        format: 'sse',
        events: [
          { id: 'a', data: '1' },
          { id: 'b', data: '2' },
          { id: 'c', data: '3' },
        ],
      },
    });
    const resumed = exchange(port, '/endpoint/llm/chat', { 'Last-Event-ID': 'b' });
    await resumed.complete();
    expect(dechunk(resumed.text()).body).toBe('id: c\ndata: 3\n\n');
    const unknown = exchange(port, '/endpoint/llm/chat', { 'Last-Event-ID': 'zzz' });
    await unknown.complete();
    expect(dechunk(unknown.text()).body).toBe('id: a\ndata: 1\n\nid: b\ndata: 2\n\nid: c\ndata: 3\n\n');
  });

  it('sends NDJSON lines and raw chunks as they are', async () => {
    const { port } = await setup(adapter, {
      stream: { format: 'ndjson', events: [{ data: { a: [1, 2] } }, { data: 'text' }, { data: null }] },
    });
    const nd = exchange(port, '/endpoint/llm/chat');
    await nd.complete();
    expect(dechunk(nd.text()).head.toLowerCase()).toContain('content-type: application/x-ndjson');
    expect(dechunk(nd.text()).body).toBe('{"a":[1,2]}\n"text"\nnull\n');

    const raw = await setup(adapter, {
      headers: { 'content-type': 'text/plain' },
      stream: {
        format: 'raw',
        events: [{ body: 'héllo ' }, { bodyBase64: Buffer.from([0xff, 0x00]).toString('base64') }],
      },
    });
    const ex = exchange(raw.port, '/endpoint/llm/chat');
    await ex.complete();
    const got = dechunk(ex.text());
    expect(got.head.toLowerCase()).toContain('content-type: text/plain');
    expect(Buffer.from(got.body, 'latin1')).toEqual(Buffer.concat([Buffer.from('héllo '), Buffer.from([0xff, 0x00])]));
  });

  it('renders templates per event', async () => {
    const { port } = await setup(adapter, {
      template: true,
      stream: {
        format: 'sse',
        events: [{ data: 'hi {{query.who}}' }, { data: { who: '{{query.who}}', n: '{{seq}}' } }],
      },
    });
    const ex = exchange(port, '/endpoint/llm/chat?who=ada');
    await ex.complete();
    expect(dechunk(ex.text()).body).toBe('data: hi ada\n\ndata: {"who":"ada","n":1}\n\n');
  });

  it('answers HEAD with the headers alone', async () => {
    const { port } = await setup(adapter, { stream: { format: 'sse', events: [{ data: 'x' }], end: 'hang' } });
    const ex = exchange(port, '/endpoint/llm/chat', {}, 'HEAD');
    await ex.until('\r\n\r\n');
    expect(ex.text()).toMatch(/^HTTP\/1\.1 200 /);
    expect(ex.text()).not.toContain('data:');
  });
});

// On Node the native listener answers /endpoint/*; the Fetch path's reset (a stream
// error) is what Bun, Deno and workerd turn into a broken connection: see the runtime contract.
describe('end reset (native listener)', () => {
  it('end reset: the events arrive, then the connection breaks without the last chunk', async () => {
    const { port } = await setup('native', {
      stream: { format: 'sse', events: [{ data: 'partial' }], end: 'reset' },
    });
    const ex = exchange(port, '/endpoint/llm/chat');
    await ex.ended;
    const got = dechunk(ex.text());
    expect(got.body).toBe('data: partial\n\n');
    expect(got.complete).toBe(false);
  });
});

describe('end hang and shutdown (serve)', () => {
  it('keeps the stream open after its events until close() ends it, promptly despite a long grace', async () => {
    const app = createApp();
    await app.request('/api/endpoints/llm/routes', {
      method: 'PUT',
      body: JSON.stringify({
        routes: [{ answer: { stream: { format: 'sse', events: [{ data: 'held' }], end: 'hang' } } }],
      }),
    });
    const served = await serve(app, { overrideGlobalObjects: false });
    const ex = exchange(served.port, '/endpoint/llm/');
    await ex.until('data: held\n\n');
    expect(app.mockpoint.streams.size).toBe(1);
    expect(dechunk(ex.text()).complete).toBe(false);
    const started = Date.now();
    // A grace of a minute: the hanging stream must not hold the close for it.
    await served.close({ graceMs: 60_000 });
    expect(Date.now() - started).toBeLessThan(20_000);
    await ex.ended;
    expect(dechunk(ex.text()).complete).toBe(true);
    expect(app.mockpoint.streams.size).toBe(0);
  });
});

describe('bad stream answers', () => {
  const put = async (answer: unknown, options: Parameters<typeof createApp>[0] = {}) => {
    const response = await createApp(options).request('/api/endpoints/x/routes', {
      method: 'PUT',
      body: JSON.stringify({ routes: [{ answer }] }),
    });
    return {
      status: response.status,
      error: ((await response.json()) as { error: { code: string; message: string } }).error,
    };
  };

  it.each([
    [
      'a field of another format',
      { format: 'ndjson', events: [{ data: 1, event: 'x' }] },
      'INVALID_STREAM',
      /events\[0\]: event does not apply to the ndjson format/,
    ],
    ['an sse event without data', { format: 'sse', events: [{ id: '1' }] }, 'INVALID_STREAM', /data is required/],
    [
      'a raw event with both bodies',
      { format: 'raw', events: [{ body: 'a', bodyBase64: 'YQ==' }] },
      'INVALID_STREAM',
      /exactly one of body and bodyBase64/,
    ],
    ['bad base64', { format: 'raw', events: [{ bodyBase64: '!!' }] }, 'INVALID_STREAM', /not base64/],
    ['an id with a newline', { format: 'sse', events: [{ id: 'a\nb', data: 1 }] }, 'INVALID_STREAM', /id may not hold/],
    ['an unknown format', { format: 'xml', events: [] }, 'INVALID_STREAM', /stream\.format/],
    ['an unknown end', { format: 'sse', events: [], end: 'explode' }, 'INVALID_STREAM', /stream\.end/],
    [
      'an event delay past the limit',
      { format: 'sse', events: [{ data: 1, delay: 60_001 }] },
      'INVALID_DELAY',
      /delay/,
    ],
  ])('refuses %s', async (_, stream, code, message) => {
    const { status, error } = await put({ stream });
    expect(status).toBe(400);
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
  });

  it('refuses a stream beside a body, a fault or a bodiless status', async () => {
    const stream = { format: 'sse', events: [] };
    expect((await put({ stream, data: 1 })).error.code).toBe('INVALID_ANSWER');
    expect((await put({ stream, fault: 'close' })).error.code).toBe('INVALID_ANSWER');
    expect((await put({ stream, statusCode: 204 })).error.code).toBe('INVALID_ANSWER');
  });

  it('applies the limits: events, total delay, total bytes', async () => {
    const events = (n: number, extra = {}) => Array.from({ length: n }, () => ({ data: 'x', ...extra }));
    const tooMany = await put({ stream: { format: 'sse', events: events(4) } }, { maxStreamEvents: 3 });
    expect(tooMany).toMatchObject({ status: 400, error: { code: 'STREAM_TOO_LONG' } });
    expect(tooMany.error.message).toMatch(/4 events, more than the limit 3/);
    const tooSlow = await put(
      { delay: 500, stream: { format: 'sse', events: events(2, { delay: 300 }) } },
      { maxStreamMs: 1000 },
    );
    expect(tooSlow).toMatchObject({ status: 400, error: { code: 'STREAM_TOO_LONG' } });
    expect(tooSlow.error.message).toMatch(/1100 ms/);
    expect(
      (await put({ stream: { format: 'sse', events: events(2, { delay: 300 }) } }, { maxStreamMs: 1000 })).status,
    ).toBe(200);
    // One event of 200 empty lines is written as 200 "data: \n" lines and a blank line: 1,401 bytes.
    const lines = { format: 'sse', events: [{ data: '\n'.repeat(199) }] };
    expect((await put({ stream: lines }, { maxBodyBytes: 1401 })).status).toBe(200);
    const tooBig = await put({ stream: lines }, { maxBodyBytes: 1400 });
    expect(tooBig).toMatchObject({ status: 413, error: { code: 'BODY_TOO_LARGE' } });
    expect(tooBig.error.message).toMatch(/the events are 1401 bytes in all, more than the limit 1400/);
  });
});

describe('queued streamed answers (native listener)', () => {
  it('streams a queued answer, keeps its data exact in the queue, resumes it and refuses a bad one', async () => {
    const app = createApp();
    const body = `{"answers":[{"statusCode":202,"headers":{"x-run":"1"},"times":2,"stream":{"format":"sse","events":[
      {"id":"1","data":{"big":12345678901234567890}},{"id":"2","data":"[DONE]","delay":1}]}}]}`;
    const queued = await app.request('/api/endpoints/q/queue', { method: 'POST', body });
    expect(queued.status, await queued.clone().text()).toBe(201);
    const listed = await (await app.request('/api/endpoints/q/queue')).text();
    expect(listed).toContain('"data":{"big":12345678901234567890}');
    const port = await NODE_ADAPTERS.native(app);
    const first = exchange(port, '/endpoint/q');
    await first.complete();
    const got = dechunk(first.text());
    expect(got.head).toMatch(/^HTTP\/1\.1 202 /);
    expect(got.head.toLowerCase()).toContain('x-run: 1');
    expect(got.head.toLowerCase()).toContain('content-type: text/event-stream');
    expect(got.body).toBe('id: 1\ndata: {"big":12345678901234567890}\n\nid: 2\ndata: [DONE]\n\n');
    const resumed = exchange(port, '/endpoint/q', { 'Last-Event-ID': '1' });
    await resumed.complete();
    expect(dechunk(resumed.text()).body).toBe('id: 2\ndata: [DONE]\n\n');
    const entries = (await (await app.request('/api/endpoints/q/requests')).json()) as {
      requests: { statusCode: number; queued?: boolean }[];
    };
    expect(entries.requests.map((entry) => [entry.statusCode, entry.queued])).toEqual([
      [202, true],
      [202, true],
    ]);

    const bad = await app.request('/api/endpoints/q/queue', {
      method: 'POST',
      body: JSON.stringify({ answers: [{ stream: { format: 'raw', events: [{ data: 1 }] } }] }),
    });
    expect(bad.status).toBe(400);
    const error = ((await bad.json()) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('INVALID_STREAM');
    expect(error.message).toMatch(/^answers\[0\]\.stream\.events\[0\]: data does not apply to the raw format/);
  });
});
