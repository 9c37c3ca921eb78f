// After `changeset version` (pnpm version-packages): writes the version of
// @mockpoint/core's package.json into its VERSION constant, which `--version`,
// `/api/health` and the start-up line report (registry/version.test.ts checks they agree).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const core = fileURLToPath(new URL('../packages/core/', import.meta.url));
const { version } = JSON.parse(readFileSync(`${core}package.json`, 'utf8'));
const file = `${core}src/registry/version.ts`;
const source = readFileSync(file, 'utf8');
const updated = source.replace(/export const VERSION = '[^']*';/, `export const VERSION = '${version}';`);
if (!updated.includes(`'${version}'`)) throw new Error(`sync-version: no VERSION constant in ${file}`);
writeFileSync(file, updated);
console.log(`sync-version: VERSION = '${version}'`);
