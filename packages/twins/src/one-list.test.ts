/**
 * The providers are listed once (issue #73, docs/development.md "Adding a provider"): the `CODE`
 * map of this package's src/index.ts, one line a provider. The daemon and `createMockServer()`
 * read that list from the package when a twin is asked for; no other source of the monorepo keeps
 * one. This test reads every non-test source file of every package (and scripts/) and names each
 * list of providers it finds: an array of two or more strings, or an object with two or more keys,
 * all of them providers' names. Lists that hold a provider's name among others' (the webhook
 * signature schemes `standard, stripe, github, slack, hmac`, the rate-limit styles) are another
 * thing and pass.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { providers } from './index.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PACKAGES = join(ROOT, 'packages');
/** This package's folders with a profile: the providers as files say them. */
const TWINS = join(PACKAGES, 'twins');
const FOLDERS = readdirSync(TWINS).filter((folder) => existsSync(join(TWINS, folder, 'profile.json')));

/** The text of a string literal or a property name, lower-cased; `undefined` for anything else. */
function textOf(node: ts.Node | undefined): string | undefined {
  if (node === undefined) return undefined;
  if (ts.isStringLiteralLike(node) || ts.isIdentifier(node)) return node.text.toLowerCase();
  return undefined;
}

/** Each list of `names` in `text` (two or more, nothing else), as `file:line`. */
function listsIn(file: string, text: string, names: readonly string[]): string[] {
  const kind = /\.(m|c)?js$/.test(file)
    ? ts.ScriptKind.JS
    : file.endsWith('.tsx')
      ? ts.ScriptKind.TSX
      : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const found: string[] = [];
  const isList = (words: (string | undefined)[]) =>
    words.length >= 2 && words.every((word) => word !== undefined && names.includes(word));
  const visit = (node: ts.Node): void => {
    const words = ts.isArrayLiteralExpression(node)
      ? node.elements.map(textOf)
      : ts.isObjectLiteralExpression(node)
        ? node.properties.map((property) => textOf(property.name))
        : [];
    if (isList(words)) {
      found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every non-test source file under `dir` (no node_modules, dist or fixtures of another's). */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (['node_modules', 'dist', 'coverage'].includes(entry) || entry.startsWith('.')) return [];
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|tsx|mts|js|mjs)$/.test(entry) && !/\.test\.|\.d\.ts$/.test(entry) ? [path] : [];
  });
}

describe('the list of providers', () => {
  it('the package names the providers its folders are', () => {
    expect([...providers].sort()).toEqual([...FOLDERS].sort());
    expect(providers.length).toBeGreaterThanOrEqual(2);
  });

  it('finds a list of providers, and only that', () => {
    expect(
      listsIn('x.ts', "const a = ['stripe', 'github'];\nconst b = ['standard', 'stripe', 'github'];", providers),
    ).toEqual(['x.ts:1']);
    expect(
      listsIn('x.ts', 'const c = {\n  stripe: 1,\n  "github": 2,\n};\nconst d = { stripe: 1 };', providers),
    ).toEqual(['x.ts:1']);
  });

  it('is kept once in the monorepo: the CODE map of @mockpoint/twins', () => {
    const files = [
      ...readdirSync(PACKAGES).flatMap((name) => sources(join(PACKAGES, name))),
      ...sources(join(ROOT, 'scripts')),
    ];
    // The walk read the packages whose lists there were (a walk that read nothing would pass).
    expect(files).toEqual(
      expect.arrayContaining([
        join(PACKAGES, 'server', 'src', 'twin-catalog.ts'),
        join(PACKAGES, 'vitest-plugin', 'src', 'twin-catalog.ts'),
        join(ROOT, 'scripts', 'binaries.mjs'),
      ]),
    );
    const found = files.flatMap((file) => listsIn(relative(ROOT, file), readFileSync(file, 'utf8'), providers));
    expect(found).toEqual([expect.stringMatching(/^packages\/twins\/src\/index\.ts:\d+$/)]);
  });
});
