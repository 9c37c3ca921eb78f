/** The tsup options every package's Node build shares (packages/{core,server,vitest-plugin}/tsup.config.ts). */
export const NODE_BUILD = {
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
};
