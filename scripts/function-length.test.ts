// Functions a reader can hold: no function, method or arrow in the packages' sources
// (packages/*/src, tests aside) is longer than MAX_LINES lines, counted from its first
// line (JSDoc aside) to its closing brace. Parsed with the TypeScript compiler API.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MAX_LINES = 150;
/** Sources, not tests (`*.test.ts`, `*.test-d.ts`, `*.case.test.ts`) nor declarations. */
const SOURCE = /\.(ts|tsx|mjs)$/;
const NOT_SOURCE = /\.test(-d)?\.(ts|tsx|mjs)$|\.d\.ts$/;

/**
 * Functions known to be longer (`path name`: lines), with their length when this test
 * came: each may only shrink (the test fails when one grows or a new one appears), and
 * is taken off the list when split. Empty when every function is short.
 */
const KNOWN_LONG: Record<string, number> = {};

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') files.push(...sourceFiles(path));
    } else if (SOURCE.test(entry.name) && !NOT_SOURCE.test(entry.name)) files.push(path);
  }
  return files;
}

/** A function's name as a reader finds it: `file:line name`. */
function nameOf(node: ts.Node): string {
  const named = (n: ts.Node): string | undefined =>
    'name' in n && n.name !== undefined && ts.isIdentifier(n.name as ts.Node)
      ? (n.name as ts.Identifier).text
      : undefined;
  const own = named(node);
  if (own !== undefined) return own;
  const parent = node.parent;
  if (
    parent &&
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
  )
    return named(parent) ?? '(anonymous)';
  if (parent && ts.isCallExpression(parent)) return `(callback of ${parent.expression.getText().slice(0, 40)})`;
  return '(anonymous)';
}

/** Every function longer than MAX_LINES lines in `file` (its text), as `path:line name` → lines. */
function longFunctions(file: string, text: string): Map<string, number> {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : file.endsWith('.mjs') ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const found = new Map<string, number>();
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = end - start + 1;
      if (lines > MAX_LINES) found.set(`${relative(ROOT, file)}:${start + 1} ${nameOf(node)}`, lines);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function allLongFunctions(): Map<string, number> {
  const found = new Map<string, number>();
  const packages = join(ROOT, 'packages');
  for (const pkg of readdirSync(packages, { withFileTypes: true })) {
    if (!pkg.isDirectory()) continue;
    const src = join(packages, pkg.name, 'src');
    let files: string[];
    try {
      files = sourceFiles(src);
    } catch {
      continue; // a package without src/
    }
    for (const file of files)
      for (const [name, lines] of longFunctions(file, readFileSync(file, 'utf8'))) found.set(name, lines);
  }
  return found;
}

/** The key without its line number, so that edits above a known function do not move it off the list. */
const unlined = (key: string) => key.replace(/:\d+ /, ' ');

describe('function length', () => {
  it(`no function in packages/*/src is longer than ${MAX_LINES} lines`, () => {
    const known = new Map(Object.entries(KNOWN_LONG).map(([key, lines]) => [unlined(key), lines]));
    const offenders = [...allLongFunctions()]
      .filter(([key, lines]) => lines > (known.get(unlined(key)) ?? MAX_LINES))
      .map(([key, lines]) => `${key}: ${lines} lines`);
    expect(offenders).toEqual([]);
  });

  it('finds a long function, method and arrow, and counts their lines', () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const text = [
      `function long() {\n${body(MAX_LINES - 1)}\n}`, // MAX_LINES + 1 lines
      `function short() {\n${body(MAX_LINES - 2)}\n}`, // MAX_LINES lines: allowed
      `class C {\n  m() {\n${body(MAX_LINES)}\n  }\n}`,
      `const arrow = () => {\n${body(MAX_LINES)}\n};`,
    ].join('\n');
    const found = [...longFunctions(join(ROOT, 'x.ts'), text)].map(([key, lines]) => `${unlined(key)}: ${lines}`);
    expect(found).toEqual([`x.ts long: ${MAX_LINES + 1}`, `x.ts m: ${MAX_LINES + 2}`, `x.ts arrow: ${MAX_LINES + 2}`]);
  });
});
