/**
 * The formats the MCP tool `import_mock_file` reads from a document's text, in one table: its
 * input schema's `kind` enum, the refusal of another kind and the import itself all come from it,
 * so a format is added (or its reading changed) in one place. Each runs the same core function as
 * `mockpoint import` for it (commands/import/), reading text rather than a file.
 *
 * @module
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { harMockFile, jsonServerMockFile, type LeftOut, pactMockFileInTurns } from '@mockpoint/core/files';
import { openApiRoutes } from '../openapi/openapi-routes.js';

/** A mock file's JSON text made from a document, and what was left out (one line each). */
export interface TextImport {
  text: string;
  notes: string[];
}

/**
 * Sampled schema nodes and answer values of one OpenAPI import (openapi-routes.ts; the CLI's is
 * 10 M): the daemon writes the mock file's text, checks it (a YAML parse, ~1 s a MB) and answers it.
 */
const MAX_IMPORT_WORK = 200_000;

/** One thing an import left out, as `mockpoint import` prints it (without its prefix). */
function leftOutNote({ what, why }: LeftOut): string {
  return `left out ${what}: ${why}`;
}

/** An OpenAPI 3.x / Swagger 2 document's text as an endpoint of routes. */
async function openApiText(source: string, name: string): Promise<TextImport> {
  // The OpenAPI reader takes a file: the text goes to a private temporary one. Its $refs into
  // other files are refused: they would read any file of the daemon's machine (its CA key, …).
  const dir = mkdtempSync(join(tmpdir(), 'mockpoint-mcp-'));
  try {
    const file = join(dir, source.trimStart().startsWith('{') ? 'openapi.json' : 'openapi.yaml');
    writeFileSync(file, source);
    const { routes, skipped } = await openApiRoutes(file, { fileRefs: false, maxWork: MAX_IMPORT_WORK }).catch(
      (error: unknown) => {
        throw Object.assign(new Error(`not a readable OpenAPI document: ${(error as Error).message}`), {
          code: 'OPENAPI_UNREADABLE',
        });
      },
    );
    return {
      text: JSON.stringify({ version: 1, endpoints: [{ name, routes }] }),
      notes: skipped.map((op) => `skipped ${op.method} ${op.path}: ${op.reason}`),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const TEXT_IMPORTS = {
  openapi: openApiText,
  async har(source: string, name: string): Promise<TextImport> {
    const imported = await harMockFile(source, { name });
    return { text: imported.text, notes: imported.skipped.map(leftOutNote) };
  },
  async pact(source: string, name: string): Promise<TextImport> {
    // A long file a slice per event-loop turn, as the routes API reads a long list.
    const imported = await pactMockFileInTurns(source, { name });
    return { text: imported.text, notes: imported.leftOut.map(leftOutNote) };
  },
  async 'json-server'(source: string, name: string): Promise<TextImport> {
    const imported = jsonServerMockFile(source, { name });
    return { text: imported.text, notes: imported.skipped.map(leftOutNote) };
  },
  async graphql(source: string, name: string): Promise<TextImport> {
    return { text: JSON.stringify({ version: 1, endpoints: [{ name, graphql: source }] }), notes: [] };
  },
} satisfies Record<string, (source: string, name: string) => Promise<TextImport>>;

/** The kinds `import_mock_file` takes, in the order its schema lists them. */
export const TEXT_IMPORT_KINDS = Object.keys(TEXT_IMPORTS) as (keyof typeof TEXT_IMPORTS)[];

/** The import of `kind`, or `undefined` when it is no kind of {@link TEXT_IMPORT_KINDS}. */
export function textImporter(kind: unknown): ((source: string, name: string) => Promise<TextImport>) | undefined {
  return typeof kind === 'string' && Object.hasOwn(TEXT_IMPORTS, kind)
    ? TEXT_IMPORTS[kind as keyof typeof TEXT_IMPORTS]
    : undefined;
}
