import { readdir, readFile, writeFile } from 'node:fs/promises';
import { defineConfig, type Options } from 'tsup';
import { NODE_BUILD } from '../../scripts/tsup-options.mjs';

/** A bundled package (see `noExternal`): its files are in the clone's node_modules. */
const BUNDLED_DEPENDENCY = /\/node_modules\/(?:zod|hono|@cfworker\/json-schema|graphql\/(?:language|error|jsutils))\//;

/**
 * zod's `z` namespace re-exports every locale (`z.locales`, 64 modules, 0.37 MB of the bundle's
 * source). mockpoint reads only English, which zod's schemas import themselves
 * (`classic/schemas.js`), and never hands `z` to a user: the locale index is built empty. Each
 * locale's source otherwise stays in memory in every process that loads core's chunks.
 */
const noZodLocales: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'no-zod-locales',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/].*zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({
      contents: 'export {};',
      loader: 'js',
    }));
  },
};

/**
 * After the build: escapes what non-ASCII text is left in `dist/*.js` after `charset: 'ascii'`
 * (NODE_BUILD, scripts/tsup-options.mjs)
 * (which escapes it in code), the comments esbuild keeps (a class member's JSDoc). Text in a
 * comment, so the escape changes nothing but the bytes; each chunk's source is then a one-byte
 * string in V8. And drops from the source maps (the clone's; not published) the text of bundled
 * packages (zod): their paths still map.
 */
async function afterBuild(): Promise<void> {
  for (const file of await readdir('dist')) {
    const path = `dist/${file}`;
    if (file.endsWith('.js')) {
      const text = await readFile(path, 'utf8');
      const ascii = text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
      if (ascii !== text) await writeFile(path, ascii);
    } else if (file.endsWith('.js.map')) {
      const map = JSON.parse(await readFile(path, 'utf8')) as { sources: string[]; sourcesContent?: (string | null)[] };
      const { sourcesContent } = map;
      if (sourcesContent === undefined || !map.sources.some((s) => BUNDLED_DEPENDENCY.test(s))) continue;
      map.sources.forEach((source, i) => {
        if (BUNDLED_DEPENDENCY.test(source)) sourcesContent[i] = null;
      });
      await writeFile(path, JSON.stringify(map));
    }
  }
}

export default defineConfig({
  ...NODE_BUILD,
  entry: {
    index: 'src/index.ts',
    client: 'src/client/index.ts',
    level: 'src/store/level/index.ts',
    node: 'src/adapter/node/index.ts',
    tls: 'src/adapter/node/tls/index.ts',
    defaults: 'src/defaults.ts',
    bun: 'src/adapter/bun/index.ts',
    deno: 'src/adapter/deno/index.ts',
    workers: 'src/adapter/workers/index.ts',
    redis: 'src/store/redis/index.ts',
    internal: 'src/internal.ts',
    files: 'src/files/index.ts',
    threads: 'src/adapter/threads/index.ts',
    session: 'src/session/index.ts',
    // The GraphQL worker thread's module (adapter/threads/graphql-worker.ts starts it from here).
    'graphql-worker': 'src/adapter/threads/graphql-worker-main.ts',
    // The .proto worker thread's module (adapter/threads/proto-worker.ts starts it from here).
    'proto-worker': 'src/adapter/threads/proto-worker-main.ts',
  },
  onSuccess: afterBuild,
  // zod is a devDependency bundled into the chunks (its declarations carried in dist/types/vendor), not 95 modules
  // (its `z` namespace imports every locale, 64 modules, which the bundle leaves out), about 3 MB
  // less RSS at a daemon's start (docs/performance.md). hono (about 35 modules) and @cfworker/json-schema
  // (9) are bundled likewise, though still dependencies (hono's types are the app's): each module a
  // start loads costs it a resolution, a read and a compile (docs/performance.md, "ready").
  // graphql's parser and error (18 CommonJS modules, which every start loaded for the request filter)
  // likewise: through `require` each cost a read and a wrap, and the first three Node's CommonJS lexer's
  // pass; the whole `graphql` package (bare `graphql`, loaded once a schema is used) stays external.
  // THIRD_PARTY_NOTICES.md has their licenses.
  noExternal: ['zod', 'hono', '@cfworker/json-schema', /^graphql\/(?:language|error)\//],
  esbuildPlugins: [noZodLocales],
});
