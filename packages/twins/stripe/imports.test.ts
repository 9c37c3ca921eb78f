// The Stripe provider's folder as rooms, not a knot (#87): no runtime import cycle between its
// files (a type-only import is erased and may point anywhere), and no file past 500 lines.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const HERE = import.meta.dirname;
const FILES = readdirSync(HERE).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));

/** The files of this folder `name` imports at runtime (not `import type`, not a name marked `type` only). */
function runtimeImports(name: string): string[] {
  const text = readFileSync(`${HERE}/${name}`, 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(/^import\s+(type\s+)?(?:\{([^}]*)\}|[\w*\s,]+)\s+from\s+'\.\/([\w-]+)\.js';/gm)) {
    const [, typeOnly, names, file] = match;
    const values = names?.split(',').filter((one) => one.trim() !== '' && !one.trim().startsWith('type '));
    if (typeOnly === undefined && (names === undefined || (values?.length ?? 0) > 0)) found.push(`${file}.ts`);
  }
  return found;
}

/** A cycle among `graph`'s files, as the path that closes it; `undefined`: none. */
function cycleOf(graph: Map<string, string[]>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string): string[] | undefined => {
    if (state.get(file) === 'done') return undefined;
    if (state.get(file) === 'open') return [...path.slice(path.indexOf(file)), file];
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      const found = visit(next);
      if (found !== undefined) return found;
    }
    path.pop();
    state.set(file, 'done');
    return undefined;
  };
  for (const file of graph.keys()) {
    const found = visit(file);
    if (found !== undefined) return found;
  }
  return undefined;
}

describe("the Stripe provider's files", () => {
  it('import one another without a runtime cycle', () => {
    const graph = new Map(FILES.map((name) => [name, runtimeImports(name)]));
    expect(graph.get('flows.ts')).toContain('billing.ts');
    expect(cycleOf(graph)).toBeUndefined();
    // The check finds a cycle where there is one.
    expect(cycleOf(new Map([...graph, ['paths.ts', ['flows.ts']]]))).toBeDefined();
  });

  it('are each at most 500 lines', () => {
    const long = FILES.filter((name) => readFileSync(`${HERE}/${name}`, 'utf8').split('\n').length > 500);
    expect(long).toEqual([]);
  });
});
