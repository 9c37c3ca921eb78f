// wss:// on the daemon's --https port with an unmodified `ws` client that trusts the local CA:
// the route's script plays as on ws://, and a message the client sends is journaled exactly.
import { readFile } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { assertBuilt, killAll, removeTempDirs, startDaemon } from './helpers/daemon.js';

beforeAll(() => assertBuilt());
afterEach(() => killAll());
afterAll(() => removeTempDirs());

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
