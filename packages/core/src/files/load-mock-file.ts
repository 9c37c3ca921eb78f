/**
 * A mock file read from disk (Node): its text, and the `$file` references it
 * makes, each inside the mock file's own folder.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, extname, resolve } from 'node:path';
import { MockpointError } from '../registry/errors.js';
import { DEFAULT_MAX_BODY_BYTES } from '../registry/limits.js';
import { isJsonServerDb, jsonServerMockFile } from './json-server-db.js';
import { type MockFile, type ParseMockFileOptions, parseMockFile } from './parse-mock-file.js';
import { readInside } from './read-inside.js';
import { isTwinSettingText, twinSettingMockFile } from './twin-setting-file.js';
import { decodeStrictUtf8, InvalidUtf8Error } from './utf8.js';

/** Options for {@link loadMockFile}: the limits of {@link parseMockFile}, and who hears of `$file` reads. */
export interface LoadMockFileOptions extends Pick<ParseMockFileOptions, 'maxBodyBytes' | 'maxRoutes'> {
  /**
   * Called with the absolute path of each `$file` fixture read (also when the
   * file turns out to be bad): a watcher watches these too.
   * @default undefined
   */
  onFileRead?: (absolutePath: string) => void;
  /**
   * Called with a sentence when the file is not a mock file but is read as one (a json-server
   * database, a twin setting), naming the endpoint it makes: a daemon says so at start.
   * @default undefined
   */
  onReadAs?: (note: string) => void;
}

/** The line and column (both from 1, the column in bytes) of byte `offset`. */
function bytePosition(bytes: Uint8Array, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1 };
}

/** The endpoint name a json-server database or twin setting file gives: its name without its extension, within the name rule. */
function nameOf(path: string): string {
  const name = basename(path, extname(path))
    .replace(/[^A-Za-z0-9_-]/g, '-')
    .slice(0, 64);
  return name === '' ? 'db' : name;
}

/**
 * Reads and checks the mock file at `path` (`.json` is read as JSON, anything
 * else as YAML); messages name it as given. A `.json` file that is a
 * json-server database (an object of arrays and objects) is read as the mock
 * file `mockpoint import --from json-server` makes of it, its endpoint named
 * after the file (`db.json` → `db`). A twin setting as JSON (what `mockpoint
 * import --stateful --out twin.json` writes) is read as one endpoint holding that
 * twin, named after the file too (`twin.json` → `twin`).
 * @throws MockpointError `MOCK_FILE_UNREADABLE`, `MOCK_FILE_SYNTAX` or `MOCK_FILE_INVALID`
 * @example const file = loadMockFile('mockpoint.yaml')
 */
export function loadMockFile(path: string, options: LoadMockFileOptions = {}): MockFile {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
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
  let text: string;
  try {
    text = decodeStrictUtf8(bytes);
  } catch (error) {
    if (!(error instanceof InvalidUtf8Error)) throw error;
    const { line, column } = bytePosition(bytes, error.offset);
    throw new MockpointError(
      'MOCK_FILE_SYNTAX',
      `${path}:${line}:${column}: byte ${error.offset} is not valid UTF-8; save the file as UTF-8`,
      { details: { file: path, line, column, offset: error.offset, reason: 'INVALID_UTF8' } },
    );
  }
  const { onFileRead, onReadAs, ...limits } = options;
  let format: 'json' | undefined;
  // A twin setting (import --stateful --out, JSON whatever the file's name) is the endpoint holding that twin.
  if (isTwinSettingText(text)) {
    const name = nameOf(path);
    text = twinSettingMockFile(text, name);
    format = 'json';
    onReadAs?.(
      `${path} is a twin setting (as mockpoint import --stateful writes it), not a mock file: read as endpoint "${name}" holding that twin`,
    );
  } else if (path.endsWith('.json') && isJsonServerDb(text)) {
    // A json-server database (db.json) is read as the mock file it imports to: one endpoint named after the file.
    const name = nameOf(path);
    text = jsonServerMockFile(text, { name, file: path }).text;
    onReadAs?.(`${path} is a json-server database, not a mock file: read as endpoint "${name}"`);
  }
  const folder = dirname(resolve(path));
  const maxBytes = limits.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  return parseMockFile(text, {
    ...limits,
    ...(format === undefined ? {} : { format }),
    file: path,
    readFile: (ref) =>
      readInside(folder, ref, maxBytes, { where: "the mock file's folder", ...(onFileRead && { onFileRead }) }),
  });
}
