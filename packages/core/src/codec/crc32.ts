/**
 * CRC-32 (IEEE 802.3, the polynomial zlib and AWS's event stream use) and CRC-32C, in plain
 * JavaScript so that it runs on every runtime the core does (Workers have no
 * `node:zlib`).
 *
 * @module
 */

/** The byte table of the reflected CRC-32 of polynomial `poly`. */
function crcTable(poly: number): Uint32Array {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? poly ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
}

/** The CRC of `bytes[start, end)` with `table`. */
function crcOf(table: Uint32Array, bytes: Uint8Array, start: number, end: number): number {
  let crc = 0xffffffff;
  for (let i = start; i < end; i++) crc = (table[(crc ^ (bytes[i] as number)) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const IEEE = crcTable(0xedb88320);
const CASTAGNOLI = crcTable(0x82f63b78);

/**
 * CRC-32 of `bytes[start, end)`.
 * @example crc32(new TextEncoder().encode('123456789')) // 0xcbf43926
 */
export function crc32(bytes: Uint8Array, start = 0, end = bytes.length): number {
  return crcOf(IEEE, bytes, start, end);
}

/**
 * CRC-32C (Castagnoli, LevelDB's log and table blocks) of `bytes[start, end)`.
 * @example crc32c(new TextEncoder().encode('123456789')) // 0xe3069283
 */
export function crc32c(bytes: Uint8Array, start = 0, end = bytes.length): number {
  return crcOf(CASTAGNOLI, bytes, start, end);
}
