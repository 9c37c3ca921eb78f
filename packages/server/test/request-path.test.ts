// The request path of a real daemon over real sockets: HTTP hygiene that only
// shows on the wire (keep-alive after a long body, pipelining, encoded dot
// segments) and the journal's exact body bytes.
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { addEndpoint, ON_BUN, requestJson, sharedDaemon, startDaemon, useDaemons } from './helpers/daemon.js';

useDaemons();
/** The daemon of the tests that change nothing another test reads (each its own names). */
const memoryDaemon = sharedDaemon({ args: ['--memory'] });

interface WireResponse {
  status: number;
  head: string;
  body: string;
}

/** The complete responses at the start of `text` (each framed by its Content-Length). */
function parseResponses(text: string): WireResponse[] {
  const responses: WireResponse[] = [];
  let rest = text;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end === -1) return responses;
    const head = rest.slice(0, end);
    const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
    if (rest.length < end + 4 + length) return responses;
    responses.push({ status: Number(head.slice(9, 12)), head, body: rest.slice(end + 4, end + 4 + length) });
    rest = rest.slice(end + 4 + length);
  }
}

/**
 * Writes `bytes` on one connection and collects the responses until `count` have
 * arrived or the server closes the connection.
 */
function exchange(url: string, bytes: Buffer, count: number): Promise<WireResponse[]> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let text = '';
    const done = () => {
      socket.destroy();
      resolve(parseResponses(text));
    };
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (parseResponses(text).length >= count) done();
    });
    socket.on('end', done);
    socket.on('error', reject);
    socket.write(bytes);
  });
}

const statuses = (responses: WireResponse[]) => responses.map((r) => r.status);

