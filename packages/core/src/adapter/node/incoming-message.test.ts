import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { MockpointIncomingMessage } from './incoming-message.js';

const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve)))));

/** A server answering each request with its `req.headers` as JSON. */
async function headersServer(options: { IncomingMessage?: typeof IncomingMessage }): Promise<number> {
  const server = createServer(options, (req, res) => res.end(JSON.stringify(req.headers)));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** Sends `head` as written (so header spelling and order are exactly the test's) and reads the JSON back. */
function rawHeaders(port: number, lines: string[]): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`GET / HTTP/1.1\r\nHost: x\r\n${lines.map((l) => `${l}\r\n`).join('')}Connection: close\r\n\r\n`);
    });
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))));
  });
}

describe('MockpointIncomingMessage', () => {
  it("builds req.headers exactly as Node's own class, for every spelling and repetition of the session header", async () => {
    const [stock, ours] = await Promise.all([
      headersServer({}),
      headersServer({ IncomingMessage: MockpointIncomingMessage }),
    ]);
    const cases = [
      ['mockpoint-session: a'],
      ['mockpoint-session: a', 'mockpoint-session: b'],
      ['Mockpoint-Session: A', 'mockpoint-session: b'],
      ['mockpoint-session: a', 'MOCKPOINT-SESSION: b', 'x-other: 1'],
      ['baggage: mockpoint-session=a', 'mockpoint-session:  spaced  '],
      ['x-one: 1', 'set-cookie: a=1', 'set-cookie: b=2', 'mockpoint-session: z', 'content-type: text/plain'],
      ['mockpoint-sessio: near', 'mockpoint-sessionx: near'],
    ];
    for (const lines of cases) {
      const [a, b] = await Promise.all([rawHeaders(stock, lines), rawHeaders(ours, lines)]);
      expect(b, lines.join(' | ')).toEqual(a);
    }
    expect(await rawHeaders(ours, ['mockpoint-session: a', 'mockpoint-session: b'])).toMatchObject({
      'mockpoint-session': 'a, b',
    });
  });
});
