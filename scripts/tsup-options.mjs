/** The tsup options every package's Node build shares (packages/{core,server,vitest-plugin}/tsup.config.ts). */
export const NODE_BUILD = {
  format: ['esm'],
  // JavaScript only: the declarations (dist/types/) are built for packing, by scripts/build-types.mjs.
  dts: false,
  clean: true,
  // No source maps: the tarballs leave them out (files: !dist/**/*.map, 4.8 MB of an install), and
  // the `//# sourceMappingURL=` comment tsup writes into the code then named an absent file: Vite
  // printed "Failed to load source map … intercept-setup.js.map" with a stack trace on every Vitest
  // run using the plugin (issue 71). Nothing in the clone reads them (the tests load src/, the
  // daemon runs without --enable-source-maps).
  sourcemap: false,
  target: 'node20',
  // Non-ASCII characters in string literals as \u escapes: a chunk's source then stays a one-byte
  // string in V8 (Node keeps every module's source), where one `…` made all of it two bytes a character.
  esbuildOptions(options) {
    options.charset = 'ascii';
  },
};
