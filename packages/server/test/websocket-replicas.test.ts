// WebSocket behind two real `mockpoint` daemons sharing one real redis-server: the route and the
// journal are shared (either replica accepts the upgrade and plays the script; messages a socket on
// A exchanges are read on B), and a socket lives in the daemon that accepted it: B lists none of
// A's connections, and sending to A's connection through B is SOCKET_NOT_FOUND (docs/websocket.md).
import { createClient } from '@mockpoint/core';
import { startTestRedis, type TestRedis } from '@mockpoint/testkit/redis-server';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { assertBuilt, killAll, removeTempDirs, startDaemon } from './helpers/daemon.js';

let redis: TestRedis;
const clients: WebSocket[] = [];

beforeAll(async () => {
  assertBuilt();
  redis = await startTestRedis();
});
afterEach(async () => {
  for (const socket of clients.splice(0)) socket.terminate();
  await killAll();
});
afterAll(async () => {
  await redis?.dispose();
  await removeTempDirs();
});

it('a socket lives in the replica that accepted it; routes and the journal are shared', async () => {
  const [a, b] = await Promise.all([0, 1].map(() => startDaemon({ env: { MOCKPOINT_REDIS_URL: redis.socket } })));
  if (a === undefined || b === undefined) throw new Error('two replicas');
  const onA = createClient({ baseUrl: a.url });
  const onB = createClient({ baseUrl: b.url });
  const name = `ws-replicas-${process.pid}`;
  // Saved on A, played by B.
  await onA.setRoutes(name, [
    { answer: { websocket: { onOpen: [{ text: 'hello' }], on: [{ send: [{ text: 'got it' }] }] } } },
  ]);
  const received: string[] = [];
  const socket = new WebSocket(`${b.url.replace('http', 'ws')}/endpoint/${name}`);
  clients.push(socket);
  socket.on('message', (data) => received.push(data.toString()));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  socket.send('from the client');
  // The journal is shared: A reads what B's socket exchanged.
  const messages = await onA.waitForRequests(name, { count: 3, match: { method: 'MESSAGE' }, timeout: 10_000 });
  expect(messages.map((m) => [m.websocket?.direction, m.body])).toEqual([
    ['out', 'hello'],
    ['in', 'from the client'],
    ['out', 'got it'],
  ]);
  // The socket is B's: A lists none, and cannot reach it.
  const [held] = await onB.sockets(name);
  expect(held).toBeDefined();
  expect(await onA.sockets(name)).toEqual([]);
  expect(await onA.sendSocket(name, { text: 'to all on A' })).toBe(0);
  await expect(onA.sendSocket(name, { text: 'x' }, { connection: held?.id })).rejects.toMatchObject({
    code: 'SOCKET_NOT_FOUND',
  });
  expect(await onB.sendSocket(name, { text: 'through B' }, { connection: held?.id })).toBe(1);
  await expect.poll(() => received).toEqual(['hello', 'got it', 'through B']);
});
