// A cached record that nothing else answers is sent without the answer pipeline's steps
// (core's engine/plain-read.ts). What a client and the journal see must not tell: the bytes on
// the socket of the first request (answered by the pipeline, which looks the name's settings
// up) and of the ones after it (the plain read) are the same, header order, Date and all, and
// so are their journal entries; and every change that shapes the answer reaches the next request.
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { addEndpoint, requestJson, sharedDaemon, useDaemons } from './helpers/daemon.js';

useDaemons();
const memoryDaemon = sharedDaemon({ args: ['--memory'] });

/** Node's Date header: an IMF-fixdate. */
const DATE = /\r\nDate: [A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT\r\n/;

/**
 * Sends `count` requests (latin1: a character per byte), one after another, on one keep-alive
 * connection and resolves with the bytes of each response (latin1 too), framed by its Content-Length.
 */
function rawResponses(url: string, request: string, count: number): Promise<string[]> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const responses: string[] = [];
    let text = '';
    socket.setEncoding('latin1');
    socket.on('error', reject);
    socket.on('data', (chunk: string) => {
      text += chunk;
      const end = text.indexOf('\r\n\r\n');
      if (end === -1) return;
      const length = Number(/\r\ncontent-length: (\d+)/i.exec(text.slice(0, end))?.[1] ?? 0);
      const bodyLength = request.startsWith('HEAD ') ? 0 : length;
      if (text.length < end + 4 + bodyLength) return;
      responses.push(text.slice(0, end + 4 + bodyLength));
      text = text.slice(end + 4 + bodyLength);
      if (responses.length === count) {
        socket.destroy();
        resolve(responses);
      } else socket.write(request, 'latin1');
    });
    socket.write(request, 'latin1');
  });
}

/** A response with its Date's value (checked to be one) put aside, for comparing two taken seconds apart. */
function undated(response: string): string {
  expect(response).toMatch(DATE);
  return response.replace(DATE, '\r\nDate: (date)\r\n');
}

interface JournalEntry {
  id: number;
  receivedAt: string;
  timings?: unknown;
  [field: string]: unknown;
}

/** The journal of `name`, oldest first, without what differs between any two requests (id, times). */
async function journalOf(url: string, name: string): Promise<Record<string, unknown>[]> {
  const { body } = await requestJson(`${url}/api/endpoints/${name}/requests`);
  const entries = (body as { requests: JournalEntry[] }).requests;
  return entries.map(({ id: _id, receivedAt: _at, timings: _timings, ...rest }) => rest);
}

const JSON_HEAD = [
  'content-type: application/json; charset=utf-8',
  'access-control-allow-origin: *',
  'access-control-expose-headers: *',
];

describe('a plain cached read on the wire', () => {
  it.each([
    { what: 'a GET', method: 'GET', extra: '', record: { statusCode: 201 }, status: 'HTTP/1.1 201 Created' },
    { what: 'a HEAD', method: 'HEAD', extra: '', record: { statusCode: 201 }, status: 'HTTP/1.1 201 Created' },
    {
      what: 'a CORS GET (Origin)',
      method: 'GET',
      extra: 'Origin: http://app.example\r\n',
      record: {},
      status: 'HTTP/1.1 200 OK',
    },
    { what: 'a delayed record', method: 'GET', extra: '', record: { delay: 20 }, status: 'HTTP/1.1 200 OK' },
    { what: 'a POST', method: 'POST', extra: 'Content-Length: 2\r\n', record: {}, status: 'HTTP/1.1 200 OK' },
  ])('$what: the same bytes and journal entry from the pipeline and from the plain read', async (c) => {
    const daemon = await memoryDaemon();
    const name = `plain-${c.what.replace(/\W+/g, '-')}`;
    const data = { id: 'evt_1', items: [1, 2, 3], note: 'é ✓' };
    expect((await addEndpoint(daemon.url, { name, data, ...c.record })).status).toBe(201);
    const body = c.method === 'POST' ? '{}' : '';
    const request = `${c.method} /endpoint/${name} HTTP/1.1\r\nHost: 127.0.0.1\r\n${c.extra}\r\n${body}`;
    const [first, ...rest] = await rawResponses(daemon.url, request, 4);
    const text = JSON.stringify(data);
    const length = Buffer.byteLength(text);
    // The exact bytes, in Node's order: our headers, then Date, Connection and Keep-Alive.
    const expected = [c.status, ...JSON_HEAD, `content-length: ${length}`, 'Date: (date)', 'Connection: keep-alive']
      .concat(['Keep-Alive: timeout=5', '', c.method === 'HEAD' ? '' : Buffer.from(text).toString('latin1')])
      .join('\r\n');
    expect(undated(first as string)).toBe(expected);
    for (const later of rest) expect(undated(later)).toBe(expected);
    const journal = await journalOf(daemon.url, name);
    expect(journal).toHaveLength(4);
    expect(journal[0]).toMatchObject({ method: c.method, answeredBy: 'record' });
    for (const later of journal.slice(1)) expect(later).toEqual(journal[0]);
  });

  it('a change that shapes the answer reaches the very next request, and the record answers again after it', async () => {
    const daemon = await memoryDaemon();
    const url = `${daemon.url}/endpoint/shaped`;
    const api = `${daemon.url}/api/endpoints/shaped`;
    await addEndpoint(daemon.url, { name: 'shaped', data: { v: 1 } });
    const get = () => requestJson(url);
    const plain = { status: 200, body: { v: 1 } };
    // Two reads: the second is a plain read.
    expect(await get()).toEqual(plain);
    expect(await get()).toEqual(plain);

    expect((await requestJson(`${api}/chaos`, { method: 'PUT', body: { rate: 1, faults: ['503'] } })).status).toBe(200);
    expect((await get()).status).toBe(503);
    expect((await requestJson(`${api}/chaos`, { method: 'DELETE' })).status).toBe(204);
    expect(await get()).toEqual(plain);
    expect(await get()).toEqual(plain);

    const namespaceChaos = await requestJson(`${daemon.url}/api/chaos`, {
      method: 'PUT',
      body: { rate: 1, faults: ['429'] },
    });
    expect(namespaceChaos.status).toBe(200);
    expect((await get()).status).toBe(429);
    expect((await requestJson(`${daemon.url}/api/chaos`, { method: 'DELETE' })).status).toBe(204);
    expect(await get()).toEqual(plain);

    const queued = await requestJson(`${api}/queue`, {
      method: 'POST',
      body: { answers: [{ statusCode: 202, data: { queued: true } }] },
    });
    expect(queued.status).toBe(201);
    expect(await get()).toEqual({ status: 202, body: { queued: true } });
    expect(await get()).toEqual(plain);

    const signature = await requestJson(`${api}/signature`, {
      method: 'PUT',
      body: { scheme: 'github', secret: 'plain read secret', enforce: true },
    });
    expect(signature.status).toBe(200);
    expect((await get()).status).toBe(401);
    expect((await requestJson(`${api}/signature`, { method: 'DELETE' })).status).toBe(204);
    expect(await get()).toEqual(plain);

    const routes = { routes: [{ match: { method: 'GET', path: '/' }, answer: { data: { routed: true } } }] };
    expect((await requestJson(`${api}/routes`, { method: 'PUT', body: routes })).status).toBe(200);
    expect(await get()).toEqual({ status: 200, body: { routed: true } });
    expect((await requestJson(`${api}/routes`, { method: 'PUT', body: { routes: [] } })).status).toBe(200);
    expect(await get()).toEqual(plain);

    expect((await requestJson(api, { method: 'PUT', body: { data: { v: 2 }, statusCode: 201 } })).status).toBe(200);
    expect(await get()).toEqual({ status: 201, body: { v: 2 } });
  });
});

