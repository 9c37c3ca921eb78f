/**
 * Random bytes drawn 4 KiB at a time from the runtime's CSPRNG, as Node's `randomUUID` buffers
 * its own: each `getRandomValues` call costs about 6 µs on Node 20 whatever its size, and a batch
 * of sessions makes two draws a namespace, a twin's answer one or more (its request id, a new
 * object's id) (docs/performance.md).
 *
 * @module
 */

const POOL = new Uint8Array(4096);
let drawn = POOL.length;

/** `count` fresh random bytes (a copy: the pool is never handed out). */
export function randomBytes(count: number): Uint8Array {
  if (count > POOL.length) return crypto.getRandomValues(new Uint8Array(count));
  if (drawn + count > POOL.length) {
    crypto.getRandomValues(POOL);
    drawn = 0;
  }
  const bytes = POOL.slice(drawn, drawn + count);
  // Bytes handed out are wiped, so the page holds no token already given (it holds those still to come).
  POOL.fill(0, drawn, drawn + count);
  drawn += count;
  return bytes;
}
