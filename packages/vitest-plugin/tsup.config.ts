import { defineConfig } from 'tsup';

export default defineConfig({
  // One file per entry point: the plugin finds global-setup.js and setup.js next to itself.
  entry: {
    index: 'src/index.ts',
    server: 'src/server.ts',
    plugin: 'src/plugin.ts',
    'global-setup': 'src/global-setup.ts',
    setup: 'src/setup.ts',
    'intercept-setup': 'src/intercept-setup.ts',
  },
  format: ['esm'],
  dts: { compilerOptions: { composite: false, customConditions: [] } },
  clean: true,
  sourcemap: true,
  target: 'node20',
});
