/**
 * The folders of `packages/core/src` are layers: a folder imports only folders
 * in its own layer or below it, and no folders import each other in a circle.
 * {@link LAYERS} is the order, bottom first (docs/development.md states it);
 * this test reads every non-test `.ts` file, resolves its relative imports
 * (static `import … from`, `export … from`, side-effect imports and
 * `import()`, type-only ones included: a type is a dependency too) and names
 * each file and import that breaks the order or closes a cycle.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './test-support/source-files.js';

const SRC = dirname(fileURLToPath(import.meta.url));

/** The files at the top of `src` (`index.ts`, `internal.ts`): the package's entries, above every folder. */
const ENTRIES = '(entries)';

/**
 * The layers, bottom first; folders in one layer may import each other (but
 * not in a cycle). A new folder goes into the layer of what it may import.
 */
const LAYERS: readonly (readonly string[])[] = [
  // The registries: errors and their codes, settings, limits, the client's rules, the version.
  ['registry'],
  // Byte and text codecs; long work cut into event-loop turns; seeded draws; a bounded per-name cache, values made on first use.
  ['codec', 'turns', 'random', 'cache'],
  // The algorithms: request signatures, templates' placeholders, path, value, schema and host patterns.
  ['signing', 'template', 'pattern'],
  // What crosses the network: the API's JSON shapes and schemas, routes and answer kinds.
  ['api'],
  // An OpenAPI document's schemas and requests read as routes' validation.
  ['openapi'],
  // The domain's pieces, each with its contract: read as GraphQL, recorded requests, state machines,
  // queued answers, collections, webhooks (deliveries, signature checks, replays), the app's clock,
  // protobuf definitions and the server of their calls (gRPC, gRPC-Web, Connect).
  ['graphql', 'grpc', 'journal', 'state', 'queue', 'collections', 'webhook', 'clock', 'twin'],
  // Compiling answers: records, routes, templates, streams, WebSocket scripts, proxy parts.
  ['answer'],
  // Mock files (mockpoint's, WireMock, Mockoon, HAR, OpenAPI) read into and written from records and routes;
  // routes checked against an OpenAPI document (mockpoint verify).
  ['files', 'verify', 'settings'],
  // The backends and their parts: memory, LevelDB, Redis, Durable Object.
  ['store'],
  // The one engine: EndpointService, the pipeline, the response cache, the sinks.
  ['engine'],
  // Hosts mapped to endpoint names, and the Host allow-list.
  ['hosts'],
  // The admin API, built around an engine it is given.
  ['http'],
  // One folder per runtime: Node, Bun, Deno, Workers, threads, Fetch.
  ['adapter'],
  // The typed client (works against a URL or an app), and carrying a test session in a Node app server.
  ['client', 'session'],
  [ENTRIES],
  // What the tests share: it builds apps through the entries, as a user does.
  ['test-support'],
];

/** One relative import of one file. */
interface Import {
  /** The importing file, relative to `src`. */
  file: string;
  /** The specifier as written. */
  specifier: string;
  /** The importing file's folder (its first path segment), or {@link ENTRIES}. */
  from: string;
  /** The imported file's folder, or {@link ENTRIES}. */
  to: string;
  /** The imported file, relative to `src` (`.js` read as the `.ts` it is built from). */
  target: string;
}

/** The folder a path (relative to `src`) belongs to. */
function folderOf(path: string): string {
  const parts = path.split(sep);
  return parts.length === 1 ? ENTRIES : (parts[0] as string);
}

/**
 * The relative imports of a file's text, as TypeScript's own pre-processor
 * reads them: comments and strings are not imports; `import()` and
 * `typeof import()` are.
 */
function importsOf(file: string, text: string): Import[] {
  const found: Import[] = [];
  for (const { fileName: specifier } of ts.preProcessFile(text, true, true).importedFiles) {
    if (!specifier.startsWith('.')) continue;
    const target = relative(SRC, resolve(SRC, dirname(file), specifier));
    // Outside `src` (the package's own files): no layer of this tree.
    if (target.startsWith('..')) continue;
    found.push({ file, specifier, from: folderOf(file), to: folderOf(target), target: target.replace(/\.js$/, '.ts') });
  }
  return found;
}

