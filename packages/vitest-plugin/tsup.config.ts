import { defineConfig } from 'tsup';
import { NODE_BUILD } from '../../scripts/tsup-options.mjs';

export default defineConfig({
  ...NODE_BUILD,
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
});
