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
