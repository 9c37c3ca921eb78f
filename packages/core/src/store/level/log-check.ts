/**
 * Reads LevelDB's write-ahead logs (`*.log`) before the database is opened, to
 * count the records that opening will skip. LevelDB replays a damaged log
 * silently: it drops a record whose checksum fails and the rest of its 32 KiB
 * block. Here every record in such a dropped stretch that still has a valid
 * checksum is counted too. Each logical record is one WriteBatch — with group
 * commit, many endpoint writes — so the counts are of the writes inside them.
 *
 * The format (LevelDB's doc/log_format.md): 32 KiB blocks of records, each a
 * 7-byte header (masked CRC-32C of type and payload, little-endian length, type)
 * then the payload; a logical record is one FULL record or FIRST…LAST pieces.
 * Its payload is a WriteBatch (db/write_batch.cc): an 8-byte sequence number, a
 * 4-byte little-endian entry count, then the entries (a tag byte, 1 put / 0
 * delete, then a varint-length key and, for a put, a varint-length value).
 *
 * @module
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32c } from '../../codec/crc32.js';

const BLOCK = 32 * 1024;
const HEADER = 7;
const FULL = 1;
const FIRST = 2;
const LAST = 4;
/** A WriteBatch's header: 8-byte sequence number, 4-byte entry count. */
const BATCH_HEADER = 12;
/** Keys starting with this byte are the store's own marks, not endpoint writes. */
const INTERNAL_KEY = 0;

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

/** Reads a varint32 at `pos`; `undefined` when it runs past `end`. */
function varint(log: Uint8Array, pos: number, end: number): { value: number; next: number } | undefined {
  let value = 0;
  for (let shift = 0, at = pos; at < end && shift <= 28; shift += 7, at++) {
    const byte = log[at] as number;
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) return { value, next: at + 1 };
  }
  return undefined;
}

/**
 * Walks the entries of a WriteBatch whose payload is `log[start, end)`: how many
 * of the first `count` entries it holds are the store's own marks, and whether
 * exactly `count` entries end exactly at `end` (a FULL record that makes sense).
 */
function walkEntries(log: Uint8Array, start: number, end: number, count: number): { marks: number; exact: boolean } {
  let marks = 0;
  let at = start + BATCH_HEADER;
  let i = 0;
  for (; i < count && at < end; i++) {
    const tag = log[at] as number;
    if (tag !== 0 && tag !== 1) break;
    const key = varint(log, at + 1, end);
    if (key === undefined || key.next + key.value > end) break;
    if (key.value > 0 && log[key.next] === INTERNAL_KEY) marks++;
    at = key.next + key.value;
    if (tag === 1) {
      const value = varint(log, at, end);
      if (value === undefined || value.next + value.value > end) break;
      at = value.next + value.value;
    }
  }
  return { marks, exact: i === count && at === end };
}

/**
 * The endpoint writes in the WriteBatch whose first piece is at `pos`: the batch's
 * entry count less the store's own marks among the entries this piece holds
 * (a FIRST piece may hold only some of them). 1 when the piece is too short to
 * hold the batch header (the batch was at least one write).
 */
function writesIn(log: Uint8Array, view: DataView, pos: number): number {
  const start = pos + HEADER;
  const end = start + view.getUint16(pos + 4, true);
  if (end - start < BATCH_HEADER) return 1;
  const count = view.getUint32(start + 8, true);
  return Math.max(0, count - walkEntries(log, start, end, count).marks);
}

/** What one log holds, counted in endpoint writes (entries of its WriteBatches). */
export interface LogCheck {
  /** Writes in the records that replay. */
  readable: number;
  /**
   * Writes in damaged records plus in intact ones in the stretches LevelDB drops
   * with them (a damaged record's header may be damaged too: then it counts as 1).
   */
  unreadable: number;
}

/**
 * The endpoint writes a damaged record held, when its header and batch header
 * still make sense (the damage is in the keys' or values' bytes): a FULL record
 * whose entries, walked by their lengths, end exactly at its end. Anything else
 * (the damage may be in the count or a length itself, or only the first piece of
 * a batch is here) counts as 1: a checksum that fails means no byte of it is
 * to be trusted further than that.
 */
function damagedWrites(log: Uint8Array, view: DataView, pos: number, limit: number): number {
  const type = log[pos + 6] as number;
  const length = view.getUint16(pos + 4, true);
  if (type !== FULL || length < BATCH_HEADER || pos + HEADER + length > limit) return 1;
  const start = pos + HEADER;
  const count = view.getUint32(start + 8, true);
  if (count < 1 || count > length) return 1;
  const walked = walkEntries(log, start, start + length, count);
  return walked.exact ? Math.max(1, count - walked.marks) : 1;
}

/** Counts the readable and unreadable writes of one log file's bytes. */
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
        if (type === FULL || type === FIRST) readable += writesIn(log, view, pos);
        pos += HEADER + length;
        continue;
      }
      // A torn or damaged record: LevelDB drops it and the rest of this block.
      // Any intact record starting in that stretch is lost with it.
      unreadable += damagedWrites(log, view, pos, limit);
      for (let at = pos + 1; at + HEADER <= limit; at++) {
        if (validRecordAt(log, view, at, limit)) {
          const t = log[at + 6] as number;
          if (t === FULL || t === FIRST) unreadable += writesIn(log, view, at);
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
