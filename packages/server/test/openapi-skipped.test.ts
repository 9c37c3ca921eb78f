// An OpenAPI import takes every operation a route can express and lists the
// others with the reason, instead of failing whole. Paths with several
// parameters or text in one segment (GitHub's /compare/{base}...{head}) are
// routes; GitHub's and Stripe's whole documents are imported in
// packages/openapi-documents, which `pnpm start` does not install.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { matchPathPattern, parsePathPattern } from '@mockpoint/core/internal';
import { afterAll, describe, expect, it } from 'vitest';
import { runImport } from '../src/commands/import-command.js';

const folder = mkdtempSync(join(tmpdir(), 'mockpoint-openapi-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function imported(args: string[]): Promise<{ code: number; out: string; err: string[] }> {
  let out = '';
  const err: string[] = [];
  const code = await runImport(args, { out: (text) => (out += text), err: (line) => err.push(line) });
  return { code, out, err };
}

describe('paths with several parameters or text in one segment', () => {
  it('import as routes whose patterns match the documented requests; only two adjacent parameters are skipped', async () => {
    const doc = {
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      paths: {
        '/repos/{owner}/{repo}/compare/{base}...{head}': {
          get: { operationId: 'repos/compare-commits', responses: { 200: { description: 'ok' } } },
        },
        '/files/{name}.json': { get: { responses: { 200: { description: 'ok' } } } },
        '/v1/{name}:cancel': { post: { operationId: 'cancel', responses: { 200: { description: 'ok' } } } },
        '/items/{id}v2/{2nd}': { get: { operationId: 'v2', responses: { 200: { description: 'ok' } } } },
        '/r/v{major}': { get: { operationId: 'ver', responses: { 200: { description: 'ok' } } } },
        '/glued/{a}{b}': { get: { operationId: 'glued', responses: { 200: { description: 'ok' } } } },
        '/repos/{owner}/{repo}': { get: { operationId: 'repos/get', responses: { 200: { description: 'ok' } } } },
      },
    };
    const path = join(folder, 'mixed.json');
    writeFileSync(path, JSON.stringify(doc));
    const run = await imported([path, '--name', 'gh']);
    expect(run.code).toBe(0);
    const routes = JSON.parse(run.out).endpoints[0].routes as { id: string; match: { path: string } }[];
    expect(routes.map((route) => [route.id, route.match.path])).toEqual([
      ['get-files-name-json', '/files/:name.json'],
      ['cancel', '/v1/:name%3Acancel'],
      ['ver', '/r/%76:major'],
      ['v2', '/items/:id%762/:_2nd'],
      ['repos-get', '/repos/:owner/:repo'],
      ['repos-compare-commits', '/repos/:owner/:repo/compare/:base...:head'],
    ]);
    const byId = new Map(routes.map((route) => [route.id, parsePathPattern(route.match.path)]));
    const params = (id: string, subpath: string) =>
      matchPathPattern(
        byId.get(id) as ReturnType<typeof parsePathPattern>,
        subpath.split('/').slice(1).map(decodeURIComponent),
      );
    expect(params('repos-compare-commits', '/repos/o/r/compare/main...topic')).toEqual({
      owner: 'o',
      repo: 'r',
      base: 'main',
      head: 'topic',
    });
    expect(params('get-files-name-json', '/files/a.b.json')).toEqual({ name: 'a.b' });
    expect(params('cancel', '/v1/job%3Acancel')).toEqual({ name: 'job' });
    expect(params('v2', '/items/7v2/x')).toEqual({ id: '7', _2nd: 'x' });
    // A letter right before a parameter is escaped: a `:` after a literal letter is literal (`/items:batchGet`).
    expect(params('ver', '/r/v10')).toEqual({ major: '10' });
    expect(run.err).toEqual([
      'mockpoint import: left out GET /glued/{a}{b} (glued): path "/glued/:a:b": segment ":a:b" has two parameters with no literal text between them (:a and :b), so where one ends is unknown',
      'mockpoint import: 1 operation(s) skipped, 6 route(s) written',
    ]);
  });
});
