/**
 * A Postman collection v2.1 (core's files/postman-collection.ts): each
 * request's saved examples as routes answering them byte for byte.
 *
 * @module
 */
import { basename } from 'node:path';
import { isPostmanCollection, postmanMockFile } from '@mockpoint/core/files';
import type { Importer } from './importer.js';

export const postman: Importer = {
  kind: 'postman',
  help: `With --from postman (or a .json file that is plainly a Postman collection v2.1), each request's
saved example responses become routes answering them byte for byte, at the request URL's path
(the collection's variables put in, :variables as route parameters), the folders kept in the
route ids; several examples of one request are told apart by the query and body each was saved
with (docs/import.md).`,
  options: '',
  detect: (source) =>
    !source.dir && /\.(json|postman_collection)$/i.test(source.path) && isPostmanCollection(source.text()),
  async convert(source, { name }) {
    const imported = postmanMockFile(source.text(), { name, file: basename(source.path) });
    return {
      mockFile: imported.text,
      leftOut: imported.leftOut,
      summary: `${imported.imported} of ${imported.requests} request(s) as ${imported.routes} route(s) of endpoint ${name}`,
    };
  },
};
