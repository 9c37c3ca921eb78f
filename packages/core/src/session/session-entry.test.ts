/**
 * `@mockpoint/core/session` is loaded into users' app servers: it reads
 * only `session/` and the bottom layers of core (`api/`, `codec/`, `registry/`), and nothing but Node's own async
 * context and diagnostics channels — no framework, no dependency — besides
 * `node:module`, whose `createRequire` loads `@mswjs/interceptors` on a Node
 * before 22.12 only, when carrying starts (carry-session.ts).
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import * as entry from './index.js';

const SRC = fileURLToPath(new URL('..', import.meta.url));

describe('@mockpoint/core/session', () => {
  it('bundles from session/, api/, codec/ and registry/ only, importing only node:async_hooks, node:diagnostics_channel and node:module', async () => {
    const result = await build({
      entryPoints: [fileURLToPath(new URL('./index.ts', import.meta.url))],
      bundle: true,
      write: false,
      platform: 'node',
      format: 'esm',
      metafile: true,
      packages: 'external',
    });
    const inputs = Object.keys(result.metafile.inputs).map((path) =>
      fileURLToPath(new URL(path, `file://${process.cwd()}/`)),
    );
    expect(
      inputs.filter((path) => !/[/\\](session|api|codec|registry)[/\\][^/\\]+\.ts$/.test(path.slice(SRC.length - 1))),
    ).toEqual([]);
    const external = Object.values(result.metafile.outputs).flatMap((output) =>
      output.imports.filter((i) => i.external).map((i) => i.path),
    );
    expect([...new Set(external)].sort()).toEqual(['node:async_hooks', 'node:diagnostics_channel', 'node:module']);
  });

  it('exports the documented names', () => {
    expect(Object.keys(entry).sort()).toEqual([
      'NOT_CARRIED_WARNING',
      'SESSION_HEADER',
      'carrySession',
      'currentSession',
      'fastifySession',
      'runWithSession',
      'sessionHeaders',
      'sessionMiddleware',
      'sessionOf',
      'withSession',
    ]);
  });
});
