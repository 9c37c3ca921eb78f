// `mockpoint import` of OpenAPI 3.0 and Swagger 2.0 documents (real files) into a
// mock file of routes: examples, schema samples, path templates, literal paths
// before parameters; the same document gives the same file; and a daemon started
// with the file answers each operation.
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { killAll, makeTempDir, removeTempDirs, runCli, startDaemon } from './helpers/daemon.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/openapi/', import.meta.url));
/** A public OpenAPI document from @readme/oas-examples (a dev dependency: real APIs' documents, MIT). */
const example = (path: string) => createRequire(import.meta.url).resolve(`@readme/oas-examples/${path}`);

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
    const shown = (route: { id: string; match: { method: string; path: string; headers?: { prefer: string } } }) =>
      `${route.id} ${route.match.method} ${route.match.path}${route.match.headers ? ` prefer: ${route.match.headers.prefer}` : ''}`;
    // Each other documented response and named example is a route before the operation's own, picked by Prefer.
    expect(routes.map(shown)).toEqual([
      'listPets GET /pets',
      'createPet-rex POST /pets prefer: example=rex',
      'createPet-201-rex POST /pets prefer: code=201, example=rex',
      'createPet POST /pets',
      'myPets GET /pets/mine',
      'showPetById-404 GET /pets/:petId prefer: code=404',
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
    // Prefer: code=404 picks the documented 404 (no body); an undocumented code answers the default.
    const notFound = await fetch(`${daemon.url}/endpoint/pets/pets/42`, { headers: { prefer: 'code=404' } });
    expect({ status: notFound.status, text: await notFound.text() }).toEqual({ status: 404, text: '' });
    expect(await get('/pets/42', { headers: { prefer: 'code=418' } })).toMatchObject({ status: 200 });
    expect(await get('/pets', { method: 'POST', headers: { prefer: 'example=rex' } })).toMatchObject({ status: 201 });
  });

  it('a path keyed with a query (`/answers?beta=true`) is its path and a query match, before the plain path', async () => {
    const cwd = await makeTempDir();
    const args = ['import', join(FIXTURES, 'query-keyed.yaml'), '--name', 'keyed', '--out', 'mockpoint.json'];
    const run = await runCli({ cwd, args });
    expect([run.code, run.stderr]).toEqual([0, 'mockpoint import: 0 operation(s) skipped, 3 route(s) written\n']);
    const routes = JSON.parse(readFileSync(join(cwd, 'mockpoint.json'), 'utf8')).endpoints[0].routes;
    expect(routes.map((route: { id: string; match: unknown }) => [route.id, route.match])).toEqual([
      ['beta_createAnswer', { method: 'POST', path: '/answers', query: { beta: 'true' } }],
      ['createAnswer', { method: 'POST', path: '/answers' }],
      ['getAnswer', { method: 'GET', path: '/answers/:answer_id' }],
    ]);
    const daemon = await startDaemon({ cwd, args: ['--memory', '--config', 'mockpoint.json'] });
    const post = async (query: string) =>
      (await fetch(`${daemon.url}/endpoint/keyed/answers${query}`, { method: 'POST' })).json();
    expect(await post('?beta=true')).toEqual({ id: 'ans_2', object: 'answer', beta: true });
    expect(await post('')).toEqual({ id: 'ans_1', object: 'answer', beta: false });
    expect(await post('?beta=false')).toEqual({ id: 'ans_1', object: 'answer', beta: false });
  });

  it('real public documents: Train Travel (3.1) and STAPI (3.0, 120 operations); Prefer picks the documented answers', async () => {
    const cwd = await makeTempDir();
    const trains = await runCli({ cwd, args: ['import', example('3.1/json/train-travel.json'), '--name', 'trains'] });
    expect(trains.code, trains.stderr).toBe(0);
    const stapi = await runCli({ cwd, args: ['import', example('3.0/json/star-trek.json'), '--name', 'stapi'] });
    expect(stapi.code, stapi.stderr).toBe(0);
    const endpoints = [...JSON.parse(trains.stdout).endpoints, ...JSON.parse(stapi.stdout).endpoints];
    writeFileSync(join(cwd, 'mockpoint.json'), JSON.stringify({ version: 1, endpoints }));
    // Every operation has its default route (no Prefer): 7 in Train Travel, 120 in STAPI.
    const defaults = (i: number) =>
      (endpoints[i].routes as { match: { headers?: unknown } }[]).filter((route) => !route.match.headers).length;
    expect([defaults(0), defaults(1)]).toEqual([7, 120]);

    const daemon = await startDaemon({ cwd, args: ['--memory', '--config', 'mockpoint.json'] });
    const call = async (path: string, init: RequestInit = {}) => {
      const response = await fetch(`${daemon.url}/endpoint/${path}`, init);
      return { status: response.status, type: response.headers.get('content-type'), json: await response.json() };
    };
    const booking = 'trains/bookings/1725ff48-ab45-4bb5-9d02-88745177dedb';
    expect(await call(booking)).toMatchObject({ status: 200, type: 'application/json' });
    expect(await call(booking, { headers: { prefer: 'code=404' } })).toMatchObject({
      status: 404,
      type: 'application/problem+json',
      json: { title: 'Not Found', status: 404 },
    });
    const pay = (prefer?: string) =>
      call(`${booking}/payment`, { method: 'POST', ...(prefer ? { headers: { prefer } } : {}) });
    expect((await pay()).json.source.object).toBe('card');
    expect((await pay('example=Bank')).json.source.object).toBe('bank_account');
    expect((await pay('code=200, example=Bank')).json.source.object).toBe('bank_account');
    expect((await call('stapi/animal?uid=1')).status).toBe(200);
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

  it("examples whose value is a $ref to an Example Object (GitHub's shape) answer that object's value", async () => {
    const cwd = await makeTempDir();
    // As GitHub's description writes GET /repos/{owner}/{repo}/issues/{issue_number}: the $ref stands
    // where the value belongs, and points at an Example Object ({ value, x-github-breaking-changes }).
    const issue = { id: 1, number: 1347, title: 'Found a bug', value: 'a field named value stays' };
    const document = {
      openapi: '3.0.3',
      info: { title: 'issues', version: '1' },
      paths: {
        '/repos/{owner}/{repo}/issues/{issue_number}': {
          get: {
            operationId: 'issues/get',
            responses: {
              '200': {
                description: 'Response',
                content: {
                  'application/json': {
                    examples: {
                      default: { summary: 'Issue', value: { $ref: '#/components/examples/issue' } },
                      pinned: { value: { $ref: '#/components/examples/issue-pinned' } },
                      remote: { value: { $ref: '#/components/examples/issue-remote' } },
                    },
                  },
                },
              },
            },
          },
        },
        '/issues/{id}': {
          get: {
            responses: {
              '200': {
                description: 'The Example Object itself by $ref (the form OpenAPI documents): its value',
                content: { 'application/json': { examples: { one: { $ref: '#/components/examples/issue' } } } },
              },
            },
          },
        },
      },
      components: {
        examples: {
          issue: { value: issue, 'x-github-breaking-changes': [{ changeset: 'x', patch: {} }] },
          'issue-pinned': { summary: 'pinned', value: { ...issue, pinned: true } },
          'issue-remote': { externalValue: 'https://example.com/issue.json' },
        },
      },
    };
    writeFileSync(join(cwd, 'issues.json'), JSON.stringify(document));
    const run = await runCli({ cwd, args: ['import', 'issues.json', '--name', 'gh', '--out', 'mock.json'] });
    expect(run.code, run.stderr).toBe(0);
    const daemon = await startDaemon({ cwd, args: ['--memory', '--config', 'mock.json'] });
    const get = async (path: string, prefer?: string) => {
      const response = await fetch(`${daemon.url}/endpoint/gh${path}`, prefer ? { headers: { prefer } } : {});
      return { status: response.status, json: await response.json() };
    };
    expect(await get('/repos/octocat/hello/issues/1347')).toEqual({ status: 200, json: issue });
    expect(await get('/repos/octocat/hello/issues/1347', 'example=pinned')).toEqual({
      status: 200,
      json: { ...issue, pinned: true },
    });
    // Only an externalValue (a URL, never fetched): no answer of its own, so no Prefer route for it.
    expect((await get('/repos/octocat/hello/issues/1347', 'example=remote')).json).toEqual(issue);
    expect(readFileSync(join(cwd, 'mock.json'), 'utf8')).not.toMatch(/x-github-breaking-changes|externalValue/);
    expect(await get('/issues/7')).toEqual({ status: 200, json: issue });
  });

  it('a document that is not OpenAPI is one line, exit 1; a missing --name is a usage error', async () => {
    const cwd = await makeTempDir();
    const bad = await runCli({ cwd, args: ['import', join(FIXTURES, 'nope.yaml'), '--name', 'x'] });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^mockpoint import: error: .*nope\.yaml: not a readable OpenAPI document: .*\n$/);
    expect((await runCli({ args: ['import', join(FIXTURES, 'swagger-2.0.json')] })).code).toBe(2);
  });

  it("a $ref that leaves the document's folder is one line, exit 1, and nothing of the file it names", async () => {
    const cwd = await makeTempDir();
    writeFileSync(join(cwd, 'secret.yaml'), 'Pet: { example: hunter2 }\n');
    const folder = join(cwd, 'api');
    await mkdir(folder);
    const doc = readFileSync(join(FIXTURES, 'petstore-3.0.yaml'), 'utf8');
    writeFileSync(
      join(folder, 'openapi.yaml'),
      doc.replace('$ref: "#/components/schemas/Pet"', '$ref: "../secret.yaml#/Pet"'),
    );
    const out = await runCli({ cwd, args: ['import', join(folder, 'openapi.yaml'), '--name', 'pets'] });
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(
      /^mockpoint import: error: .*: \$ref "\.\.\/secret\.yaml#\/Pet" is outside the document's folder .*\n$/,
    );
    expect(out.stdout + out.stderr).not.toContain('hunter2');
  });
});

