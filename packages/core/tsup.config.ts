import { defineConfig } from 'tsup';

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
});
