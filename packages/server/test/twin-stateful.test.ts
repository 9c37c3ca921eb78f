// `mockpoint import doc.yaml --stateful` (docs/twins.md): any OpenAPI document made a stateful
// twin on the built daemon — a small document of our own with a profile (sequence ids, numbered
// pages, its own error shape, timestamps from the daemon's clock) and Petstore with none. Every
// process listens on 127.0.0.1.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  assertBuilt,
  type Daemon,
  killAll,
  makeTempDir,
  removeTempDirs,
  requestJson,
  runCli,
  sharedDaemon,
  startDaemon,
} from './helpers/daemon.js';

const NOTES = fileURLToPath(new URL('./fixtures/twins/notes.yaml', import.meta.url));
const NOTES_PROFILE = fileURLToPath(new URL('./fixtures/twins/notes-profile.json', import.meta.url));
const PETSTORE = createRequire(import.meta.url).resolve('@readme/oas-examples/3.0/json/petstore.json');

beforeAll(() => assertBuilt());
afterEach(() => killAll());
afterAll(() => removeTempDirs());

/** `mockpoint import` of the notes document with its profile, applied as twin `notes` to the daemon at `url`. */
function applyNotes(url: string): ReturnType<typeof runCli> {
  return runCli({
    args: ['import', NOTES, '--stateful', '--profile', NOTES_PROFILE, '--name', 'notes', '--apply', '--url', url],
  });
}

