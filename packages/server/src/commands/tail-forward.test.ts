// `forward()` against a real local node:http app: each forward on a connection
// of its own, so a kept-alive connection the app dropped (the race that lost a
// webhook when the app restarted between two of them) is never used, and no
// webhook is sent twice; a refused connection is reported.

import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { LiveRequest } from '@mockpoint/core';
import { afterEach, describe, expect, it } from 'vitest';
import { ForwardError, forward } from './tail-forward.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

function liveRequest(id: number, body: string): LiveRequest {
  return {
    id,
    name: 'hook',
    receivedAt: new Date(0).toISOString(),
    method: 'POST',
    path: '/endpoint/hook/paid',
    query: '',
    headers: { 'content-type': 'text/plain' },
    rawHeaders: ['content-type', 'text/plain'],
    body,
    bodyEncoding: 'utf8',
    bodyTruncated: false,
    statusCode: 404,
  } as unknown as LiveRequest;
}

/**
 * An app that answers the first request on each connection and cuts the
 * connection, without an answer, when a second request arrives on it: what a
 * client sees when it reuses a kept-alive socket the app has just dropped.
 */
async function appThatDropsReusedSockets(): Promise<{
  base: URL;
  bodies: string[];
  arrivals: string[];
  connections: Set<Socket>;
}> {
  const bodies: string[] = [];
  const arrivals: string[] = [];
  const connections = new Set<Socket>();
  const served = new WeakSet<Socket>();
  const server = createServer((req, res) => {
    connections.add(req.socket);
    arrivals.push(req.url ?? '');
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (served.has(req.socket)) {
        req.socket.destroy();
        return;
      }
      served.add(req.socket);
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(201, { connection: 'keep-alive' }).end('ok');
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`),
    bodies,
    arrivals,
    connections,
  };
}

describe('forward', () => {
  it('sends each request on a connection of its own, once: a connection the app would drop is never reused', async () => {
    const app = await appThatDropsReusedSockets();
    const first = await forward(app.base, liveRequest(1, 'one'));
    expect(first).toMatchObject({ status: 201, url: `${app.base.href}/paid` });
    const second = await forward(app.base, liveRequest(2, 'two'));
    expect(second.status).toBe(201);
    expect(app.bodies).toEqual(['one', 'two']);
    expect(app.arrivals).toHaveLength(2);
    expect(app.connections.size).toBe(2);
  });

  it('reports a refused connection with FORWARD_FAILED and the URL', async () => {
    const app = await appThatDropsReusedSockets();
    const [server] = servers.splice(0) as [Server];
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const error = await forward(app.base, liveRequest(3, 'lost')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ForwardError);
    expect((error as ForwardError).code).toBe('FORWARD_FAILED');
    expect((error as ForwardError).message).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhooks\/paid: .*ECONNREFUSED/);
  });
});
