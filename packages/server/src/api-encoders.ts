/**
 * The content codings the daemon offers for `/api` JSON answers, from
 * `node:zlib` (off the main thread): brotli at quality 5 and gzip (level 6) for
 * clients without brotli: brotli 5 costs about what gzip does and compresses
 * better, higher qualities cost far more time (the measurement is in
 * docs/performance.md).
 *
 * @module
 */
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { ApiEncoders } from '@mockpoint/core';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Brotli quality 0–11: 5 costs about what gzip does and compresses better; 11 is far slower (docs/performance.md). */
const BROTLI_QUALITY = 5;

/** brotli and gzip through node:zlib. */
export const nodeApiEncoders: ApiEncoders = {
  br: async (bytes) =>
    new Uint8Array(
      await brotli(bytes, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
        },
      }),
    ),
  gzip: async (bytes) => new Uint8Array(await gzipAsync(bytes)),
};