async function send(
  daemon: Daemon,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: unknown; link: string | null }> {
  const response = await fetch(`${daemon.url}${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text === '' ? undefined : JSON.parse(text),
    link: response.headers.get('link'),
  };
}

describe('mockpoint import --stateful', () => {
  // One daemon for these tests, every name (and the clock) reset after each.
  const shared = sharedDaemon({ args: ['--memory'] }, { clean: true });

  it('keeps what a client creates, changes and deletes, pages it, and answers the rest from the document', async () => {
    const daemon = await shared();
    const imported = await applyNotes(daemon.url);
    expect([imported.code, imported.stderr]).toEqual([0, '']);
    expect(imported.stdout).toBe('twin notes: 6 operation(s), collections /notes\n');
    await requestJson(`${daemon.url}/api/clock`, {
      method: 'PUT',
      body: { set: '2030-01-01T00:00:00Z', freeze: true },
    });

    const made = await send(daemon, 'POST', '/endpoint/notes/notes', { title: 'Rex', body: 'walk', tags: ['dog'] });
    expect(made).toMatchObject({
      status: 201,
      body: {
        id: 1,
        title: 'Rex',
        body: 'walk',
        tags: ['dog'],
        pinned: false,
        created_at: '2030-01-01T00:00:00.000Z',
        updated_at: '2030-01-01T00:00:00.000Z',
      },
    });
    expect((await send(daemon, 'GET', '/endpoint/notes/notes/1')).body).toEqual(made.body);
    await requestJson(`${daemon.url}/api/clock`, { method: 'PUT', body: { advance: '1h' } });
    const changed = await send(daemon, 'PATCH', '/endpoint/notes/notes/1', { title: 'Rex II' });
    expect(changed.body).toMatchObject({
      id: 1,
      title: 'Rex II',
      body: 'walk',
      updated_at: '2030-01-01T01:00:00.000Z',
    });

    for (const title of ['two', 'three']) await send(daemon, 'POST', '/endpoint/notes/notes', { title, body: '' });
    const first = await send(daemon, 'GET', '/endpoint/notes/notes');
    expect((first.body as { id: number }[]).map((note) => note.id)).toEqual([1, 2]);
    // The Link keeps the request's own query and changes only the page (GitHub's way): none was sent.
    expect(first.link).toBe('</notes?page=2>; rel="next", </notes?page=2>; rel="last"');
    const second = await send(daemon, 'GET', '/endpoint/notes/notes?per_page=2&page=2');
    expect((second.body as { title: string }[]).map((note) => note.title)).toEqual(['three']);

    expect((await send(daemon, 'DELETE', '/endpoint/notes/notes/1')).status).toBe(204);
    expect(await send(daemon, 'GET', '/endpoint/notes/notes/1')).toMatchObject({
      status: 404,
      body: { message: "Not found: /notes holds no item '1'.", code: 'resource_missing' },
    });
    // An id the twin never saw is the document's 404 (docs/design.md#twins-as-the-provider-answers); an operation outside its collections, its example.
    expect(await send(daemon, 'GET', '/endpoint/notes/notes/42')).toMatchObject({
      status: 404,
      body: { message: "Not found: /notes holds no item '42'.", code: 'resource_missing' },
    });
    expect((await send(daemon, 'GET', '/endpoint/notes/health')).body).toEqual({ status: 'up' });
    const journal = await requestJson(`${daemon.url}/api/endpoints/notes/requests`);
    expect(
      (journal.body as { requests: { answeredBy: unknown }[] }).requests.map((entry) => entry.answeredBy),
    ).toContain('twin');
  });

  it('makes Petstore stateful with no profile: a created pet is read back as it was sent', async () => {
    const daemon = await shared();
    const imported = await runCli({
      args: ['import', PETSTORE, '--stateful', '--name', 'pets', '--apply', '--url', daemon.url],
    });
    expect(imported.code).toBe(0);
    expect(imported.stdout).toMatch(/^twin pets: \d+ operation\(s\), collections .*\/pet\b/);
    const made = await send(daemon, 'POST', '/endpoint/pets/pet', {
      name: 'doggie',
      photoUrls: ['a.png'],
      status: 'sold',
    });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ id: 1, name: 'doggie', photoUrls: ['a.png'], status: 'sold' });
    expect((await send(daemon, 'GET', '/endpoint/pets/pet/1')).body).toEqual(made.body);
  });

  it("is per namespace, and goes with its name's delete", async () => {
    const daemon = await shared();
    const document = {
      openapi: '3.0.3',
      paths: { '/a': { post: { responses: {} } }, '/a/{id}': { get: { responses: {} } } },
    };
    expect((await send(daemon, 'POST', '/api/namespaces', { name: 'one' })).status).toBe(201);
    expect((await send(daemon, 'POST', '/api/namespaces', { name: 'two' })).status).toBe(201);
    expect((await send(daemon, 'PUT', '/ns/one/api/endpoints/t/twin', { document })).status).toBe(200);
    const made = await send(daemon, 'POST', '/ns/one/endpoint/t/a', { x: 1 });
    expect(made.status).toBe(200);
    expect((await send(daemon, 'GET', '/ns/one/api/endpoints/t/twin')).status).toBe(200);
    // Neither the default namespace nor another has it.
    expect((await send(daemon, 'GET', '/ns/two/api/endpoints/t/twin')).status).toBe(404);
    expect((await send(daemon, 'POST', '/ns/two/endpoint/t/a', { x: 1 })).body).toMatchObject({
      error: { code: 'NO_ROUTE_MATCHED' },
    });
    expect((await send(daemon, 'GET', '/api/endpoints/t/twin')).status).toBe(404);
    // Deleting the name deletes its twin and its objects.
    expect((await send(daemon, 'DELETE', '/ns/one/api/endpoints/t')).status).toBe(204);
    expect((await send(daemon, 'POST', '/ns/one/endpoint/t/a', { x: 1 })).body).toMatchObject({
      error: { code: 'NO_ROUTE_MATCHED' },
    });
  });

  it('refuses a profile that breaks the format, naming the field, and keeps no twin', async () => {
    const daemon = await shared();
    const refused = await send(daemon, 'PUT', '/api/endpoints/notes/twin', {
      document: { openapi: '3.0.3', paths: { '/a': { get: { responses: {} } } } },
      profile: { name: 'x', pagination: { style: 'cursor', limit: 3 } },
    });
    expect(refused).toMatchObject({ status: 400, body: { error: { code: 'INVALID_TWIN' } } });
    expect(JSON.stringify(refused.body)).toContain('profile.pagination.limit');
    expect((await send(daemon, 'GET', '/api/endpoints/notes/twin')).status).toBe(404);
    const unknown = await send(daemon, 'PUT', '/api/endpoints/notes/twin', { provider: 'paypal' });
    expect(unknown).toMatchObject({ status: 400, body: { error: { code: 'INVALID_TWIN' } } });
  });
});

describe('--config of a file that is no mock file', () => {
  it('starts with the twin setting import --stateful --out wrote, as --apply puts it, and says so', async () => {
    const cwd = await makeTempDir();
    const written = await runCli({
      cwd,
      args: ['import', NOTES, '--stateful', '--profile', NOTES_PROFILE, '--name', 'notes', '--out', 'notes.json'],
    });
    expect([written.code, written.stderr]).toEqual([0, '']);
    // Before: read as a json-server database, endpoint "notes" with GET /document and GET /profile routes.
    const daemon = await startDaemon({ cwd, args: ['--memory', '--config', 'notes.json'] });
    // Written before the start line, on the other pipe.
    await expect
      .poll(() => daemon.stderr)
      .toBe(
        `mockpoint: ${join(cwd, 'notes.json')} is a twin setting (as mockpoint import --stateful writes it), not a mock file: read as endpoint "notes" holding that twin\n`,
      );
    const applied = await startDaemon({ args: ['--memory'] });
    const put = await applyNotes(applied.url);
    expect(put.code, put.stderr).toBe(0);
    const twin = async (one: Daemon) => (await send(one, 'GET', '/api/endpoints/notes/twin?setting=true')).body;
    expect(await twin(daemon)).toEqual(await twin(applied));
    expect(await twin(daemon)).toMatchObject({ document: { info: { title: expect.any(String) } } });
    expect((await send(daemon, 'GET', '/api/endpoints/notes/routes')).body).toMatchObject({ routes: [] });
    for (const one of [daemon, applied]) {
      const made = await send(one, 'POST', '/endpoint/notes/notes', { title: 'Rex', body: 'walk' });
      expect(made).toMatchObject({ status: 201, body: { id: 1, title: 'Rex' } });
      expect(await send(one, 'GET', '/endpoint/notes/notes/1')).toMatchObject({ status: 200, body: { title: 'Rex' } });
    }
  });

  it.each([
    ['{"foo": 1}', 'not a mock file (no version or endpoints; its keys: "foo")'],
    ['[1, 2]', 'a mock file is an object: { version: 1, endpoints: [ … ] }'],
    ['{"openapi": "3.0.3", "paths": {}}', 'an OpenAPI document, not a mock file: make one with mockpoint import'],
  ])('refuses %s in one line saying what it is', async (text, says) => {
    const cwd = await makeTempDir();
    writeFileSync(join(cwd, 'x.json'), text);
    const run = await runCli({ cwd, args: ['--memory', '--port', '0', '--config', 'x.json'] });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    const lines = run.stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`mockpoint: error: ${join(cwd, 'x.json')}:1:1: (document): ${says}`);
  });
});
