/**
 * A json-server `db.json` (core's files/json-server-db.ts): collections and
 * resource routes.
 *
 * @module
 */
import { basename } from 'node:path';
import { isJsonServerDb, jsonServerMockFile } from '@mockpoint/core/files';
import { UsageError } from '../command-args.js';
import type { Importer } from './importer.js';

export const jsonServer: Importer = {
  kind: 'json-server',
  help: `With --from json-server (or a JSON file that is plainly a json-server database: an object of arrays
and objects), each array becomes a collection, kept byte for byte, served in json-server's
conventions by a resource route at /endpoint/<name>/<collection> (docs/state.md); each object
(a singular resource such as "profile") is answered by a GET route with it as data.`,
  options: `
--id <field> | json-server: the field that holds each item's id (default: id)
`,
  detect: (source) => !source.dir && source.path.endsWith('.json') && isJsonServerDb(source.text()),
  async convert(source, { name, values }) {
    const idField = values.get('--id');
    if (idField !== undefined && (idField.length === 0 || idField.length > 64)) {
      throw new UsageError('--id is the name of a field: 1-64 characters');
    }
    const imported = jsonServerMockFile(source.text(), { name, idField, file: basename(source.path) });
    return {
      mockFile: imported.text,
      leftOut: imported.skipped,
      summary: `${imported.collections.length} collection(s) (${imported.collections.join(', ') || 'none'}) and ${imported.singular.length} singular resource(s) as endpoint ${name}`,
    };
  },
};
