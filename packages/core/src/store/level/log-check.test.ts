import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JsonText } from '../../codec/json-text.js';
import { LevelStore } from './index.js';
import { checkLog } from './log-check.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** A real LevelDB log holding `writes` puts made at once (group commit: a few batches). */
async function logOfConcurrentWrites(writes: number): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'mockpoint-log-check-'));
  dirs.push(dir);
  const store = await LevelStore.open({ dir });
  await Promise.all(
    Array.from({ length: writes }, (_, i) =>
      store.put({ name: `w${i}`, data: JsonText.from({ i, pad: 'p'.repeat(100) }), statusCode: 200, delay: 0 }),
    ),
  );
  await store.clear(); // one batch of deletes, then the store's own sync mark
  await store.close();
  const log = (await readdir(dir)).find((name) => name.endsWith('.log')) as string;
  return readFile(join(dir, log));
}

/** The largest record, walking records from the start of the log: where it starts and its payload length. */
function largestRecord(log: Buffer): { at: number; length: number } {
  const view = new DataView(log.buffer, log.byteOffset, log.byteLength);
  let largest = { at: 0, length: 0 };
  for (let pos = 0; pos + 7 <= log.length; ) {
    const length = view.getUint16(pos + 4, true);
    if (length === 0) break;
    if (length > largest.length) largest = { at: pos, length };
    pos += 7 + length;
  }
  return largest;
}

describe('checkLog', () => {
  it('counts the endpoint writes inside each batch, not the batches', async () => {
    const log = await logOfConcurrentWrites(20);
    // 20 puts and 20 deletes; the sync mark's delete is not an endpoint write.
    expect(checkLog(log)).toEqual({ readable: 40, unreadable: 0 });
  });

  it('a damaged batch counts every write it held as skipped', async () => {
    const log = await logOfConcurrentWrites(20);
    // The puts were batched: damage one byte inside the largest batch's entries.
    const intact = checkLog(log);
    const view = new DataView(log.buffer, log.byteOffset, log.byteLength);
    const { length: largest, at: largestAt } = largestRecord(log);
    const batchSize = view.getUint32(largestAt + 7 + 8, true);
    expect(batchSize, 'group commit put several writes in one batch').toBeGreaterThan(1);
    log[largestAt + 7 + largest - 5] = (log[largestAt + 7 + largest - 5] as number) ^ 0xff;
    const damaged = checkLog(log);
    // LevelDB drops the rest of the block with it: the later batch of deletes too.
    expect(damaged.unreadable).toBeGreaterThanOrEqual(batchSize);
    expect(damaged.readable + damaged.unreadable).toBe(intact.readable);
  });

  it('a damaged batch whose entry count itself is damaged counts as one write, not the damaged number', async () => {
    const log = await logOfConcurrentWrites(20);
    const intact = checkLog(log);
    const view = new DataView(log.buffer, log.byteOffset, log.byteLength);
    const { length: largest, at: largestAt } = largestRecord(log);
    // The largest batch's count (after the 7-byte header and the 8-byte sequence
    // number) gains 128: still under the record's length, but no walk of its entries fits.
    const at = largestAt + 7 + 8;
    const count = view.getUint32(at, true);
    log[at] = (log[at] as number) ^ 0x80;
    expect(view.getUint32(at, true)).toBe(count ^ 0x80);
    expect(count + 128).toBeLessThan(largest);
    const damaged = checkLog(log);
    // Never more skipped than were ever written.
    expect(damaged.readable + damaged.unreadable).toBeLessThanOrEqual(intact.readable);
    expect(damaged.unreadable).toBeGreaterThan(0);
  });
});
