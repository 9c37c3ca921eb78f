/**
 * On Node (the daemon's listener), a client that hangs up releases its long-poll
 * at once. The runtime contract checks the same on Bun, Deno
 * and workerd; the daemon has no route to count waiters, so Node's is checked here.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp, type MockpointApp } from '../../index.js';
import { createNodeListener } from './index.js';

const servers: Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function start(app: MockpointApp): Promise<string> {
  const server = createServer(createNodeListener(app, { overrideGlobalObjects: false }));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Resolves once `condition` holds (bounded: 10 s at most). */
async function until(condition: () => boolean): Promise<void> {
  await vi.waitFor(() => expect(condition()).toBe(true), { timeout: 10_000 });
}

describe('a client that hangs up (Node listener, real sockets)', () => {
  it('releases its long-poll', async () => {
    const app = createApp();
    const url = await start(app);
    const req = request(`${url}/api/endpoints/gone/requests?wait=50000`);
    req.on('error', () => undefined);
    req.end();
    await until(() => app.mockpoint.journal.waitersFor('gone') === 1);
    req.destroy();
    await until(() => app.mockpoint.journal.waitersFor('gone') === 0);
  });
});
