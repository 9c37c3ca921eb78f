import { defineConfig, type Options } from 'tsup';

/** `mcp/sdk.js` stays a file of its own (`dist/mcp-sdk.js`, built below), not bundled into the chunks. */
const sdkApart: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'mcp-sdk-apart',
  setup(build) {
    build.onResolve({ filter: /\/mcp\/sdk\.js$|^\.\/sdk\.js$/ }, () => ({ path: './mcp-sdk.js', external: true }));
  },
};

export default defineConfig([
  {
    entry: { index: 'src/index.ts', cli: 'src/cli.ts' },
    format: ['esm'],
    dts: { entry: { index: 'src/index.ts' }, compilerOptions: { composite: false, customConditions: [] } },
    clean: true,
    sourcemap: true,
    target: 'node20',
    esbuildPlugins: [sdkApart],
  },
  {
    // The MCP SDK's server side, vendored (src/mcp/sdk.ts): minified, no source map, loaded lazily.
    entry: { 'mcp-sdk': 'src/mcp/sdk.ts' },
    format: ['esm'],
    clean: false,
    sourcemap: false,
    minify: true,
    target: 'node20',
    noExternal: [/.*/],
    platform: 'node',
  },
]);
