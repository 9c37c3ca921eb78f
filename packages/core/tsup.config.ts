import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    client: 'src/client-entry.ts',
    level: 'src/stores/level/index.ts',
    node: 'src/node/index.ts',
  },
  format: ['esm'],
  dts: { compilerOptions: { composite: false, customConditions: [] } },
  clean: true,
  sourcemap: true,
  target: 'node20',
});
