import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', cli: 'src/cli.ts' },
  format: ['esm'],
  dts: { entry: { index: 'src/index.ts' }, compilerOptions: { composite: false, customConditions: [] } },
  clean: true,
  sourcemap: true,
  target: 'node20',
});