/**
 * A POST of `chunks` (latin1: a character per byte) as one body: with Content-Length, or
 * chunked (Node's parser then hands each chunk as its own 'data').
 */
function postOf(name: string, chunks: string[], chunked: boolean): string {
  const head = `POST /endpoint/${name} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n`;
  if (!chunked) {
    const body = chunks.join('');
    return `${head}Content-Length: ${body.length}\r\n\r\n${body}`;
  }
  const framed = chunks.map((chunk) => `${chunk.length.toString(16)}\r\n${chunk}\r\n`).join('');
  return `${head}Transfer-Encoding: chunked\r\n\r\n${framed}0\r\n\r\n`;
}

/** The journal entries of `name` without their framing header (Content-Length or Transfer-Encoding). */
async function unframed(url: string, name: string): Promise<Record<string, unknown>[]> {
  return (await journalOf(url, name)).map((entry) => {
    const {
      'content-length': _length,
      'transfer-encoding': _chunked,
      ...headers
    } = entry.headers as Record<string, string>;
    return { ...entry, headers };
  });
}

describe("a plain POST's body in the journal", () => {
  it('is the same whether it came in one chunk or in several (a multi-byte character split between two)', async () => {
    const daemon = await memoryDaemon();
    const name = 'plain-post-chunks';
    expect((await addEndpoint(daemon.url, { name, data: { received: true } })).status).toBe(201);
    const body = JSON.stringify({ id: 'evt_1', note: 'é ✓ 😀', amount: 2000 });
    const bytes = Buffer.from(body);
    // Cut inside the emoji's four bytes: each chunk is latin1 text here, one character a byte.
    const cut = bytes.indexOf(Buffer.from('😀')) + 2;
    const parts = [bytes.subarray(0, 5), bytes.subarray(5, cut), bytes.subarray(cut)].map((b) => b.toString('latin1'));
    const whole = bytes.toString('latin1');
    const answers = [
      ...(await rawResponses(daemon.url, postOf(name, [whole], false), 2)),
      ...(await rawResponses(daemon.url, postOf(name, parts, true), 2)),
    ];
    for (const answer of answers) expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\n\{"received":true\}$/);
    const journal = await unframed(daemon.url, name);
    expect(journal).toHaveLength(4);
    expect(journal[0]).toMatchObject({ body, json: JSON.parse(body), bodyTruncated: false, answeredBy: 'record' });
    for (const later of journal.slice(1)) expect(later).toEqual(journal[0]);
  });

  it("keeps the journal's first 64 KiB of a longer body, the same from one chunk as from many", async () => {
    const daemon = await memoryDaemon();
    const name = 'plain-post-long';
    expect((await addEndpoint(daemon.url, { name, data: { received: true } })).status).toBe(201);
    const limit = 64 * 1024;
    // 'é' is two bytes: the limit falls inside one (the journal keeps no broken character).
    const text = `${'a'.repeat(limit - 1)}${'é'.repeat(4000)}`;
    const latin1 = Buffer.from(text).toString('latin1');
    const parts = Array.from({ length: Math.ceil(latin1.length / 7000) }, (_, i) =>
      latin1.slice(i * 7000, (i + 1) * 7000),
    );
    await rawResponses(daemon.url, postOf(name, [latin1], false), 1);
    await rawResponses(daemon.url, postOf(name, parts, true), 1);
    const journal = await unframed(daemon.url, name);
    expect(journal).toHaveLength(2);
    expect(journal[0]).toMatchObject({ body: 'a'.repeat(limit - 1), bodyTruncated: true });
    expect(journal[1]).toEqual(journal[0]);
  });
});
