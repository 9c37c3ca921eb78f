// The generated parts of the reference pages in docs/ are current: each equals
// what `pnpm docs` (scripts/docs.mjs) generates from its table today.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SETTING_LIST } from '@mockpoint/core/defaults';
import { ERROR_LIST } from '@mockpoint/core/internal';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without type declarations
import { committedPart, DOCS_DIR, generatedParts } from '../scripts/docs.mjs';

type Part = { page: string; start: string; end: string; text: string };
const parts = (generatedParts() as Part[]).map((part) => [part.page, part] as const);

describe('docs/ generated parts', () => {
  it.each(parts)('docs/%s is current (run `pnpm docs` after changing its table)', (_page, part) => {
    expect(committedPart(part)).toBe(part.text);
  });

  it('docs/settings.md has one row per setting, naming its variable', () => {
    const text = readFileSync(join(DOCS_DIR, 'settings.md'), 'utf8');
    for (const spec of SETTING_LIST) {
      expect(text).toMatch(new RegExp(`^\\| \`${spec.name}\` \\| \`${spec.env}\` \\|`, 'm'));
    }
  });

  it('docs/errors.md has one row per code of the error registry, with its status', () => {
    const text = readFileSync(join(DOCS_DIR, 'errors.md'), 'utf8');
    for (const spec of ERROR_LIST) {
      expect(text).toMatch(new RegExp(`^\\| \`${spec.code}\` \\| ${spec.status ?? ''} \\|`, 'm'));
    }
  });
});
