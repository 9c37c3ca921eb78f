// A bundled devDependency's type declarations, carried in a published package's own
// declarations: zod's code is bundled into @mockpoint/core's JavaScript, and its types are
// what the core's public declarations name (`z.infer<…>`, the schemas). Rather than installing
// zod (8.2 MB) for its types, scripts/build-types.mjs copies the declaration files that the
// package's ESM entry reaches into dist/types/vendor/<name>/ and points the core's own
// declarations there. Its license goes in the package's THIRD_PARTY_NOTICES.md, not as a LICENSE
// file: pnpm pack adds the repository's LICENSE only to a package that has no file of that name. Only relative imports are followed: a declaration that names
// another package fails the build, so nothing unresolved is published.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, posix, relative, sep } from 'node:path';

/** Every specifier a declaration file imports or re-exports (static, `import()` and side-effect forms). */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)(["'])([^"']+)\1/gm;

/** The declaration file a relative specifier names (`./a.js` is `./a.d.ts`). */
function declarationOf(fromFile, specifier) {
  return join(dirname(fromFile), specifier.replace(/\.js$/, '.d.ts'));
}

/** The package's directory, as resolved from `fromDir` (a package that depends on it). */
function packageDir(name, fromDir) {
  return dirname(createRequire(join(fromDir, 'package.json')).resolve(`${name}/package.json`));
}

/** Copies `name`'s declarations reached from its `index.d.ts` into `vendorDir`; returns how many. */
function copyDeclarations(name, sourceDir, vendorDir) {
  const seen = new Set();
  const queue = [join(sourceDir, 'index.d.ts')];
  while (queue.length > 0) {
    const file = queue.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const [, , specifier] of text.matchAll(SPECIFIER)) {
      if (!specifier.startsWith('.')) {
        throw new Error(`${name}'s ${relative(sourceDir, file)} imports ${specifier}: not bundled`);
      }
      queue.push(declarationOf(file, specifier));
    }
    const target = join(vendorDir, relative(sourceDir, file));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text);
  }
  return seen.size;
}

function declarationFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'vendor' ? [] : declarationFiles(path);
    return entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * Carries `name`'s declarations in `packageRoot`'s dist/types: copied to dist/types/vendor/<name>/,
 * and every `'<name>'` the package's own declarations import rewritten to the copy's index.
 * @returns how many declaration files were copied and how many of the package's own were rewritten
 */
export function bundleDeclarations(packageRoot, name) {
  const typesDir = join(packageRoot, 'dist', 'types');
  const vendorDir = join(typesDir, 'vendor', name);
  const copied = copyDeclarations(name, packageDir(name, packageRoot), vendorDir);
  const quoted = new RegExp(`(\\bfrom\\s*|\\bimport\\s*\\(\\s*)(["'])${name.replace(/[/.]/g, '\\$&')}\\2`, 'g');
  let rewritten = 0;
  for (const file of declarationFiles(typesDir)) {
    const text = readFileSync(file, 'utf8');
    let target = relative(dirname(file), join(vendorDir, 'index.js')).split(sep).join(posix.sep);
    if (!target.startsWith('.')) target = `./${target}`;
    const next = text.replace(quoted, (_, head, quote) => `${head}${quote}${target}${quote}`);
    if (next !== text) {
      writeFileSync(file, next);
      rewritten++;
    }
  }
  return { copied, rewritten };
}