/** The layer of each folder, by its index in {@link LAYERS}. */
function layerIndex(layers: readonly (readonly string[])[]): Map<string, number> {
  const index = new Map<string, number>();
  layers.forEach((folders, at) => {
    for (const folder of folders) index.set(folder, at);
  });
  return index;
}

/** The folders no layer names, with a file of each. */
function undeclared(imports: readonly Import[], files: readonly string[], layers: typeof LAYERS): string[] {
  const index = layerIndex(layers);
  const folders = new Set([...files.map(folderOf), ...imports.map(({ to }) => to)]);
  return [...folders].filter((folder) => !index.has(folder)).map((folder) => `${folder}/ is in no layer`);
}

/** Each import of a folder in a layer above the importer's, named by file and specifier. */
function upward(imports: readonly Import[], layers: typeof LAYERS): string[] {
  const index = layerIndex(layers);
  const problems: string[] = [];
  for (const { file, specifier, from, to } of imports) {
    const own = index.get(from);
    const theirs = index.get(to);
    if (own === undefined || theirs === undefined || theirs <= own) continue;
    problems.push(`${file} imports '${specifier}': ${from}/ (layer ${own}) may not import ${to}/ (layer ${theirs})`);
  }
  return problems;
}

/**
 * The imports between the files of `folder`, each file its own node: what {@link cycles} reads
 * for the files of one folder that import each other in a circle.
 */
function filesOf(imports: readonly Import[], folder: string): Import[] {
  return imports
    .filter(({ from, to }) => from === folder && to === folder)
    .map((each) => ({ ...each, from: each.file.split(sep).join('/'), to: each.target.split(sep).join('/') }));
}

/**
 * Each set of folders (or files, {@link filesOf}) that import each other in a circle (a strongly
 * connected component of the graph, Tarjan's), with one import of each edge.
 */
function cycles(imports: readonly Import[]): string[] {
  const shown = (node: string) => (node.endsWith('.ts') ? node : `${node}/`);
  const edges = new Map<string, Map<string, Import>>();
  for (const each of imports) {
    if (each.from === each.to) continue;
    const out = edges.get(each.from) ?? new Map<string, Import>();
    edges.set(each.from, out);
    if (!out.has(each.to)) out.set(each.to, each);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const components: string[][] = [];
  const visit = (folder: string): void => {
    index.set(folder, index.size);
    low.set(folder, index.get(folder) as number);
    stack.push(folder);
    for (const next of edges.get(folder)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(folder, Math.min(low.get(folder) as number, low.get(next) as number));
      } else if (stack.includes(next)) {
        low.set(folder, Math.min(low.get(folder) as number, index.get(next) as number));
      }
    }
    if (low.get(folder) === index.get(folder)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        component.push(member);
      } while (member !== folder);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const folder of [...edges.keys()].sort()) if (!index.has(folder)) visit(folder);
  return components.map((component) => {
    const inside = component.flatMap((from) =>
      [...(edges.get(from) ?? [])]
        .filter(([to]) => component.includes(to))
        .map(([to, { file, specifier }]) => `${shown(from)} -> ${shown(to)} (${file} imports '${specifier}')`),
    );
    return `cycle ${component.join(', ')}: ${inside.join('; ')}`;
  });
}

