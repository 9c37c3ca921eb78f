/**
 * A json-server database (`db.json`) as a mock file: one endpoint whose
 * collections are the database's arrays, each kept as its exact text and
 * served by a `resource` route at `/<collection>` (docs/state.md), and whose
 * singular resources (a top-level object, `"profile": {…}`) are answered by a
 * `GET` route with that object as its exact `data`. `mockpoint import db.json
 * --from json-server` writes it; a daemon's `--config db.json` reads it.
 *
 * @module
 */

import { JsonSyntaxError, scanJson } from '../codec/json-text.js';
import { COLLECTION_NAME } from '../collections/collection-store.js';
import { MockpointError } from '../registry/errors.js';
import type { LeftOut } from './left-out.js';
import { MOCK_FILE_VERSION } from './mock-file-schema.js';

/** Options for {@link jsonServerMockFile}. */
export interface JsonServerImportOptions {
  /** The endpoint's name. */
  name: string;
  /** The field that holds each item's id (json-server's `--id`). @default 'id' */
  idField?: string;
  /** The database's file name, for messages. @default 'db.json' */
  file?: string;
}

/** What {@link jsonServerMockFile} made, and what it left out (a sentence each). */
export interface JsonServerImport {
  /** The mock file, as JSON text: collections and singular resources byte for byte as in the database. */
  text: string;
  collections: string[];
  singular: string[];
  skipped: LeftOut[];
}

/** The top-level members of `text` when it is a JSON object, else `undefined` (not JSON, or not an object). */
function membersOf(text: string): ReadonlyMap<string, string> | undefined {
  try {
    return scanJson(text).members;
  } catch (error) {
    if (error instanceof JsonSyntaxError) return undefined;
    throw error;
  }
}

/**
 * Whether `text` looks like a json-server database rather than a mock file or
 * an OpenAPI document: a JSON object with at least one member, every member an
 * array or an object, and none of a mock file's or OpenAPI's own keys.
 */
export function isJsonServerDb(text: string): boolean {
  const members = membersOf(text);
  if (members === undefined || members.size === 0) return false;
  for (const key of ['version', 'endpoints', 'openapi', 'swagger']) if (members.has(key)) return false;
  return [...members.values()].every((value) => value.startsWith('[') || value.startsWith('{'));
}

/**
 * The mock file of a json-server database.
 * @throws MockpointError `INVALID_COLLECTION` when the text is not a JSON object, or an array
 *   member's name does not fit a collection name (1–64 of `A-Z a-z 0-9 _ -`).
 */
export function jsonServerMockFile(text: string, options: JsonServerImportOptions): JsonServerImport {
  const file = options.file ?? 'db.json';
  const members = membersOf(text);
  if (members === undefined) {
    throw new MockpointError(
      'INVALID_COLLECTION',
      `${file}: a json-server database is one JSON object, e.g. {"posts":[…]}`,
    );
  }
  const idField = options.idField ?? 'id';
  const routes: string[] = [];
  const collections: [string, string][] = [];
  const singular: string[] = [];
  const skipped: LeftOut[] = [];
  for (const [key, value] of members) {
    if (!value.startsWith('[') && !value.startsWith('{')) {
      skipped.push({ what: `"${key}"`, why: 'neither an array nor an object (json-server serves no route for it)' });
      continue;
    }
    if (!COLLECTION_NAME.test(key)) {
      throw new MockpointError(
        'INVALID_COLLECTION',
        `${file}: "${key}" cannot be a collection or route name here (1-64 of A-Z a-z 0-9 _ -); rename it in a copy of the database`,
        { details: { collection: key } },
      );
    }
    const match = JSON.stringify({ path: `/${key}` });
    if (value.startsWith('[')) {
      const resource = idField === 'id' ? JSON.stringify(key) : JSON.stringify({ collection: key, idField });
      routes.push(`{"id":${JSON.stringify(key)},"match":${match},"answer":{"resource":${resource}}}`);
      collections.push([key, value]);
    } else {
      const get = JSON.stringify({ method: 'GET', path: `/${key}` });
      routes.push(`{"id":${JSON.stringify(key)},"match":${get},"answer":{"data":${value}}}`);
      singular.push(key);
    }
  }
  const indent = (lines: string[], pad: string) => lines.map((line) => `${pad}${line}`).join(',\n');
  const body = [
    `      "name": ${JSON.stringify(options.name)}`,
    `      "routes": [\n${indent(routes, '        ')}\n      ]`,
    ...(collections.length === 0
      ? []
      : [
          `      "collections": {\n${indent(
            collections.map(([key, items]) => `${JSON.stringify(key)}: ${items}`),
            '        ',
          )}\n      }`,
        ]),
  ];
  const out = `{\n  "version": ${MOCK_FILE_VERSION},\n  "endpoints": [\n    {\n${body.join(',\n')}\n    }\n  ]\n}\n`;
  return { text: out, collections: collections.map(([key]) => key), singular, skipped };
}
