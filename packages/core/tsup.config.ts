import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    client: 'src/client-entry.ts',
    level: 'src/stores/level/index.ts',
    node: 'src/node/index.ts',
    defaults: 'src/defaults.ts',
    bun: 'src/bun/index.ts',
    deno: 'src/deno/index.ts',
    workers: 'src/workers/index.ts',
    redis: 'src/stores/redis/index.ts',
  },
  format: ['esm'],
  dts: { compilerOptions: { composite: false, customConditions: [] } },
  clean: true,
  sourcemap: true,
  target: 'node20',
});
