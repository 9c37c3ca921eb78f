// loadOpenApi on real files in a temp folder: `$ref`s into files of the
// document's folder (and below) are read; a `$ref` that leaves the folder (`..`,
// an absolute path, a URL, a link that leads out) is refused, naming the `$ref`.

import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadOpenApi } from './load-openapi.js';

const root = mkdtempSync(join(tmpdir(), 'mockpoint-openapi-refs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const secret = join(root, 'secret.yaml');
writeFileSync(secret, 'token: hunter2\n');
const api = join(root, 'api');
mkdirSync(join(api, 'schemas'), { recursive: true });
writeFileSync(join(api, 'schemas', 'pet.yaml'), 'Pet:\n  type: object\n  example: { id: 7 }\n');
writeFileSync(join(api, '..shared.yaml'), 'Pet: { type: string }\n');
symlinkSync(secret, join(api, 'linked.yaml'));
symlinkSync(api, join(root, 'api-link'));

/** Writes `openapi.yaml` into `api/` whose one response is `{ $ref: ref }`; returns its path. */
function documentWith(ref: string, name = 'openapi.yaml'): string {
  const path = join(api, name);
  writeFileSync(
    path,
    [
      'openapi: 3.0.3',
      'info: { title: t, version: "1" }',
      'paths:',
      '  /pets/{id}:',
      '    get:',
      '      responses:',
      "        '200':",
      '          content:',
      '            application/json:',
      `              schema: { $ref: '${ref}' }`,
      '',
    ].join('\n'),
  );
  return path;
}

const schemaOf = (doc: Record<string, unknown>) =>
  (
    doc as {
      paths: {
        '/pets/{id}': { get: { responses: { 200: { content: { 'application/json': { schema: unknown } } } } } };
      };
    }
  ).paths['/pets/{id}'].get.responses[200].content['application/json'].schema;

describe('loadOpenApi: file references stay in the document folder', () => {
  it('reads a $ref into a file below the document, also when the folder is reached through a link', async () => {
    const path = documentWith('schemas/pet.yaml#/Pet', 'inside.yaml');
    expect(schemaOf(await loadOpenApi(path))).toEqual({ type: 'object', example: { id: 7 } });
    expect(schemaOf(await loadOpenApi(join(root, 'api-link', 'inside.yaml')))).toEqual({
      type: 'object',
      example: { id: 7 },
    });
  });

  it('reads a file whose name starts with two dots: it is in the folder', async () => {
    expect(schemaOf(await loadOpenApi(documentWith('..shared.yaml#/Pet', 'dots.yaml')))).toEqual({ type: 'string' });
  });

  it('names a refused $ref quoted, cut at 200 characters, in printable ASCII', async () => {
    const ref = `../${'x'.repeat(500)}.yaml#/a`;
    const error = (await loadOpenApi(documentWith(ref, 'long.yaml')).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/^\$ref "\.\.\/x{197}" is outside the document's folder/);
    const odd = (await loadOpenApi(documentWith('../a\u2028b\u202ec.yaml', 'odd.yaml')).catch(
      (e: unknown) => e,
    )) as Error;
    expect(odd.message).toMatch(/^\$ref "\.\.\/a\\u2028b\\u202ec\.yaml" is outside/);
  });

  it.each([
    ['a .. path', '../secret.yaml#/token', /is outside the document's folder/],
    ['a deeper .. path', 'schemas/../../secret.yaml#/token', /is outside the document's folder/],
    ['an absolute path', `${secret}#/token`, /absolute paths and URLs are not read/],
    ['a file: URL', `file://${secret}#/token`, /absolute paths and URLs are not read/],
    ['an https URL', 'https://example.com/x.yaml#/token', /absolute paths and URLs are not read/],
    ['a link that leads out', 'linked.yaml#/token', /leads outside the document's folder .* through a link/],
  ])('refuses %s', async (_what, ref, message) => {
    const error = await loadOpenApi(documentWith(ref)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toContain(JSON.stringify(ref));
    expect((error as Error).message).not.toContain('hunter2');
  });
});
