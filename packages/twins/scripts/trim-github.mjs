// Writes github/document.json.gz: GitHub's REST description for api.github.com (as
// @octokit/openapi 23.0.2 ships it, MIT; installed by packages/openapi-documents, so that this
// package has no dependencies): every path, and the components they reference, with the prose
// (`description`, `summary`, `externalDocs`, `x-github`, `tags`) taken out but the examples kept
// whole, then gzip-compressed. Run with
// `pnpm --filter @mockpoint/twins trim:github` after changing the pinned version.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const require = createRequire(new URL('../../openapi-documents/package.json', import.meta.url));
const source = require.resolve('@octokit/openapi/generated/api.github.com.json');
const doc = JSON.parse(readFileSync(source, 'utf8'));

const DROP = new Set(['description', 'summary', 'externalDocs', 'x-github', 'tags', 'x-displayName']);

/** `node` without its prose; `within`: `examples` for a map of Example objects, `example` for one. */
function trim(node, within) {
  if (Array.isArray(node)) return node.map((item) => trim(item));
  if (typeof node !== 'object' || node === null) return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    // An example is data, kept whole (a repository's own `description`).
    if (key === 'example' || (key === 'value' && within === 'example')) {
      out[key] = value;
      continue;
    }
    // A schema property may be called `description`: only drop it where it is prose.
    if (DROP.has(key) && (typeof value === 'string' || key === 'x-github' || key === 'externalDocs')) continue;
    out[key] = trim(
      value,
      key === 'examples' && within !== 'examples' ? 'examples' : within === 'examples' ? 'example' : undefined,
    );
  }
  return out;
}

const paths = doc.paths;
// Only the components the kept paths reach, following $refs within the document.
const components = {};
const seen = new Set();
const queue = [paths];
while (queue.length > 0) {
  const node = queue.pop();
  if (typeof node !== 'object' || node === null) continue;
  if (typeof node.$ref === 'string' && !seen.has(node.$ref)) {
    seen.add(node.$ref);
    const [, , kind, name] = node.$ref.split('/');
    const target = doc.components[kind]?.[name];
    if (target !== undefined) {
      components[kind] ??= {};
      components[kind][name] = target;
      queue.push(target);
    }
  }
  for (const value of Object.values(node)) queue.push(value);
}
const kept = { openapi: doc.openapi, info: { title: doc.info.title, version: doc.info.version }, paths, components };
const trimmed = JSON.stringify(trim(kept));
const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'github', 'document.json.gz');
writeFileSync(out, gzipSync(trimmed, { level: 9 }));
console.log(
  `github/document.json.gz: ${Object.keys(paths).length} paths, ${trimmed.length} bytes of JSON, ${readFileSync(out).length} compressed`,
);
