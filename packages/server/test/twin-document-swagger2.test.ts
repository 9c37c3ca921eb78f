// `mockpoint import <document> --stateful` of a real Swagger 2.0 document, with no profile and the
// default `unseen`: Swagger Express Middleware's pet store (samples/PetStore.yaml of the npm
// package @apidevtools/swagger-express-middleware 4.0.2, MIT; fixtures/twins/README.md). The twin
// reads it as the OpenAPI 3.0 document it means (core's openapi/swagger2.ts): `definitions`,
// `in: body` and `in: formData` parameters, `default` answers. Its two collections walked:
// pets, keyed by their `name` (the path's `{petName}`, no `id` in the schema), as a bare array,
// updated by PATCH, deleted; and a pet's photos, made from a multipart form, numbered 1, 2, 3 as
// the document's integer ids. Every JSON answer is checked against the document's response schema
// for its operation and status. On memory and LevelDB; every process on 127.0.0.1.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseYaml } from '@mockpoint/core/files';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { answerFindings } from './helpers/answer-schema.js';
import {
  assertBuilt,
  type Daemon,
  killAll,
  makeTempDir,
  removeTempDirs,
  runCli,
  startDaemon,
} from './helpers/daemon.js';

const FILE = fileURLToPath(new URL('./fixtures/twins/petstore-swagger2.yaml', import.meta.url));
const DOC = parseYaml(readFileSync(FILE, 'utf8')) as Record<string, unknown>;
const PET = '/pets/{petName}';
const PHOTOS = '/pets/{petName}/photos';

beforeAll(() => assertBuilt());
afterEach(() => killAll());
afterAll(() => removeTempDirs());

/** Sends a request (a JSON body, or a form as multipart) and checks a JSON answer against the document. */
function client(daemon: Daemon, findings: string[]) {
  return async (
    method: string,
    template: string,
    path: string,
    body?: Record<string, unknown> | FormData,
  ): Promise<{ status: number; body: unknown }> => {
    const init: RequestInit =
      body === undefined
        ? { method }
        : body instanceof FormData
          ? { method, body }
          : { method, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
    const response = await fetch(`${daemon.url}/endpoint/petstore${path}`, init);
    const text = await response.text();
    const parsed = text === '' ? undefined : JSON.parse(text);
    if (response.status < 400) findings.push(...answerFindings(DOC, method, template, response.status, parsed));
    return { status: response.status, body: parsed };
  };
}

function photoForm(label: string): FormData {
  const form = new FormData();
  form.set('label', label);
  form.set('photo', new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xe0])], { type: 'image/jpeg' }), `${label}.jpg`);
  return form;
}

for (const store of ['memory', 'leveldb'] as const) {
  describe(`a twin of a Swagger 2.0 pet store with no profile (${store})`, () => {
    it('walks pets by name and their photos as the document says, every JSON answer valid against it', async () => {
      const args = store === 'memory' ? ['--memory'] : ['--data-dir', await makeTempDir()];
      const daemon = await startDaemon({ args });
      const run = await runCli({
        args: ['import', FILE, '--stateful', '--name', 'petstore', '--apply', '--url', daemon.url],
      });
      expect([run.code, run.stderr]).toEqual([0, '']);
      expect(run.stdout).toContain(`collections /pets, ${PHOTOS}`);
      const findings: string[] = [];
      const send = client(daemon, findings);

      // The `in: body` parameter's schema: `name` and `type` required, the answer the pet (201).
      const names = ['Fido', 'Kitty', 'Tweety'];
      for (const [name, type] of [
        ['Fido', 'dog'],
        ['Kitty', 'cat'],
        ['Tweety', 'bird'],
      ] as const) {
        expect(await send('POST', '/pets', '/pets', { name, type, age: 3 })).toMatchObject({
          status: 201,
          body: { name, type, age: 3 },
        });
      }
      expect(await send('POST', '/pets', '/pets', { type: 'dog' })).toEqual({
        status: 400,
        body: { message: 'Missing required param: name.', code: 'parameter_missing' },
      });
      // Keyed by name: a second Fido is refused, the path's name reads the pet.
      expect((await send('POST', '/pets', '/pets', { name: 'Fido', type: 'dog' })).status).toBe(422);
      expect(await send('GET', PET, '/pets/Fido')).toMatchObject({ status: 200, body: { name: 'Fido', type: 'dog' } });
      const listed = await send('GET', '/pets', '/pets');
      expect(listed.status).toBe(200);
      expect((listed.body as { name: string }[]).map((pet) => pet.name)).toEqual(names);

      // The document's update verb (PATCH, answered by `default`): kept and read back.
      expect(await send('PATCH', PET, '/pets/Fido', { name: 'Fido', type: 'dog', age: 4 })).toMatchObject({
        status: 200,
        body: { name: 'Fido', age: 4 },
      });
      expect(await send('GET', PET, '/pets/Fido')).toMatchObject({ status: 200, body: { age: 4 } });

      // Photos below a pet: a multipart form (`in: formData`, a `type: file`), ids 1, 2 (integers).
      for (const [n, label] of ['Front', 'Side'].entries()) {
        expect(await send('POST', PHOTOS, '/pets/Fido/photos', photoForm(label))).toMatchObject({
          status: 200,
          body: { id: n + 1, label },
        });
      }
      const photos = await send('GET', PHOTOS, '/pets/Fido/photos');
      expect((photos.body as { id: number }[]).map((photo) => photo.id)).toEqual([1, 2]);
      expect(await send('GET', PHOTOS, '/pets/Kitty/photos')).toEqual({ status: 200, body: [] });
      const noLabel = new FormData();
      noLabel.set('photo', new Blob(['x']), 'x.jpg');
      expect(await send('POST', PHOTOS, '/pets/Fido/photos', noLabel)).toMatchObject({
        status: 400,
        body: { code: 'parameter_missing' },
      });
      expect((await send('DELETE', `${PHOTOS}/{id}`, '/pets/Fido/photos/1')).status).toBe(200);
      expect(await send('GET', `${PHOTOS}/{id}`, '/pets/Fido/photos/1')).toMatchObject({
        status: 404,
        body: { code: 'resource_missing' },
      });
      expect((await send('GET', PHOTOS, '/pets/Fido/photos')).body).toMatchObject([{ id: 2, label: 'Side' }]);

      // Deleted, then 404 for a read, an update and a delete; the others still listed.
      expect((await send('DELETE', PET, '/pets/Kitty')).status).toBe(200);
      for (const method of ['GET', 'PATCH', 'DELETE']) {
        const gone = await send(
          method,
          PET,
          '/pets/Kitty',
          method === 'PATCH' ? { name: 'Kitty', type: 'cat' } : undefined,
        );
        expect(gone).toEqual({
          status: 404,
          body: { message: "Not found: /pets holds no item 'Kitty'.", code: 'resource_missing' },
        });
      }
      const left = await send('GET', '/pets', '/pets');
      expect((left.body as { name: string }[]).map((pet) => pet.name)).toEqual(['Fido', 'Tweety']);

      expect(findings).toEqual([]);
    });
  });
}
