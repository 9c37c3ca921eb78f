/**
 * A port for a peer tool that cannot listen on port 0 and say which port it got (nginx,
 * the Mockoon CLI): one that was free on 127.0.0.1 a moment ago. Another process may take it
 * first; the starters that use it retry or fail with the tool's own message.
 *
 * @module
 */
import { createServer } from 'node:net';

/** A port that was free on 127.0.0.1 when asked. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
