/**
 * A route's request validation as it crosses the wire: which parts of a
 * request (the JSON body, the query, the path parameters, the headers) must
 * fit which JSON Schema (2020-12), and what a request that does not fit gets:
 * `report` answers as usual and marks the journal entry with the errors,
 * `enforce` answers `400 REQUEST_INVALID` with them. `mockpoint import
 * --validate` fills it in from an OpenAPI document; a hand-written route may
 * carry it too. The validator itself is in answer/routes/request-validator.ts.
 *
 * @module
 */
import { z } from 'zod';
import { onFirstUse } from '../cache/on-first-use.js';
import { schemaProblem } from './schema-check.js';

/**
 * What a request that does not fit gets: `report` answers normally and journals the
 * errors; `enforce` answers 400; `off` checks nothing (the schemas kept, to turn back on).
 */
export const VALIDATION_MODES = ['off', 'report', 'enforce'] as const;

/** The parts of a request a route may check, as an error's `in` names them. */
export const VALIDATION_PARTS = ['body', 'query', 'params', 'headers'] as const;

/** One of {@link VALIDATION_PARTS}. */
export type ValidationPart = (typeof VALIDATION_PARTS)[number];

/** The most errors one request is marked (or refused) with; the rest are counted, not listed. */
export const MAX_VALIDATION_ERRORS = 20;

/** A JSON Schema (2020-12): an object, or `true`/`false`. */
export type JsonSchema = Record<string, unknown> | boolean;

/**
 * What a route checks a request against before answering it.
 * @example { mode: 'enforce', body: { type: 'object', required: ['name'] }, query: { type: 'object', properties: { limit: { type: 'integer' } } } }
 */
export interface RouteValidation {
  /** `report`: answer as usual, the journal entry lists the errors; `enforce`: answer `400 REQUEST_INVALID`; `off`: no check. */
  mode: (typeof VALIDATION_MODES)[number];
  /**
   * The schema of the body parsed as JSON (a body whose Content-Type is not JSON is
   * checked only when it parses as JSON all the same). An empty body passes unless `bodyRequired`.
   */
  body?: JsonSchema;
  /** Refuse an empty body. @default false */
  bodyRequired?: boolean;
  /**
   * The schema of the query as an object (a repeated key is an array); each value,
   * a string, is first read as the type its property's schema names (integer,
   * number, boolean, array).
   */
  query?: JsonSchema;
  /** The schema of the route pattern's parameters as an object (`/pets/:id` → `{ id }`), values read as for `query`. */
  params?: JsonSchema;
  /** The schema of the headers as an object, lower-case names (values read as for `query`). */
  headers?: JsonSchema;
}

/** One way a request did not fit. */
export interface ValidationIssue {
  in: ValidationPart;
  /** A JSON Pointer into that part (`/items/0/id`); `''` for the part itself. */
  path: string;
  message: string;
}

/** What a journal entry says of a checked request: no errors when it fits. */
export interface ValidationMark {
  /** At most {@link MAX_VALIDATION_ERRORS}. */
  errors: ValidationIssue[];
  /** Present when there were more errors than listed: how many in all. */
  total?: number;
}

/** Keywords whose values are data, not schemas: a `$ref` inside them is not a reference. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples', 'example']);
/** Keywords whose values map names to schemas (a property may be called `default`). */
const NAMED_SCHEMAS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/** The value at a JSON Pointer fragment (`#/$defs/pet`) of `root`, or `undefined`. */
function atPointer(root: unknown, fragment: string): unknown {
  let at: unknown = root;
  for (const raw of fragment.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (at === null || typeof at !== 'object' || !Object.hasOwn(at, key)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/**
 * The first `$ref` of the form `#/…` that points at nothing, so a typo is refused when
 * the route is saved rather than reported with every request. A pointer is resolved in
 * the nearest enclosing schema with an `$id` (or the root); other references (anchors,
 * other documents) are left to the validator.
 */
export function unresolvedLocalRef(schema: unknown): string | undefined {
  const walk = (node: unknown, root: unknown, names = false): string | undefined => {
    if (node === null || typeof node !== 'object') return undefined;
    if (Array.isArray(node)) {
      for (const item of node) {
        const found = walk(item, root);
        if (found !== undefined) return found;
      }
      return undefined;
    }
    const object = node as Record<string, unknown>;
    const base = !names && typeof object.$id === 'string' ? object : root;
    const ref = object.$ref;
    if (!names && typeof ref === 'string' && ref.startsWith('#/') && atPointer(base, ref) === undefined) return ref;
    for (const [key, value] of Object.entries(object)) {
      if (!names && DATA_KEYWORDS.has(key)) continue;
      const found = walk(value, base, !names && NAMED_SCHEMAS.has(key));
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return walk(schema, schema);
}

/** A JSON Schema as a route's `validate` takes it: built on its first use (docs/performance.md, "Ready"). */
const jsonSchema = onFirstUse(() =>
  z
    .union([z.boolean(), z.record(z.string(), z.unknown())])
    .superRefine((value, ctx) => {
      const ref = unresolvedLocalRef(value);
      if (ref !== undefined) {
        ctx.addIssue({ code: 'custom', message: `$ref "${ref}" points at nothing in this schema` });
        return;
      }
      const problem = schemaProblem(value);
      if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
    })
    .describe('A JSON Schema (2020-12): an object, or true/false.'),
);

/** The zod schemas of a route's `validate`, for the API's validation and its OpenAPI document: built on their first use. */
export const routeValidationSchemas = onFirstUse(() => ({
  validate: z
    .strictObject({
      mode: z
        .enum(VALIDATION_MODES)
        .describe(
          'report: answer as usual and list the errors in the journal entry (validation.errors); enforce: answer 400 REQUEST_INVALID with them; off: check nothing (the schemas are kept).',
        ),
      body: jsonSchema()
        .optional()
        .describe('The schema of the JSON body (sent as another Content-Type, checked only when it parses as JSON).'),
      bodyRequired: z.boolean().optional().describe('Refuse an empty body; default false.'),
      query: jsonSchema()
        .optional()
        .describe('The schema of the query as an object; values are read as their property says (integer, …).'),
      params: jsonSchema().optional().describe("The schema of the path pattern's parameters as an object."),
      headers: jsonSchema().optional().describe('The schema of the headers as an object (lower-case names).'),
    })
    .meta({
      title: 'RouteValidation',
      description: 'Check each request this route answers against JSON Schemas (see docs/files.md).',
    }),
  mark: z
    .object({
      errors: z
        .array(
          z.object({
            in: z.enum(VALIDATION_PARTS),
            path: z.string().describe("A JSON Pointer into that part; '' for the part itself."),
            message: z.string(),
          }),
        )
        .describe(`What did not fit (at most ${MAX_VALIDATION_ERRORS}); empty when the request fits.`),
      total: z.number().int().optional().describe('How many errors in all, when more than listed.'),
    })
    .describe("Present when the route that answered validates requests: the request's errors."),
}));
