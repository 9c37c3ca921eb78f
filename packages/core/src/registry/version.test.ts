import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { VERSION } from './version.js';

it('VERSION is the version in package.json (pnpm version-packages keeps them together)', () => {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  expect(VERSION).toBe(manifest.version);
});
