/**
 * WireMock (core's files/wiremock-mock-file.ts): a mapping file,
 * `{ "mappings": [...] }`, or the folder WireMock runs from (`mappings/` and
 * `__files/`, as its recorder writes them). Bodies are read from `__files/`
 * only: a `bodyFileName` that leads outside it (`..`, an absolute path, a
 * link) is left out.
 *
 * @module
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { DEFAULT_MAX_BODY_BYTES } from '@mockpoint/core/defaults';
import { isWireMock, ReadInsideError, readInside, type WireMockFile, wireMockMockFile } from '@mockpoint/core/files';
import { MockpointError } from '@mockpoint/core/internal';
import type { Importer } from './importer.js';

/** Mapping files read from one folder at most. */
const MAX_FILES = 20_000;

/** The `mappings/` folder of a WireMock root (or the folder itself when it is one). */
function mappingsDir(dir: string): string | undefined {
  if (statSync(join(dir, 'mappings'), { throwIfNoEntry: false })?.isDirectory()) return join(dir, 'mappings');
  return basename(resolve(dir)) === 'mappings' ? dir : undefined;
}

/** Every `.json` file below `dir`, sorted by path (WireMock loads subfolders too). */
function jsonFiles(dir: string): string[] {
  const found = (readdirSync(dir, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((entry) => entry.isFile() && entry.name.toLowerCase().endsWith('.json'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
  if (found.length > MAX_FILES) {
    throw new MockpointError('INVALID_WIREMOCK', `${dir}: ${found.length} mapping files, more than ${MAX_FILES}`);
  }
  return found;
}

/** A reader of `__files/<name>` that never leaves `__files/` (core's readInside, as every importer). */
function bodyFileReader(filesDir: string): (name: string) => Uint8Array | string {
  return (name) => {
    try {
      return readInside(filesDir, name, DEFAULT_MAX_BODY_BYTES, { where: '__files/' });
    } catch (error) {
      if (error instanceof ReadInsideError) return error.why;
      throw error;
    }
  };
}

export const wiremock: Importer = {
  kind: 'wiremock',
  help: `With --from wiremock (or a mapping file, { "mappings": [...] }, or the folder WireMock runs from,
with mappings/ and __files/ as its recorder writes them), each stub mapping becomes a route: method,
URL, query, header and cookie conditions (exact, contains, regular expressions), exact and JSON
bodies, status, headers, body bytes (bodyFileName from __files/), fixed delay, faults, and scenarios
as state machines; a condition with no equivalent leaves its mapping out, named (docs/import.md).`,
  options: '',
  detect: (source) =>
    source.dir ? mappingsDir(source.path) !== undefined : /\.json$/i.test(source.path) && isWireMock(source.text()),
  async convert(source, { name }) {
    let files: WireMockFile[];
    let bodyFile: ((name: string) => Uint8Array | string) | undefined;
    if (source.dir) {
      const mappings = mappingsDir(source.path);
      if (mappings === undefined) {
        throw new MockpointError(
          'INVALID_WIREMOCK',
          `${source.path}: no mappings/ folder (WireMock's --root-dir holds one)`,
        );
      }
      files = jsonFiles(mappings).map((file) => ({
        file: relative(source.path, file) || basename(file),
        text: readFileSync(file, 'utf8'),
      }));
      bodyFile = bodyFileReader(join(mappings, '..', '__files'));
    } else files = [{ file: basename(source.path), text: source.text() }];
    const imported = wireMockMockFile(files, { name, ...(bodyFile && { bodyFile }) });
    const scenarios = imported.scenarios.length > 0 ? `, scenarios ${imported.scenarios.join(', ')}` : '';
    return {
      mockFile: imported.text,
      leftOut: imported.skipped,
      checked: imported.parsed,
      summary: `${imported.routes} of ${imported.mappings} mapping(s) as routes of endpoint ${name}${scenarios}`,
    };
  },
};