describe('the request path on the wire', () => {
  it('a webhook body over 256 KiB keeps the connection usable for the next request', async () => {
    const daemon = await memoryDaemon();
    await addEndpoint(daemon.url, { name: 'big', data: { ok: true } });
    const body = Buffer.alloc(300 * 1024, 'a');
    const request = Buffer.concat([
      Buffer.from(`POST /endpoint/big HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n\r\n`),
      body,
      Buffer.from('GET /endpoint/big HTTP/1.1\r\nHost: x\r\n\r\n'),
    ]);
    expect(statuses(await exchange(daemon.url, request, 2))).toEqual([200, 200]);
    const journal = (await requestJson(`${daemon.url}/api/endpoints/big/requests`)).body as {
      requests: Array<{ method: string; bodyTruncated: boolean }>;
    };
    expect(journal.requests.map((r) => [r.method, r.bodyTruncated])).toEqual([
      ['POST', true],
      ['GET', false],
    ]);
  });

  it('a chunked /api body over MOCKPOINT_MAX_BODY_BYTES gets a 413 that says the connection closes (never keep-alive then EOF)', async () => {
    const daemon = await startDaemon({ args: ['--memory'], env: { MOCKPOINT_MAX_BODY_BYTES: '100000' } });
    const chunk = Buffer.alloc(40 * 1024, 'a');
    const chunks = Array.from({ length: 10 }, () =>
      Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]),
    );
    const request = Buffer.concat([
      Buffer.from(
        'PUT /api/endpoint/add HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
      ),
      ...chunks,
      Buffer.from('0\r\n\r\nGET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'),
    ]);
    const answers = await exchange(daemon.url, request, 2);
    expect(answers[0]?.status).toBe(413);
    expect(answers[0]?.body).toContain('BODY_TOO_LARGE');
    // Whatever else happens, the 413 must not promise a connection that is then dropped.
    if (answers.length === 1) expect(answers[0]?.head).toMatch(/^connection: close$/im);
    else expect(statuses(answers)).toEqual([413, 200]);
    expect(answers[0]?.head).not.toMatch(/^connection: keep-alive$/im);
  });

  // Not on Bun (docs/runtimes.md#tests-not-run-on-bun): Bun's own parser answers a head past its limit.
  it.skipIf(ON_BUN)(
    'a URL of 20,000 or 100,000 characters is 414 URI_TOO_LONG, never a reset (#86); long headers 431',
    async () => {
      const daemon = await memoryDaemon();
      const codeOf = async (path: string, headers: Record<string, string> = {}) => {
        try {
          const answer = await fetch(`${daemon.url}${path}`, { headers });
          return `${answer.status} ${((await answer.json()) as { error?: { code: string } }).error?.code}`;
        } catch (error) {
          return `failed: ${(error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message}`;
        }
      };
      for (const length of [20_000, 100_000]) {
        for (let i = 0; i < 3; i++) {
          expect(await codeOf(`/endpoint/long?q=${'a'.repeat(length)}`)).toBe('414 URI_TOO_LONG');
        }
      }
      expect(await codeOf('/api/health', { 'x-big': 'b'.repeat(100_000) })).toBe('431 HEADERS_TOO_LARGE');
      expect(await codeOf('/api/health')).toBe('200 undefined');
    },
  );

  it('pipelined add, replace and delete on one connection take effect in order', async () => {
    const daemon = await memoryDaemon();
    const json = (method: string, path: string, body: string) =>
      `${method} ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    const pipeline = [
      json('PUT', '/api/endpoint/add', '{"name":"piped","data":1}'),
      json('PUT', '/api/endpoints/piped', '{"data":2}'),
      'DELETE /api/endpoints/piped HTTP/1.1\r\nHost: localhost\r\n\r\n',
    ].join('');
    expect(statuses(await exchange(daemon.url, Buffer.from(pipeline), 3))).toEqual([201, 200, 204]);
    expect((await requestJson(`${daemon.url}/endpoint/piped`)).status).toBe(404);
  });

  // Not on Bun (docs/runtimes.md#tests-not-run-on-bun): Bun.serve resolves dot segments before a handler sees the URL.
  it
    .skipIf(ON_BUN)
    .each([
      '/endpoint/%2e%2e/api/endpoints',
      '/endpoint/%2E%2E/api/endpoints',
      '/endpoint/../api/endpoints',
      '/endpoint/.%2e/api/endpoints',
    ])('DELETE %s never reaches /api: nothing is deleted', async (target) => {
    const daemon = await memoryDaemon();
    await addEndpoint(daemon.url, { name: 'precious', data: 1 });
    const answers = await exchange(daemon.url, Buffer.from(`DELETE ${target} HTTP/1.1\r\nHost: x\r\n\r\n`), 1);
    expect(statuses(answers)).toEqual([404]);
    expect(answers[0]?.body).toContain('ROUTE_NOT_FOUND');
    expect(await requestJson(`${daemon.url}/endpoint/precious`)).toEqual({ status: 200, body: 1 });
  });

  // Not on Bun (docs/runtimes.md#tests-not-run-on-bun): the same.
  it.skipIf(ON_BUN).each(['/x/%2e%2e/api/endpoints', '/x/../api/endpoints', '/api/x/%2E%2e/endpoints'])(
    'DELETE %s with a local Host never reaches /api: 404 ROUTE_NOT_FOUND, nothing is deleted',
    async (target) => {
      const daemon = await memoryDaemon();
      await addEndpoint(daemon.url, { name: 'precious', data: 1 });
      const answers = await exchange(
        daemon.url,
        Buffer.from(`DELETE ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`),
        1,
      );
      expect(statuses(answers)).toEqual([404]);
      expect(answers[0]?.body).toContain('ROUTE_NOT_FOUND');
      expect(await requestJson(`${daemon.url}/endpoint/precious`)).toEqual({ status: 200, body: 1 });
    },
  );

  it('a query holding /./ or /../ is plain data: GET /api/health?x=/./&y=/../ is answered', async () => {
    const daemon = await memoryDaemon();
    const answers = await exchange(
      daemon.url,
      Buffer.from('GET /api/health?x=/./&y=/../ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'),
      1,
    );
    expect(statuses(answers)).toEqual([200]);
  });

  it('the journal keeps a body that is not UTF-8 byte for byte (base64, flagged) and UTF-8 text as text', async () => {
    const daemon = await memoryDaemon();
    await addEndpoint(daemon.url, { name: 'bin', data: 'ok' });
    const binary = Buffer.from([0x00, 0xff, 0xfe, 0x80, 0x41, 0xc3]);
    await fetch(`${daemon.url}/endpoint/bin`, { method: 'POST', body: binary });
    await fetch(`${daemon.url}/endpoint/bin`, { method: 'POST', body: 'héllo €' });
    const journal = (await requestJson(`${daemon.url}/api/endpoints/bin/requests`)).body as {
      requests: Array<{ body: string; bodyEncoding?: string }>;
    };
    const [first, second] = journal.requests;
    expect(first?.bodyEncoding).toBe('base64');
    expect(Buffer.from(first?.body ?? '', 'base64')).toEqual(binary);
    expect(second).toMatchObject({ body: 'héllo €' });
    expect(second && 'bodyEncoding' in second).toBe(false);
  });

  it('with 10,000 long-polls held on distinct names, a new name is recorded and its long-poll woken', async () => {
    const daemon = await startDaemon({ args: ['--memory'] });
    const { hostname, port } = new URL(daemon.url);
    const held: Socket[] = [];
    try {
      for (let batch = 0; batch < 10; batch++) {
        await Promise.all(
          Array.from({ length: 1000 }, (_, i) => {
            return new Promise<void>((resolve, reject) => {
              const socket = connect(Number(port), hostname, () => {
                socket.write(`GET /api/endpoints/held-${batch}-${i}/requests?wait=60000 HTTP/1.1\r\nHost: x\r\n\r\n`);
                resolve();
              });
              socket.on('error', reject);
              held.push(socket);
            });
          }),
        );
      }
      // Every hold has been sent; one more round trip lets the daemon take them all in.
      expect((await requestJson(`${daemon.url}/api/health`)).status).toBe(200);
      const fresh = requestJson(`${daemon.url}/api/endpoints/fresh/requests?wait=30000`);
      // Let the new long-poll reach the daemon before its request does (it counts either way).
      expect((await requestJson(`${daemon.url}/api/health`)).status).toBe(200);
      await fetch(`${daemon.url}/endpoint/fresh`, { method: 'POST', body: 'ping' });
      expect(await fresh).toMatchObject({ status: 200, body: { complete: true, requests: [{ body: 'ping' }] } });
      const again = await requestJson(`${daemon.url}/api/endpoints/fresh/requests`);
      expect(again.body).toMatchObject({ requests: [{ body: 'ping' }] });
    } finally {
      for (const socket of held) socket.destroy();
    }
  }, 120_000);
});
