// `pnpm build` (and so `pnpm start`) builds JavaScript only: the daemon reads no type
// declaration, and tsup's rolled-up DTS build of core was most of a fresh clone's first start.
// The published packages' declarations come from `tsc -p tsconfig.types.json` at pack time
// (scripts/build-types.mjs, from each package's prepack): every `types` their exports name is
// the declaration of a source that tsconfig lists.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import core from '../packages/core/tsup.config.js';
import server from '../packages/server/tsup.config.js';
import plugin from '../packages/vitest-plugin/tsup.config.js';
// @ts-expect-error: a plain .mjs script without type declarations
import { ROOT } from './build-state.mjs';

type Entry = { '@mockpoint/source'?: string; types?: string } | string;

describe('published type declarations', () => {
  it('the build writes no declarations', () => {
    for (const config of [core, server, plugin].flatMap((c) => (Array.isArray(c) ? c : [c]))) {
      expect((config as { dts?: unknown }).dts ?? false).toBe(false);
    }
  });

  it.each(['core', 'server', 'vitest-plugin'])(
    '%s: each export’s types is what tsconfig.types.json emits, and prepack builds them',
    (dir) => {
      const manifest = JSON.parse(readFileSync(join(ROOT, 'packages', dir, 'package.json'), 'utf8')) as {
        exports: Record<string, Entry>;
        publishConfig: { exports: Record<string, Entry> };
        scripts: Record<string, string>;
      };
      const tsconfig = JSON.parse(
        readFileSync(join(ROOT, 'packages', dir, 'tsconfig.types.json'), 'utf8').replace(/^\s*\/\/.*$/gm, ''),
      ) as { files: string[]; compilerOptions: { rootDir: string; outDir: string } };
      expect(manifest.scripts.prepack).toBe('node ../../scripts/build-types.mjs .');
      for (const [key, entry] of Object.entries(manifest.exports)) {
        if (typeof entry === 'string') continue;
        const source = (entry['@mockpoint/source'] as string).replace(/^\.\//, '');
        expect(tsconfig.files, key).toContain(source);
        const emitted = `./${tsconfig.compilerOptions.outDir}/${source
          .slice(tsconfig.compilerOptions.rootDir.length + 1)
          .replace(/\.ts$/, '.d.ts')}`;
        expect(entry.types, key).toBe(emitted);
        expect((manifest.publishConfig.exports[key] as { types: string }).types, key).toBe(emitted);
      }
    },
  );
});
