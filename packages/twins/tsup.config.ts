import { defineConfig } from 'tsup';
import { NODE_BUILD } from '../../scripts/tsup-options.mjs';

// One entry; each provider's code is a chunk of its own, imported on its first twin (src/index.ts).
export default defineConfig({
  ...NODE_BUILD,
  entry: { index: 'src/index.ts' },
  splitting: true,
});
