import { readdir, readFile, writeFile } from 'node:fs/promises';
import { defineConfig } from 'tsup';

/**
 * Escapes what non-ASCII text is left in `dist/*.js` after `charset: 'ascii'` (which escapes
 * it in code): the comments esbuild keeps (a class member's JSDoc). Text in a comment, so the
 * escape changes nothing but the bytes; each chunk's source is then a one-byte string in V8.
 */
async function asciiComments(): Promise<void> {
  for (const file of await readdir('dist')) {
    if (!file.endsWith('.js')) continue;
    const path = `dist/${file}`;
    const text = await readFile(path, 'utf8');
    const ascii = text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    if (ascii !== text) await writeFile(path, ascii);
  }
}

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    client: 'src/client/index.ts',
    level: 'src/store/level/index.ts',
    node: 'src/adapter/node/index.ts',
    tls: 'src/adapter/node/tls/index.ts',
    defaults: 'src/wire/defaults.ts',
    bun: 'src/adapter/bun/index.ts',
    deno: 'src/adapter/deno/index.ts',
    workers: 'src/adapter/workers/index.ts',
    redis: 'src/store/redis/index.ts',
    internal: 'src/internal.ts',
    files: 'src/files/index.ts',
    threads: 'src/adapter/threads/index.ts',
    session: 'src/session/index.ts',
    // The GraphQL worker thread's module (adapter/threads/graphql-worker.ts starts it from here).
    'graphql-worker': 'src/adapter/threads/graphql-worker-main.ts',
  },
  format: ['esm'],
  // JavaScript only: the declarations (dist/types/) are built for packing, by scripts/build-types.mjs.
  dts: false,
  clean: true,
  sourcemap: true,
  target: 'node20',
  // Non-ASCII characters in string literals as \u escapes: a chunk's source then stays a one-byte
  // string in V8 (Node keeps every module's source), where one `…` made all of it two bytes a character.
  esbuildOptions(options) {
    options.charset = 'ascii';
  },
  onSuccess: asciiComments,
});