describe('the layer check', () => {
  const file = (path: string) => path.split('/').join(sep);
  const imports = (path: string, text: string) => importsOf(file(path), text);

  it('reads static, re-exported, side-effect, type-only and dynamic imports, not comments or strings', () => {
    const text = [
      "// import { x } from '../http/comment.js';",
      "import type { A } from '../api/a.js';",
      "import { B } from './b.js';",
      "export { C } from '../journal/c.js';",
      "import '../state/side.js';",
      "type M = typeof import('../queue/typeof.js');",
      "const d = await import('../store/d.js');",
      'const s = "from \'../http/string.js\'";',
    ].join('\n');
    expect(imports('answer/x.ts', text).map(({ to }) => to)).toEqual([
      'api',
      'answer',
      'journal',
      'state',
      'queue',
      'store',
    ]);
  });

  it('names the file and import of an upward import', () => {
    const found = imports('registry/errors.ts', "import { EndpointService } from '../engine/endpoint-service.js';");
    expect(upward(found, LAYERS)).toEqual([
      `${file('registry/errors.ts')} imports '../engine/endpoint-service.js': registry/ (layer 0) may not import engine/ (layer 9)`,
    ]);
  });

  it('names a cycle inside one layer, with an import of each edge', () => {
    const found = [
      ...imports('journal/a.ts', "import { b } from '../graphql/b.js';"),
      ...imports('graphql/b.ts', "import { a } from '../journal/a.js';"),
    ];
    expect(upward(found, LAYERS)).toEqual([]);
    expect(cycles(found)).toEqual([
      `cycle graphql, journal: graphql/ -> journal/ (${file('graphql/b.ts')} imports '../journal/a.js'); ` +
        `journal/ -> graphql/ (${file('journal/a.ts')} imports '../graphql/b.js')`,
    ]);
  });

  it("names the files of one folder that import each other in a cycle, a folder's own imports", () => {
    const found = [
      ...imports('twin/a.ts', "import type { B } from './b.js';"),
      ...imports('twin/b.ts', "import { a } from './a.js';"),
      ...imports('twin/c.ts', "import { a } from './a.js';"),
    ];
    expect(cycles(found)).toEqual([]);
    expect(cycles(filesOf(found, 'twin'))).toEqual([
      `cycle twin/a.ts, twin/b.ts: twin/a.ts -> twin/b.ts (${file('twin/a.ts')} imports './b.js'); ` +
        `twin/b.ts -> twin/a.ts (${file('twin/b.ts')} imports './a.js')`,
    ]);
  });

  it('names a folder that no layer declares', () => {
    expect(undeclared([], [file('rooms/new.ts')], LAYERS)).toEqual(['rooms/ is in no layer']);
  });
});

describe('packages/core/src', () => {
  const files = sourceFiles(SRC);
  const imports = files.flatMap((path) => importsOf(path, readFileSync(join(SRC, path), 'utf8')));

  it('is read whole', () => {
    // Every layer has files, and the engine's imports are seen (a walker that found nothing would pass the rest).
    expect(files.length).toBeGreaterThan(200);
    expect(imports.some(({ from, to }) => from === 'engine' && to === 'answer')).toBe(true);
  });

  it('puts every folder in a layer', () => {
    expect(undeclared(imports, files, LAYERS)).toEqual([]);
  });

  it('has no import from a folder to a folder in a layer above it', () => {
    expect(upward(imports, LAYERS)).toEqual([]);
  });

  it('has no folders that import each other in a cycle', () => {
    expect(cycles(imports)).toEqual([]);
  });

  it('has no files of the twin engine that import each other in a cycle (type-only imports too)', () => {
    const twin = filesOf(imports, 'twin');
    // The engine's imports of its own files are seen (a walker that found none would pass).
    expect(twin.some(({ from, to }) => from === 'twin/twin-engine.ts' && to === 'twin/twin-model.ts')).toBe(true);
    expect(cycles(twin)).toEqual([]);
  });

  it("keeps the generic store layer free of one feature's keys (a namespace's own chaos is no name by the name rule)", () => {
    const store = files.filter((path) => path.startsWith(`store${sep}`));
    expect(store.length).toBeGreaterThan(20);
    expect(store.filter((path) => readFileSync(join(SRC, path), 'utf8').includes('NAMESPACE_CHAOS_KEY'))).toEqual([]);
  });
});
