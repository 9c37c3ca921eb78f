// `@mockpoint/core/client` is the entry for browsers: bundled for one, it must bring
// no GraphQL parser (the `graphql` package) and nothing Node-only (`node:*`
// modules, `Buffer`, `process`). The size it prints is the minified bundle's.
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';

const ENTRY = fileURLToPath(new URL('./index.ts', import.meta.url));

let code: string;
let metafile: Metafile;

beforeAll(async () => {
  const result = await build({
    entryPoints: [ENTRY],
    platform: 'browser',
    format: 'esm',
    bundle: true,
    minify: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  code = result.outputFiles[0]?.text ?? '';
  metafile = result.metafile;
  console.log(`@mockpoint/core/client for browsers: ${code.length} bytes minified`);
});

describe('the browser client entry', () => {
  it('bundles no module of the graphql package', () => {
    const graphql = Object.keys(metafile.inputs).filter((input) =>
      /(^|\/)node_modules\/(\.pnpm\/)?graphql[@/]/.test(input),
    );
    expect(graphql).toEqual([]);
  });

  it('imports no node: module', () => {
    const imports = Object.values(metafile.inputs).flatMap((input) => input.imports.map((i) => i.path));
    const outputImports = Object.values(metafile.outputs).flatMap((output) => output.imports.map((i) => i.path));
    expect([...imports, ...outputImports].filter((path) => path.startsWith('node:'))).toEqual([]);
  });

  it('uses neither Buffer nor process', () => {
    // Minified, a global keeps its name: a use reads `Buffer.` / `process.` (a local would be renamed).
    const uses = [...code.matchAll(/.{0,40}\b(Buffer|process)\b.{0,40}/g)].map((match) => match[0]);
    expect(uses).toEqual([]);
  });
});
