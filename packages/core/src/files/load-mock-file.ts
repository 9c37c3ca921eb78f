/**
 * A mock file read from disk (Node): its text, and the `$file` references it
 * makes, each inside the mock file's own folder.
 *
 * @module
 */
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { MockpointError } from '../wire/errors.js';
import { type MockFile, type ParseMockFileOptions, parseMockFile } from './parse-mock-file.js';

/** Options for {@link loadMockFile}: the limits of {@link parseMockFile}, and who hears of `$file` reads. */
export interface LoadMockFileOptions extends Pick<ParseMockFileOptions, 'maxBodyBytes' | 'maxRoutes'> {
  /**
   * Called with the absolute path of each `$file` fixture read (also when the
   * file turns out to be bad): a watcher watches these too.
   * @default undefined
   */
  onFileRead?: (absolutePath: string) => void;
}

/** A `$file` reference that leaves the mock file's folder. */
class OutsideError extends Error {
  readonly code = 'FILE_OUTSIDE';
}

/** Reads `ref` relative to `folder`, refusing any path (or link) that leads outside it. */
function readInside(folder: string, ref: string, onFileRead?: (absolutePath: string) => void): string {
  const root = realpathSync(folder);
  const target = resolve(root, ref);
  const outside = (path: string) => {
    const rel = relative(root, path);
    return rel === '' || rel.startsWith('..') || isAbsolute(rel);
  };
  if (isAbsolute(ref) || outside(target)) {
    throw new OutsideError(`${ref} is outside the mock file's folder (${root}); $file paths stay inside it`);
  }
  onFileRead?.(target);
  let real: string;
  try {
    real = realpathSync(target);
  } catch (error) {
    throw new Error(`cannot read ${ref}: ${(error as Error).message}`);
  }
  if (outside(real)) {
    throw new OutsideError(`${ref} leads outside the mock file's folder (${root}) through a link`);
  }
  if (real !== target) onFileRead?.(real);
  return readFileSync(real, 'utf8');
}

/**
 * Reads and checks the mock file at `path` (`.json` is read as JSON, anything
 * else as YAML); messages name it as given.
 * @throws MockpointError `MOCK_FILE_UNREADABLE`, `MOCK_FILE_SYNTAX` or `MOCK_FILE_INVALID`
 * @example const file = loadMockFile('mockpoint.yaml')
 */
export function loadMockFile(path: string, options: LoadMockFileOptions = {}): MockFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new MockpointError(
      'MOCK_FILE_UNREADABLE',
      `${path}: cannot read the mock file: ${(error as Error).message}`,
      {
        details: { file: path },
        cause: error,
      },
    );
  }
  const folder = dirname(resolve(path));
  const { onFileRead, ...limits } = options;
  return parseMockFile(text, { ...limits, file: path, readFile: (ref) => readInside(folder, ref, onFileRead) });
}
