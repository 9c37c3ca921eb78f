/**
 * The content codings the daemon offers for `/api` JSON answers, from
 * `node:zlib` (off the main thread): brotli at a fast quality (a 145 kB journal
 * in about a millisecond, smaller than gzip's best) and gzip for clients
 * without brotli.
 *
 * @module
 */
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { ApiEncoders } from '@mockpoint/core';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Brotli quality 0–11: 5 is where time stays near gzip's and size well under it. */
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
