// wss:// on the daemon's --https port with an unmodified `ws` client that trusts the local CA:
// the route's script plays as on ws://, and a message the client sends is journaled exactly;
// through the daemon as an HTTPS proxy (CONNECT, https-proxy-agent) to a mapped host too, and
// an SSE stream through the proxy over TLS with curl.
import { readFile } from 'node:fs/promises';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { expect, it } from 'vitest';
import WebSocket from 'ws';
import { curl } from './helpers/curl.js';
import { ON_BUN, startDaemon, useDaemons } from './helpers/daemon.js';

useDaemons();

it('a WebSocket script plays over wss:// on the --https port, the client trusting the local CA', async () => {
  const daemon = await startDaemon({ args: ['--memory', '--https', '--https-port', '0'] });
  const https = daemon.notes.find((note) => note.startsWith('https on '))?.match(/https:\/\/\S+/)?.[0];
  const caPath = daemon.notes.find((note) => note.startsWith('local CA '))?.match(/NODE_EXTRA_CA_CERTS=(\S+)/)?.[1];
  expect(https, daemon.startLine).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  const saved = await fetch(`${daemon.url}/api/endpoints/chat/routes`, {
    method: 'PUT',
    body: JSON.stringify({
      routes: [
        {
          answer: {
            websocket: {
              onOpen: [{ text: 'héllo over TLS' }],
              on: [{ match: { body: 'bye' }, close: { code: 4001, reason: 'done' } }],
            },
          },
        },
      ],
    }),
  });
  expect(saved.status).toBe(200);

  const ca = await readFile(caPath as string);
  const socket = new WebSocket(`${(https as string).replace('https', 'wss')}/endpoint/chat/room`, { ca });
  const seen: string[] = [];
  const closed = new Promise<string>((resolve, reject) => {
    socket.on('close', (code, reason) => resolve(`close ${code} ${reason.toString()}`));
    socket.on('error', reject);
  });
  socket.on('message', (data) => {
    seen.push(`message ${data.toString()}`);
    socket.send('bye');
  });
  seen.push(await closed);
  expect(seen).toEqual(['message héllo over TLS', 'close 4001 done']);

  const journal = (await (await fetch(`${daemon.url}/api/endpoints/chat/requests`)).json()) as {
    requests: { method: string; body: string; websocket?: { direction: string } }[];
  };
  expect(journal.requests.map((entry) => [entry.method, entry.websocket?.direction, entry.body])).toEqual([
    ['GET', undefined, ''],
    ['MESSAGE', 'out', 'héllo over TLS'],
    ['MESSAGE', 'in', 'bye'],
    ['CLOSE', 'out', 'done'],
  ]);
});

// Not on Bun (docs/runtimes.md#tests-not-run-on-bun): under Bun's node:tls emulation the server ignores SNI, so a
// CONNECT to a mapped host gets the daemon's own certificate, not the mapped host's.
it.skipIf(ON_BUN)(
  'wss:// and an SSE stream reach a mapped host through the CONNECT proxy over TLS (https-proxy-agent, curl --proxy)',
  async () => {
    const daemon = await startDaemon({
      args: ['--memory', '--https', '--https-port', '0', '--hosts', 'api.github.com=github'],
    });
    const caPath = daemon.notes.find((note) => note.startsWith('local CA '))?.match(/NODE_EXTRA_CA_CERTS=(\S+)/)?.[1];
    const saved = await fetch(`${daemon.url}/api/endpoints/github/routes`, {
      method: 'PUT',
      body: JSON.stringify({
        routes: [
          {
            match: { path: '/socket' },
            answer: {
              websocket: { onOpen: [{ json: { hello: 'through the proxy' } }], on: [{ send: [{ text: 'echo' }] }] },
            },
          },
          {
            match: { path: '/events' },
            answer: { stream: { format: 'sse', events: [{ data: 'one' }, { data: 'two', delay: 50 }] } },
          },
        ],
      }),
    });
    expect(saved.status).toBe(200);
    const ca = await readFile(caPath as string);

    // The `ws` client as an app would configure it behind HTTPS_PROXY: a CONNECT agent, the local CA trusted.
    const agent = new HttpsProxyAgent(daemon.url, { ca });
    const socket = new WebSocket('wss://api.github.com/socket', { agent, ca });
    const seen: string[] = [];
    await new Promise<void>((resolve, reject) => {
      socket.on('message', (data) => {
        seen.push(data.toString());
        if (seen.length === 1) socket.send('hi');
        else socket.close(1000);
      });
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    expect(seen).toEqual(['{"hello":"through the proxy"}', 'echo']);
    const journal = (await (await fetch(`${daemon.url}/api/endpoints/github/requests`)).json()) as {
      requests: {
        method: string;
        subpath: string;
        headers: Record<string, string>;
        websocket?: { direction: string };
      }[];
    };
    const upgrade = journal.requests.find((entry) => entry.method === 'GET');
    expect(upgrade).toMatchObject({ subpath: '/socket', headers: { host: 'api.github.com' } });
    expect(
      journal.requests.filter((entry) => entry.method === 'MESSAGE').map((entry) => entry.websocket?.direction),
    ).toEqual(['out', 'in', 'out']);

    // An SSE stream through the same proxy, over TLS (HTTP/2 and HTTP/1.1).
    for (const version of ['--http2', '--http1.1']) {
      const streamed = await curl([
        version,
        '-N',
        '--proxy',
        daemon.url,
        '--cacert',
        caPath as string,
        'https://api.github.com/events',
      ]);
      expect(streamed.status).toBe(200);
      expect(streamed.body).toBe('data: one\n\ndata: two\n\n');
    }
  },
);
