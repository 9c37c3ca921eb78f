/**
 * The schema of a mock file (`mockpoint.yaml` / `mockpoint.json`), built from
 * the very schemas that validate the admin API (an endpoint's fields, a route,
 * a queued answer), and the JSON Schema generated from it for editors.
 *
 * @module
 */
import { z } from 'zod';
import { chaosSchemas } from '../api/chaos.js';
import { createSchemas, type Schemas } from '../api/schemas.js';
import { NAME_SETTINGS, SETTING_KINDS, settingFile } from '../settings/name-settings.js';

/** The one version of the format there is. */
export const MOCK_FILE_VERSION = 1;

/**
 * Builds the zod schema of a mock file from the API's schemas (a daemon passes
 * its own, so its limits show).
 * @param s the API's schemas @default createSchemas() (the default limits)
 */
export function createMockFileSchema(s: Schemas = createSchemas()) {
  const endpoint = z
    .strictObject({
      name: s.name,
      data: s.record.shape.data.optional().describe('The record\'s body: any JSON value, or { "$file": "./x.json" }.'),
      statusCode: s.record.shape.statusCode.optional().describe('HTTP status of the record, 200-599; default 200.'),
      delay: s.record.shape.delay.optional().describe('Milliseconds before the record answers; default 0.'),
      routes: z.array(s.route).optional().describe('The routes below /endpoint/{name}, first match answers.'),
      queue: z
        .array(s.queueRequest.shape.answers.element)
        .optional()
        .describe('One-shot answers given before routes and record, first first.'),
      collections: z
        .record(s.collectionName, z.unknown())
        .optional()
        .describe(
          'Collections of items by name (each a list of JSON objects, or { "$file": "./users.json" }), also their seed; served by resource routes (docs/state.md).',
        ),
      // Each per-name setting's member, named by its key, as its declaration's export form holds it.
      ...Object.fromEntries(SETTING_KINDS.map((kind) => [NAME_SETTINGS[kind].key, settingFile(kind).member(s)])),
      state: s.states
        .optional()
        .describe(
          'The start of its scenarios, as PUT /api/endpoints/{name}/state sets it: scenario → value; a reset returns here (docs/state.md).',
        ),
    })
    .meta({
      title: 'MockFileEndpoint',
      description:
        "One endpoint: a record (when data, statusCode or delay is given), routes and queued answers, in the API's own shapes.",
    });
  return z
    .strictObject({
      $schema: z.string().optional().describe('The JSON Schema of this file, for editors.'),
      version: z.literal(MOCK_FILE_VERSION).describe('The format version: 1.'),
      endpoints: z.array(endpoint).describe('The endpoints this file defines; names are unique.'),
      chaos: chaosSchemas(s.routeAnswer.shape.latency)
        .settings.optional()
        .describe(
          "The namespace's chaos (PUT /api/chaos): for every endpoint without chaos of its own (docs/chaos.md); removed when taken out of a watched file.",
        ),
    })
    .meta({ title: 'MockFile', description: 'Mock endpoints kept as a file: mockpoint.yaml or mockpoint.json.' });
}

/**
 * The JSON Schema (draft 2020-12) of a mock file, as published in
 * `schema/mockpoint.schema.json` (default limits) and served at `GET /api/config.schema.json`.
 */
export function mockFileJsonSchema(schemas?: Schemas): Record<string, unknown> {
  const { $schema, ...rest } = z.toJSONSchema(createMockFileSchema(schemas), {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  return withFileReferences({ $schema, ...rest });
}

type JsonSchema = Record<string, unknown>;

/** `{ "$file": "…" }`: a file beside the mock file whose content stands in for the value. */
function fileReference(what: string): JsonSchema {
  return {
    type: 'object',
    properties: { $file: { type: 'string', minLength: 1, description: `A path relative to the mock file: ${what}.` } },
    required: ['$file'],
    additionalProperties: false,
  };
}

const FILE_FORMS = {
  body: fileReference('its text, exactly (UTF-8)'),
  bodyBase64: fileReference('its bytes'),
} as const;

/**
 * The API's answer schemas take `body` and `bodyBase64` as strings; in a mock
 * file each may also be `{ "$file": "./x" }` (parse-mock-file.ts reads it), so
 * editors accept what the reader does.
 */
function withFileReferences(schema: JsonSchema): JsonSchema {
  const child = (node: unknown, ...keys: string[]): JsonSchema | undefined => {
    let at = node;
    for (const key of keys) at = (at as JsonSchema | undefined)?.[key];
    return typeof at === 'object' && at !== null ? (at as JsonSchema) : undefined;
  };
  const endpoint = child(schema, 'properties', 'endpoints', 'items', 'properties');
  // A collection is kept as its exact text while the file is read (like data), so the schema the
  // file is checked against takes any value; editors get the shape: a list of objects, or a file.
  const collections = child(endpoint, 'collections');
  if (!collections) throw new Error('the mock file schema has no collections to describe');
  collections.additionalProperties = {
    anyOf: [{ type: 'array', items: { type: 'object' } }, fileReference('a JSON array of objects, read exactly')],
  };
  const answers = [
    child(endpoint, 'routes', 'items', 'properties', 'answer', 'properties'),
    child(endpoint, 'queue', 'items', 'properties'),
  ];
  for (const properties of answers) {
    for (const field of ['body', 'bodyBase64'] as const) {
      const property = child(properties, field);
      if (!properties || !property) throw new Error(`the mock file schema has no answer ${field} to extend`);
      const { description, ...form } = property;
      properties[field] = { description, anyOf: [form, FILE_FORMS[field]] };
    }
  }
  return schema;
}

/** The JSON Schema as the text of the published file (two-space indent, final newline). */
export function mockFileJsonSchemaText(): string {
  return `${JSON.stringify(mockFileJsonSchema(), null, 2)}\n`;
}
