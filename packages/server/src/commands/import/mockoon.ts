/**
 * A Mockoon environment (core's files/mockoon-environment.ts): routes, rules,
 * response modes, templates, data buckets and CRUD routes; files a response
 * serves are read relative to the environment file, inside its folder only
 * (an absolute `filePath`, one with `..` out, or a link out is left out, named).
 *
 * @module
 */
import { basename, dirname, resolve } from 'node:path';
import { DEFAULT_MAX_BODY_BYTES } from '@mockpoint/core/defaults';
import { isMockoonEnvironment, mockoonMockFile, ReadInsideError, readInside } from '@mockpoint/core/files';
import type { Importer } from './importer.js';

export const mockoon: Importer = {
  kind: 'mockoon',
  help: `With --from mockoon (or a .json file that is plainly a Mockoon environment), each route's responses
become routes in Mockoon's order: the responses with rules (equals on a query parameter, header,
route parameter, method, path or body field; AND merged, OR one route each), then the default; a
sequential (or random) route answers its responses in turn. Handlebars helpers with a placeholder
here (urlParam, queryParam, header, body, uuid, now) are carried over; data buckets become
collections and CRUD routes resource routes. Files are read relative to the environment file,
inside its folder only (docs/import.md).`,
  options: '',
  detect: (source) => !source.dir && /\.json$/i.test(source.path) && isMockoonEnvironment(source.text()),
  async convert(source, { name }) {
    const dir = dirname(resolve(source.path));
    const imported = mockoonMockFile(source.text(), {
      name,
      file: basename(source.path),
      readFile: (filePath) => {
        try {
          return readInside(dir, filePath, DEFAULT_MAX_BODY_BYTES, { where: "the environment's folder" });
        } catch (error) {
          if (error instanceof ReadInsideError) return error.why;
          throw error;
        }
      },
    });
    const collections =
      imported.collections.length === 0
        ? ''
        : ` and ${imported.collections.length} collection(s) (${imported.collections.join(', ')})`;
    return {
      mockFile: imported.text,
      leftOut: imported.leftOut,
      summary: `${imported.routes} route(s)${collections} as endpoint ${name}`,
    };
  },
};
