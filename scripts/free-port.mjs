// A free TCP port on 127.0.0.1, for the scripts that start a daemon of their own (the SDK runs,
// the parity ledger): the port the system gave a listener that closed at once.
import { createServer } from 'node:net';

/** @returns {Promise<number>} */
export function freePort() {
  return new Promise((done, failed) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
    server.on('error', failed);
  });
}
