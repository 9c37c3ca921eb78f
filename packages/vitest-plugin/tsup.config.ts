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
    'session-setup': 'src/session-setup.ts',
  },
  format: ['esm'],
  // JavaScript only: the declarations (dist/types/) are built for packing, by scripts/build-types.mjs.
  dts: false,
  clean: true,
  sourcemap: true,
  target: 'node20',
});
