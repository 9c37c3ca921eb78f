// serve(): closing with a grace period over real sockets.
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../index.js';
import { serve } from './index.js';

describe('serve().close({ graceMs })', () => {
  it('a connection that was opened but never sent a request does not hold the close', async () => {
    const served = await serve(createApp(), { overrideGlobalObjects: false });
    const accepted = new Promise<void>((resolve) => served.server.once('connection', () => resolve()));
    const socket = connect(served.port, '127.0.0.1');
    const socketClosed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => undefined);
    try {
      await accepted;
      const started = Date.now();
      // A 20 s grace period: only closing the unused connection lets close() finish well before it.
      await served.close({ graceMs: 20_000 });
      expect(Date.now() - started).toBeLessThan(15_000);
      await socketClosed;
      expect(socket.bytesRead).toBe(0);
    } finally {
      socket.destroy();
      await served.close();
    }
  });
});
