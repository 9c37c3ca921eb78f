// The one reader of files an input names, on real files, links and a FIFO: inside the folder it reads,
// outside it (absolute, `..`, a link to a file or a folder out, NUL) nothing is read.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ReadInsideError, readInside } from './read-inside.js';

const root = mkdtempSync(join(tmpdir(), 'mockpoint-inside-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const folder = join(root, 'env');
mkdirSync(join(folder, 'sub'), { recursive: true });
mkdirSync(join(root, 'out'));
writeFileSync(join(folder, 'ok.txt'), 'inside');
writeFileSync(join(folder, 'sub', 'deep.txt'), 'deeper');
writeFileSync(join(folder, '..dots.txt'), 'dots');
writeFileSync(join(root, 'secret.txt'), 'OUTSIDE');
writeFileSync(join(root, 'out', 'x.txt'), 'OUTSIDE');
symlinkSync(join(root, 'secret.txt'), join(folder, 'link.txt'));
symlinkSync(join(root, 'out'), join(folder, 'dirlink'));
symlinkSync(join(folder, 'ok.txt'), join(folder, 'sub', 'in-link.txt'));
execFileSync('mkfifo', [join(folder, 'fifo')]);

const where = "the environment's folder";
const read = (name: string, max = 1024) => readInside(folder, name, max, { where });
const refusal = (name: string, max = 1024): ReadInsideError => {
  try {
    read(name, max);
  } catch (error) {
    if (error instanceof ReadInsideError) return error;
    throw error;
  }
  throw new Error(`${name} was read`);
};

describe('readInside', () => {
  it('reads a file inside, below, named with two leading dots, and a link that stays inside', () => {
    expect(Buffer.from(read('ok.txt')).toString()).toBe('inside');
    expect(Buffer.from(read('./sub/../sub/deep.txt')).toString()).toBe('deeper');
    expect(Buffer.from(read('..dots.txt')).toString()).toBe('dots');
    expect(Buffer.from(read('sub/in-link.txt')).toString()).toBe('inside');
  });

  it.each([
    [
      'an absolute path',
      join(root, 'secret.txt'),
      /^".*secret\.txt" is an absolute path; names stay inside the environment's folder \(/,
    ],
    ['/etc/passwd', '/etc/passwd', /is an absolute path/],
    [
      'a path up and out',
      '../secret.txt',
      /^"\.\.\/secret\.txt" is outside the environment's folder \(.*\); names stay inside it$/,
    ],
    ['a deeper path out', 'sub/../../secret.txt', /is outside the environment's folder/],
    ['the folder itself', '.', /is outside the environment's folder/],
    ['a link to a file out', 'link.txt', /^"link\.txt" leads outside the environment's folder \(.*\) through a link$/],
    [
      'a path through a link to a folder out',
      'dirlink/x.txt',
      /leads outside the environment's folder .* through a link$/,
    ],
    ['a NUL', 'ok.txt\0', /is not a file name/],
  ])('refuses %s (FILE_OUTSIDE), naming it', (_what, name, message) => {
    const error = refusal(name);
    expect(error.code).toBe('FILE_OUTSIDE');
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain('OUTSIDE');
  });

  it('names a refused path in printable ASCII, cut at 200 characters', () => {
    const error = refusal(`/\u2028\u202e${'x'.repeat(300)}`);
    expect(error.message).toMatch(/^"\/\\u2028\\u202ex{197}" is an absolute path/);
    expect(error.message).toMatch(/^[\x20-\x7e]+$/);
  });

  it('refuses a FIFO without waiting on it, a file over the size, and a missing file', () => {
    expect(refusal('fifo')).toMatchObject({ code: 'FILE_UNREADABLE', why: 'is not a regular file' });
    expect(refusal('ok.txt', 3)).toMatchObject({ code: 'BODY_TOO_LARGE' });
    expect(refusal('missing.txt')).toMatchObject({ code: 'FILE_UNREADABLE', why: 'cannot be read (ENOENT)' });
  });
});
