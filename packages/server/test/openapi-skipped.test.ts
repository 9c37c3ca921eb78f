// An OpenAPI import takes every operation a route can express and lists the
// others with the reason, instead of failing whole: GitHub's own description
// (@octokit/openapi, a dev dependency) has one path with two parameters in one
// segment (/compare/{base}...{head}) among 1,000+ operations.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parsePathPattern } from '@mockpoint/core/internal';
import { afterAll, describe, expect, it } from 'vitest';
import { runImport } from '../src/commands/import-command.js';
import { openApiRoutes } from '../src/openapi/openapi-routes.js';

const folder = mkdtempSync(join(tmpdir(), 'mockpoint-openapi-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** The operations of a document, as `METHOD /path`. */
function operations(doc: { paths: Record<string, Record<string, unknown>> }): string[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method] !== undefined).map((method) => `${method.toUpperCase()} ${path}`),
  );
}

async function imported(args: string[]): Promise<{ code: number; out: string; err: string[] }> {
  let out = '';
  const err: string[] = [];
  const code = await runImport(args, { out: (text) => (out += text), err: (line) => err.push(line) });
  return { code, out, err };
}

describe('operations a route cannot express are skipped with the reason', () => {
  it('two parameters in one segment and a parameter with text: listed on stderr, the rest imported', async () => {
    const doc = {
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      paths: {
        '/repos/{owner}/{repo}/compare/{base}...{head}': {
          get: { operationId: 'repos/compare-commits', responses: { 200: { description: 'ok' } } },
        },
        '/files/{name}.json': { get: { responses: { 200: { description: 'ok' } } } },
        '/repos/{owner}/{repo}': { get: { operationId: 'repos/get', responses: { 200: { description: 'ok' } } } },
      },
    };
    const path = join(folder, 'mixed.json');
    writeFileSync(path, JSON.stringify(doc));
    const run = await imported([path, '--name', 'gh']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.out).endpoints[0].routes.map((route: { id: string }) => route.id)).toEqual(['repos-get']);
    expect(run.err).toEqual([
      'mockpoint import: skipped GET /repos/{owner}/{repo}/compare/{base}...{head} (repos/compare-commits): segment "{base}...{head}" mixes parameters with other text; a route parameter is a whole segment (/:name)',
      'mockpoint import: skipped GET /files/{name}.json: segment "{name}.json" mixes parameters with other text; a route parameter is a whole segment (/:name)',
      'mockpoint import: 2 operation(s) skipped, 1 route(s) written',
    ]);
  });

  it("GitHub's description imports whole: every operation a route, but the one compare path", async () => {
    const source = createRequire(import.meta.url).resolve('@octokit/openapi/generated/api.github.com.json');
    const all = operations(JSON.parse(readFileSync(source, 'utf8')));
    expect(all.length).toBeGreaterThan(1000);
    const { routes, skipped } = await openApiRoutes(source);
    expect(skipped).toEqual([
      {
        method: 'GET',
        path: '/repos/{owner}/{repo}/compare/{base}...{head}',
        operationId: 'repos/compare-commits',
        reason: expect.stringMatching(/^segment "\{base\}\.\.\.\{head\}" mixes parameters/),
      },
    ]);
    // One route per operation (the Prefer routes carry a match header), ids unique, every path a valid pattern.
    expect(routes.filter((route) => route.match.headers === undefined)).toHaveLength(all.length - 1);
    expect(new Set(routes.map((route) => route.id)).size).toBe(routes.length);
    for (const route of routes) expect(() => parsePathPattern(route.match.path)).not.toThrow();
  }, 120_000);
});
