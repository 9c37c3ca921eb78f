import { defineConfig, type Options } from 'tsup';
import { NODE_BUILD } from '../../scripts/tsup-options.mjs';

/** `mcp/sdk.js` stays a file of its own (`dist/mcp-sdk.js`, built below), not bundled into the chunks. */
const sdkApart: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'mcp-sdk-apart',
  setup(build) {
    build.onResolve({ filter: /\/mcp\/sdk\.js$|^\.\/sdk\.js$/ }, () => ({ path: './mcp-sdk.js', external: true }));
  },
};

/**
 * The SDK's default JSON Schema validator (ajv, ajv-formats, fast-uri: 0.13 MB of the bundle) checks
 * elicitation answers only, which mockpoint's server never asks for; it gets a validator of its own
 * (mcp/mcp-server.ts), so the default is left out: a stub that says so if it were ever made.
 */
const noAjv: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'mcp-sdk-no-ajv',
  setup(build) {
    build.onResolve({ filter: /\/validation\/ajv-provider\.js$/ }, () => ({
      path: 'ajv-provider',
      namespace: 'no-ajv',
    }));
    build.onLoad({ filter: /.*/, namespace: 'no-ajv' }, () => ({
      contents:
        "export class AjvJsonSchemaValidator { constructor() { throw new Error('mockpoint bundles no ajv: pass jsonSchemaValidator'); } }",
      loader: 'js',
    }));
  },
};

export default defineConfig([
  {
    ...NODE_BUILD,
    entry: { index: 'src/index.ts', cli: 'src/cli.ts', 'proxy-env': 'src/proxy-env.ts' },
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
    esbuildPlugins: [noAjv],
  },
]);