describe('mockpoint import --validate', () => {
  const uuid = 'efdbb9d1-02c2-4bc3-afb7-6788d8782b1e';
  const trip = (query: string) => `trains/trips?origin=${uuid}&destination=${uuid}${query}`;
  const booking = (body: unknown, type = 'application/json'): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': type },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const good = { trip_id: uuid, passenger_name: 'Ann', has_bicycle: true };

  it('off by default: the same file as before, no validate field; another mode is a usage error', async () => {
    const cwd = await makeTempDir();
    const plain = await runCli({ cwd, args: ['import', example('3.1/json/train-travel.json'), '--name', 'trains'] });
    expect(plain.stdout).not.toContain('"validate"');
    const bad = await runCli({
      cwd,
      args: ['import', example('3.1/json/train-travel.json'), '--name', 't', '--validate', 'on'],
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--validate is off, report or enforce');
    const off = await runCli({
      cwd,
      args: ['import', example('3.1/json/train-travel.json'), '--name', 'trains', '--validate', 'off'],
    });
    expect(off.stdout).toBe(plain.stdout);
  });

  it('enforce (Train Travel 3.1) answers 400 REQUEST_INVALID; report (STAPI 3.0) answers and journals the errors', async () => {
    const cwd = await makeTempDir();
    const imported = async (doc: string, name: string, mode: string) => {
      const run = await runCli({ cwd, args: ['import', example(doc), '--name', name, '--validate', mode] });
      expect(run.code, run.stderr).toBe(0);
      return JSON.parse(run.stdout).endpoints[0];
    };
    const endpoints = [
      await imported('3.1/json/train-travel.json', 'trains', 'enforce'),
      await imported('3.0/json/star-trek.json', 'stapi', 'report'),
      await imported('3.0/json/request-examples.json', 'headers', 'enforce'),
    ];
    // Carried onto the routes: the JSON body schema (dereferenced, readOnly not required), query and path parameters.
    const create = endpoints[0].routes.find((route: { id: string }) => route.id === 'create-booking');
    expect(create.validate).toMatchObject({ mode: 'enforce', bodyRequired: true, body: { type: 'object' } });
    writeFileSync(join(cwd, 'mockpoint.json'), JSON.stringify({ version: 1, endpoints }));
    const daemon = await startDaemon({ cwd, args: ['--memory', '--config', 'mockpoint.json'] });
    const call = async (path: string, init: RequestInit = {}) => {
      const response = await fetch(`${daemon.url}/endpoint/${path}`, init);
      const json = (await response.json()) as { error?: { code: string; details: { errors: unknown[] } } };
      return { status: response.status, code: json.error?.code, errors: json.error?.details.errors };
    };

    // Requests that fit are answered as before.
    expect((await call(trip('&date=2024-02-01T09:00:00Z&bicycles=true'))).status).toBe(200);
    expect((await call('trains/bookings', booking(good))).status).toBe(201);
    // A body in the other documented type (XML) is not held to the JSON schema.
    expect((await call('trains/bookings', booking('<booking/>', 'application/xml'))).status).toBe(201);
    expect((await call(`trains/bookings/${uuid}`)).status).toBe(200);

    // Each kind of invalid request is refused with what did not fit.
    const query = await call(trip('&date=tomorrow&bicycles=maybe'));
    expect(query).toMatchObject({ status: 400, code: 'REQUEST_INVALID' });
    expect(query.errors).toEqual([
      { in: 'query', path: '/date', message: expect.stringContaining('date-time') },
      { in: 'query', path: '/bicycles', message: expect.stringContaining('boolean') },
    ]);
    expect((await call(`trains/trips?origin=${uuid}`)).errors).toEqual([
      expect.objectContaining({ in: 'query', path: '', message: expect.stringContaining('destination') }),
      expect.objectContaining({ in: 'query', path: '', message: expect.stringContaining('date') }),
    ]);
    expect((await call('trains/bookings/42')).errors).toEqual([
      expect.objectContaining({ in: 'params', path: '/bookingId' }),
    ]);
    expect((await call('trains/bookings', booking({ ...good, trip_id: 'x', has_dog: 'yes' }))).errors).toEqual([
      expect.objectContaining({ in: 'body', path: '/trip_id' }),
      expect.objectContaining({ in: 'body', path: '/has_dog' }),
    ]);
    expect((await call('trains/bookings', booking(''))).errors).toEqual([
      { in: 'body', path: '', message: 'a body is required' },
    ]);
    // request-examples.json: a required header (param5).
    const user = { ...booking({ id: 1234, email: 'test@example.com', name: 'Test user name' }), method: 'PATCH' };
    const headers = await call('headers/parameterExamples/a/b', user);
    expect(headers).toMatchObject({ status: 400, errors: [expect.objectContaining({ in: 'headers', path: '' })] });
    const withHeader = { ...user, headers: { 'content-type': 'application/json', param5: 'x' } };
    expect((await call('headers/parameterExamples/a/b', withHeader)).status).toBe(200);

    // report: answered as usual, the journal entry lists the errors.
    expect((await call('stapi/animal?uid=ANMA0000001')).status).toBe(200);
    expect((await call('stapi/animal')).status).toBe(200);
    expect((await call('stapi/animal/search?pageNumber=two')).status).toBe(200);
    const page = (await (await fetch(`${daemon.url}/api/endpoints/stapi/requests`)).json()) as {
      requests: { validation?: { errors: { in: string; path: string; message: string }[] } }[];
    };
    expect(page.requests.map((entry) => entry.validation?.errors.map((error) => `${error.in} ${error.path}`))).toEqual([
      [],
      ['query '],
      ['query /pageNumber'],
    ]);
  });
});
