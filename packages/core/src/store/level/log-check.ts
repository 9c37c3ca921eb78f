/**
 * Reads LevelDB's write-ahead logs (`*.log`) before the database is opened, to
 * count the records that opening will skip. LevelDB replays a damaged log
 * silently: it drops a record whose checksum fails and the rest of its 32 KiB
 * block. Here every record in such a dropped stretch that still has a valid
 * checksum is counted too, so the count is of writes, not of bytes.
 *
 * The format (LevelDB's doc/log_format.md): 32 KiB blocks of records, each a
 * 7-byte header (masked CRC-32C of type and payload, little-endian length, type)
 * then the payload; a logical record is one FULL record or FIRST…LAST pieces.
 *
 * @module
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

const BLOCK = 32 * 1024;
const HEADER = 7;
const FULL = 1;
const FIRST = 2;
const LAST = 4;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32C (Castagnoli) of `bytes[start, end)`. */
export function crc32c(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let crc = 0xffffffff;
  for (let i = start; i < end; i++) crc = (CRC_TABLE[(crc ^ (bytes[i] as number)) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** LevelDB stores CRCs masked, so that a CRC of data holding CRCs stays well spread. */
export function mask(crc: number): number {
  return (((crc >>> 15) | (crc << 17)) + 0xa282ead8) >>> 0;
}

/** True when a record with a valid checksum starts at `pos` and ends by `limit`. */
function validRecordAt(log: Uint8Array, view: DataView, pos: number, limit: number): boolean {
  if (pos + HEADER > limit) return false;
  const length = view.getUint16(pos + 4, true);
  const type = log[pos + 6] as number;
  if (type < FULL || type > LAST || pos + HEADER + length > limit) return false;
  return mask(crc32c(log, pos + 6, pos + HEADER + length)) === view.getUint32(pos, true);
}

/** What one log holds. */
export interface LogCheck {
  /** Logical records that replay. */
  readable: number;
  /** Damaged records plus intact ones in the stretches LevelDB drops with them. */
  unreadable: number;
}

/** Counts the readable and unreadable records of one log file's bytes. */
export function checkLog(log: Uint8Array): LogCheck {
  const view = new DataView(log.buffer, log.byteOffset, log.byteLength);
  let readable = 0;
  let unreadable = 0;
  for (let block = 0; block < log.length; block += BLOCK) {
    const limit = Math.min(block + BLOCK, log.length);
    let pos = block;
    while (pos + HEADER <= limit) {
      const length = view.getUint16(pos + 4, true);
      const type = log[pos + 6] as number;
      if (type === 0 && length === 0) break; // zero padding, or preallocated space
      if (validRecordAt(log, view, pos, limit)) {
        if (type === FULL || type === FIRST) readable++;
        pos += HEADER + length;
        continue;
      }
      // A torn or damaged record: LevelDB drops it and the rest of this block.
      // Any intact record starting in that stretch is lost with it.
      unreadable++;
      for (let at = pos + 1; at + HEADER <= limit; at++) {
        if (validRecordAt(log, view, at, limit)) {
          const t = log[at + 6] as number;
          if (t === FULL || t === FIRST) unreadable++;
          at += HEADER + view.getUint16(at + 4, true) - 1;
        }
      }
      break;
    }
  }
  return { readable, unreadable };
}

/** Counts over every `*.log` file in a LevelDB directory (none when it has none). */
export async function checkLogs(dir: string): Promise<LogCheck> {
  const total: LogCheck = { readable: 0, unreadable: 0 };
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return total;
  }
  for (const name of names.filter((n) => /^\d+\.log$/.test(n))) {
    const { readable, unreadable } = checkLog(await readFile(join(dir, name)));
    total.readable += readable;
    total.unreadable += unreadable;
  }
  return total;
}
