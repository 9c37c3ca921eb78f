/**
 * Reads LevelDB's table files (`*.ldb`, `*.sst`) before the database is opened,
 * to find damaged ones at start-up rather than when a read first hits them.
 * LevelDB opens a table only when a read needs it and, by default, does not
 * verify its checksums, so a damaged table otherwise goes unnoticed until then
 * (and then fails every read and write near its keys).
 *
 * The format (LevelDB's doc/table_format.md): blocks, each followed by a 5-byte
 * trailer (compression type, masked CRC-32C of the block and that type), then a
 * 48-byte footer: the metaindex and index block handles (varints) and a magic
 * number. The index block lists every data block's handle. Every block's
 * checksum is verified, so the check reads each table once.
 *
 * @module
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32c } from '../../codec/crc32.js';
import { mask } from './log-check.js';

const FOOTER = 48;
const TRAILER = 5;
/** 0xdb4775248b80fb57, as its two little-endian halves. */
const MAGIC_LOW = 0x8b80fb57;
const MAGIC_HIGH = 0xdb477524;

/** A table file that cannot be read as it is. */
export interface DamagedTable {
  file: string;
  /** What is wrong, e.g. `bad magic number`. */
  problem: string;
}

class Damage extends Error {}

interface Handle {
  offset: number;
  size: number;
}

/** A little-endian base-128 varint at `at`; returns the value and the position after it. */
function varint(bytes: Uint8Array, at: number): [number, number] {
  let value = 0;
  let factor = 1;
  for (let pos = at; pos < bytes.length && pos < at + 10; pos++) {
    const byte = bytes[pos] as number;
    value += (byte & 0x7f) * factor;
    if (byte < 0x80) return [value, pos + 1];
    factor *= 128;
  }
  throw new Damage('bad varint');
}

function handleAt(bytes: Uint8Array, at: number): [Handle, number] {
  const [offset, next] = varint(bytes, at);
  const [size, end] = varint(bytes, next);
  return [{ offset, size }, end];
}

/** Snappy's raw format (the only compression LevelDB writes). */
export function snappyDecompress(input: Uint8Array): Uint8Array {
  const [length, start] = varint(input, 0);
  const out = new Uint8Array(length);
  let pos = start;
  let written = 0;
  while (pos < input.length) {
    const tag = input[pos++] as number;
    let len: number;
    let offset = 0;
    switch (tag & 3) {
      case 0: {
        len = (tag >>> 2) + 1;
        if (len > 60) {
          const extra = len - 60;
          len = 0;
          for (let i = 0; i < extra; i++) len += (input[pos + i] as number) * 2 ** (8 * i);
          len += 1;
          pos += extra;
        }
        if (pos + len > input.length || written + len > length) throw new Damage('bad compressed block');
        out.set(input.subarray(pos, pos + len), written);
        pos += len;
        written += len;
        continue;
      }
      case 1:
        len = ((tag >>> 2) & 7) + 4;
        offset = ((tag >>> 5) << 8) | (input[pos++] as number);
        break;
      case 2:
        len = (tag >>> 2) + 1;
        offset = (input[pos] as number) | ((input[pos + 1] as number) << 8);
        pos += 2;
        break;
      default:
        len = (tag >>> 2) + 1;
        offset =
          ((input[pos] as number) |
            ((input[pos + 1] as number) << 8) |
            ((input[pos + 2] as number) << 16) |
            ((input[pos + 3] as number) << 24)) >>>
          0;
        pos += 4;
    }
    if (offset === 0 || offset > written || written + len > length) throw new Damage('bad compressed block');
    for (let i = 0; i < len; i++, written++) out[written] = out[written - offset] as number;
  }
  if (written !== length) throw new Damage('bad compressed block');
  return out;
}

/** Verifies a block's checksum; returns its compression type. */
function verifyBlock(table: Uint8Array, handle: Handle, what: string): number {
  const end = handle.offset + handle.size;
  if (end + TRAILER > table.length) throw new Damage(`${what} block out of bounds`);
  const view = new DataView(table.buffer, table.byteOffset, table.byteLength);
  if (mask(crc32c(table, handle.offset, end + 1)) !== view.getUint32(end + 1, true)) {
    throw new Damage(`${what} block checksum mismatch at offset ${handle.offset}`);
  }
  const type = table[end] as number;
  if (type > 1) throw new Damage(`${what} block has unknown compression ${type}`);
  return type;
}

/** A block's contents (uncompressed), after its checksum has been verified. */
function readBlock(table: Uint8Array, handle: Handle, what: string): Uint8Array {
  const contents = table.subarray(handle.offset, handle.offset + handle.size);
  return verifyBlock(table, handle, what) === 0 ? contents : snappyDecompress(contents);
}

/** The block handles an index block lists. */
function indexHandles(block: Uint8Array): Handle[] {
  if (block.length < 4) throw new Damage('index block too short');
  const view = new DataView(block.buffer, block.byteOffset, block.byteLength);
  const restarts = view.getUint32(block.length - 4, true);
  const limit = block.length - 4 * (restarts + 1);
  if (limit < 0) throw new Damage('bad index block');
  const handles: Handle[] = [];
  let pos = 0;
  while (pos < limit) {
    const [, afterShared] = varint(block, pos);
    const [unshared, afterUnshared] = varint(block, afterShared);
    const [valueLength, afterLength] = varint(block, afterUnshared);
    const value = afterLength + unshared;
    if (value + valueLength > limit) throw new Damage('bad index block entry');
    handles.push(handleAt(block, value)[0]);
    pos = value + valueLength;
  }
  return handles;
}

/** What is wrong with one table file's bytes, or `undefined` when every block checks out. */
export function checkTable(table: Uint8Array): string | undefined {
  try {
    if (table.length < FOOTER) throw new Damage('file too short for a table');
    const view = new DataView(table.buffer, table.byteOffset, table.byteLength);
    const footer = table.length - FOOTER;
    if (view.getUint32(table.length - 8, true) !== MAGIC_LOW || view.getUint32(table.length - 4, true) !== MAGIC_HIGH) {
      throw new Damage('bad magic number in the footer');
    }
    const [metaindex, next] = handleAt(table, footer);
    const [index] = handleAt(table, next);
    verifyBlock(table, metaindex, 'metaindex');
    for (const handle of indexHandles(readBlock(table, index, 'index'))) verifyBlock(table, handle, 'data');
    return undefined;
  } catch (error) {
    if (error instanceof Damage) return error.message;
    throw error;
  }
}

/** Every damaged table file in a LevelDB directory (none when it has none). */
export async function checkTables(dir: string): Promise<DamagedTable[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const damaged: DamagedTable[] = [];
  for (const file of names.filter((n) => /^\d+\.(ldb|sst)$/.test(n)).sort()) {
    let bytes: Uint8Array;
    try {
      bytes = await readFile(join(dir, file));
    } catch {
      continue; // removed meanwhile
    }
    const problem = checkTable(bytes);
    if (problem !== undefined) damaged.push({ file, problem });
  }
  return damaged;
}
