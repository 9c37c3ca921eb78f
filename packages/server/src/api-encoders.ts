/**
 * The content codings the daemon offers for `/api` JSON answers, from
 * `node:zlib`: brotli at quality 5 and gzip (level 6) for clients without
 * brotli: brotli 5 costs about what gzip does and compresses better, higher
 * qualities cost far more time (the measurement is in docs/performance.md).
 *
 * An answer under {@link SYNC_BELOW} bytes is compressed in the same turn: the
 * thread pool's round trip costs more CPU than the compression of a small
 * answer (a session batch's 1.5 kB: 183 µs against 20 µs for gzip). A larger
 * one is compressed off the main thread, so a big journal does not hold up the
 * event loop.
 *
 * @module
 */
import { promisify } from 'node:util';
import { type BrotliOptions, brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import type { ApiEncoders } from '@mockpoint/core';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Brotli quality 0–11: 5 costs about what gzip does and compresses better; 11 is far slower (docs/performance.md). */
const BROTLI_QUALITY = 5;

/**
 * Answers smaller than this are compressed on the main thread: 64 KiB takes about 0.3 ms of
 * gzip or 0.4 ms of brotli 5 there on a quiet machine (up to about 1.2 ms under load, of data that
 * compresses badly), and less CPU in all than the thread pool's way (docs/performance.md).
 */
export const SYNC_BELOW = 64 * 1024;

function brotliOptions(bytes: Uint8Array): BrotliOptions {
  return {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
    },
  };
}

/** brotli and gzip through node:zlib. */
export const nodeApiEncoders: ApiEncoders = {
  br: async (bytes) =>
    new Uint8Array(
      bytes.byteLength < SYNC_BELOW
        ? brotliCompressSync(bytes, brotliOptions(bytes))
        : await brotli(bytes, brotliOptions(bytes)),
    ),
  gzip: async (bytes) => new Uint8Array(bytes.byteLength < SYNC_BELOW ? gzipSync(bytes) : await gzipAsync(bytes)),
};
