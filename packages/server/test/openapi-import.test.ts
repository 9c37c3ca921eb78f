// `mockpoint import` of OpenAPI 3.0 and Swagger 2.0 documents (real files) into a
// mock file of routes: examples, schema samples, path templates, literal paths
// before parameters; the same document gives the same file; and a daemon started
// with the file answers each operation.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { killAll, makeTempDir, removeTempDirs, runCli, startDaemon } from './helpers/daemon.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/openapi/', import.meta.url));

afterEach(async () => {
  await killAll();
});
afterAll(async () => {
  await removeTempDirs();
});

describe('mockpoint import', () => {
  it('OpenAPI 3.0: one route per operation; a daemon started with the file answers them', async () => {
    const cwd = await makeTempDir();
    const args = ['import', join(FIXTURES, 'petstore-3.0.yaml'), '--name', 'pets'];
    const run = await runCli({ cwd, args: [...args, '--out', 'mockpoint.json'] });
    expect(run, run.stderr).toMatchObject({ code: 0 });
    const text = readFileSync(join(cwd, 'mockpoint.json'), 'utf8');
    // Deterministic: the same document, the same file.
    expect((await runCli({ cwd, args })).stdout).toBe(text);
    const routes = JSON.parse(text).endpoints[0].routes as { id: string; match: { method: string; path: string } }[];
    expect(routes.map((route) => `${route.id} ${route.match.method} ${route.match.path}`)).toEqual([
      'listPets GET /pets',
      'createPet POST /pets',
      'myPets GET /pets/mine',
      'showPetById GET /pets/:petId',
    ]);

    const daemon = await startDaemon({ cwd, args: ['--memory', '--config', 'mockpoint.json'] });
    const get = async (path: string, init?: RequestInit) => {
      const response = await fetch(`${daemon.url}/endpoint/pets${path}`, init);
      return { status: response.status, json: await response.json() };
    };
    expect(await get('/pets/42')).toEqual({ status: 200, json: { id: 1, name: 'Tom', tag: 'cat' } });
    expect(await get('/pets', { method: 'POST' })).toEqual({ status: 201, json: { id: 7, name: 'Rex', tag: 'dog' } });
    // No example: sampled from the schema ($ref dereferenced).
    expect(await get('/pets/mine')).toEqual({ status: 200, json: { id: 0, name: 'string', tag: 'string' } });
    expect(await get('/pets')).toEqual({ status: 200, json: [{ id: 0, name: 'string', tag: 'string' }] });
  });

  it('Swagger 2.0: examples by media type, parameter names made pattern-safe, bodiless answers', async () => {
    const run = await runCli({ args: ['import', join(FIXTURES, 'swagger-2.0.json'), '--name', 'users'] });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).endpoints[0].routes).toEqual([
      {
        id: 'getUser',
        match: { method: 'GET', path: '/users/:user_id' },
        answer: { statusCode: 200, headers: { 'content-type': 'application/json' }, data: { id: 'u1', admin: false } },
      },
      { id: 'delete-users-user-id', match: { method: 'DELETE', path: '/users/:user_id' }, answer: { statusCode: 204 } },
    ]);
  });

  it('a document that is not OpenAPI is one line, exit 1; a missing --name is a usage error', async () => {
    const cwd = await makeTempDir();
    const bad = await runCli({ cwd, args: ['import', join(FIXTURES, 'nope.yaml'), '--name', 'x'] });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^mockpoint import: error: .*nope\.yaml: not a readable OpenAPI document: .*\n$/);
    expect((await runCli({ args: ['import', join(FIXTURES, 'swagger-2.0.json')] })).code).toBe(2);
  });
});
