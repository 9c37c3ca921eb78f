// Mock files from disk: `$file` data read exactly from a file beside it, and
// never from outside its folder (a `..` path, an absolute path, a link).
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadMockFile } from './load-mock-file.js';

const root = mkdtempSync(join(tmpdir(), 'mockpoint-load-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const folder = join(root, 'mocks');
mkdirSync(join(folder, 'fixtures'), { recursive: true });
writeFileSync(join(folder, 'fixtures', 'user.json'), '{\n  "id": 12345678901234567890,\n  "e": "\\u00e9"\n}\n');
writeFileSync(join(root, 'secret.json'), '{"secret":true}');
symlinkSync(join(root, 'secret.json'), join(folder, 'fixtures', 'link.json'));

function withData(data: string): string {
  const path = join(folder, `m${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(path, `version: 1\nendpoints:\n  - name: f\n    data: ${data}\n`);
  return path;
}

describe('loadMockFile', () => {
  it('reads $file data exactly, relative to the mock file', () => {
    const file = loadMockFile(withData('{ $file: ./fixtures/user.json }'));
    expect(file.endpoints[0]?.record?.data.text).toBe('{"id":12345678901234567890,"e":"\\u00e9"}');
  });

  it.each([
    ['a path up and out', '{ $file: ../secret.json }'],
    ['an absolute path', `{ $file: ${JSON.stringify(join(root, 'secret.json'))} }`],
    ['a link leading out', '{ $file: ./fixtures/link.json }'],
  ])('refuses %s (FILE_OUTSIDE)', (_what, data) => {
    expect(() => loadMockFile(withData(data))).toThrow(
      expect.objectContaining({
        code: 'MOCK_FILE_INVALID',
        details: expect.objectContaining({ reason: 'FILE_OUTSIDE' }),
      }),
    );
  });

  it('a missing file is MOCK_FILE_UNREADABLE naming it', () => {
    expect(() => loadMockFile(join(folder, 'nope.yaml'))).toThrow(
      expect.objectContaining({ code: 'MOCK_FILE_UNREADABLE', message: expect.stringContaining('nope.yaml') }),
    );
  });
});

describe('loadMockFile of a file that is not a mock file', () => {
  const notes = {
    openapi: '3.0.3',
    info: { title: 'Notes', version: '1' },
    paths: { '/notes': { get: { responses: { '200': { description: 'notes' } } } } },
  };
  function file(name: string, text: string): string {
    const path = join(root, name);
    writeFileSync(path, text);
    return path;
  }

  it.each([
    ['twin.json', JSON.stringify({ document: notes, profile: { ids: 'sequence' } }), 'twin'],
    ['notes twin.yaml', `${JSON.stringify({ document: notes })}\n`, 'notes-twin'],
    ['stripe.json', '{ "provider": "stripe", "unseen": "examples" }', 'stripe'],
  ])(
    'reads the twin setting %s (import --stateful --out) as an endpoint named after it, holding it, and says so',
    (name, text, endpoint) => {
      const notes: string[] = [];
      const loaded = loadMockFile(file(name, text), { onReadAs: (note) => notes.push(note) });
      expect(loaded.endpoints.map((one) => one.name)).toEqual([endpoint]);
      expect(loaded.endpoints[0]?.twin).toEqual(JSON.parse(text));
      expect(loaded.endpoints[0]?.routes).toEqual([]);
      expect(notes).toEqual([
        `${join(root, name)} is a twin setting (as mockpoint import --stateful writes it), not a mock file: read as endpoint "${endpoint}" holding that twin`,
      ]);
    },
  );

  it('a json-server database stays one, and says so; a "document" that is no OpenAPI document is a resource', () => {
    const notes: string[] = [];
    const db = loadMockFile(file('db.json', '{"document":{"title":"x"},"profile":{"name":"p"}}'), {
      onReadAs: (note) => notes.push(note),
    });
    expect(db.endpoints[0]?.twin).toBeUndefined();
    expect(db.endpoints[0]?.routes.map((route) => route.id)).toEqual(['document', 'profile']);
    expect(notes).toEqual([
      `${join(root, 'db.json')} is a json-server database, not a mock file: read as endpoint "db"`,
    ]);
  });

  it('a twin setting with a problem is refused at its own line', () => {
    const path = file('bad-twin.json', '{\n  "document": {"openapi": "3.0.3", "paths": {}},\n  "unseen": "never"\n}\n');
    expect(() => loadMockFile(path)).toThrow(
      expect.objectContaining({ code: 'MOCK_FILE_INVALID', message: expect.stringMatching(/bad-twin\.json:3:/) }),
    );
  });

  it.each([
    [
      'foo.json',
      '{"foo": 1}',
      /foo\.json:1:1: \(document\): not a mock file \(no version or endpoints; its keys: "foo"\)/,
    ],
    ['empty.json', '{}', /not a mock file \(no version or endpoints; it has no keys\)/],
    ['list.json', '[1, 2]', /a mock file is an object/],
    ['openapi.json', JSON.stringify(notes), /an OpenAPI document, not a mock file: make one with mockpoint import/],
    [
      'twin.yaml',
      `document:\n  openapi: 3.0.3\n  paths: {}\n`,
      /a twin setting, not a mock file: one is read as JSON with a provider or an OpenAPI document/,
    ],
  ])('refuses %s in one line that says what it is', (name, text, message) => {
    let thrown: unknown;
    try {
      loadMockFile(file(name, text));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: 'MOCK_FILE_INVALID', message: expect.stringMatching(message) });
    expect((thrown as Error).message).not.toContain('\n');
  });
});
