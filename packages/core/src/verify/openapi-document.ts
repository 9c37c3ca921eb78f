/**
 * An OpenAPI 3.0 or 3.1 document made ready for `POST /api/verify`: read from
 * its text (JSON, or YAML) or taken as an object, checked to be one, its
 * schemas rewritten into JSON Schema 2020-12 (openapi/openapi-schema.ts) and made
 * one {@link SchemaProgram}, so every `#/components/…` reference is resolved by
 * the validator's own resolver (and a recursive schema stays recursive). Its
 * paths are kept by their shape, parameters blanked (`/pets/\0`), to find the
 * operation of a route's path; each path item is rewritten and added to the
 * program when a route first needs it (a large document's work is spread over
 * the routes, between which verify yields).
 *
 * @module
 */
import { dereference, encodePointer, initialBaseURI, type Schema } from '@cfworker/json-schema';
import { parse } from 'yaml';
import { SchemaProgram } from '../answer/routes/json-schema/schema-program.js';
import { quoted } from '../codec/quoted.js';
import { toJsonSchema } from '../openapi/openapi-schema.js';
import { MockpointError } from '../registry/errors.js';
import type { TurnBudget } from '../turns/turn-budget.js';

type Json = Record<string, unknown>;

/** The methods an OpenAPI path item may have. */
export const OPENAPI_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** `$ref`s followed one after another (to a response, a header) at most. */
const MAX_REF_HOPS = 16;

/** A placeholder for a parameter in a path's shape: never in a decoded segment's literal text. */
export const PARAM = '\u0000';

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One path of the document. */
export interface DocumentPath {
  /** As the document writes it: `/pets/{petId}`. */
  template: string;
  /** Its path item, schemas rewritten (on first use); `undefined` when it is not one. */
  item(): Json | undefined;
  /** Its path item as the document writes it (a `$ref` not followed). */
  raw: unknown;
}

/** A document ready to verify routes against. */
export interface OpenApiDocument {
  openapi: string;
  title: string;
  version: string;
  /** The schemas of the document (its components, and each path item once used). */
  program: SchemaProgram;
  /** `{ components }` rewritten as JSON Schema: what `#/components/…` references point into. */
  root: Json;
  /** By shape (`/pets/{}`), each shape's paths. */
  paths: Map<string, DocumentPath[]>;
  /** The path parts of the document's `servers` URLs (`/v1`), longest first; routes may include one. */
  basePaths: string[];
  /** The document as given (parsed): request schemas are read from it (verify/request-schemas.ts). */
  source: Json;
  /** An OpenAPI 3.0 document: its schemas are draft 4's dialect (`nullable`). */
  draft4: boolean;
}

function invalid(message: string): MockpointError {
  return new MockpointError('INVALID_OPENAPI', message);
}

/** The document's value from what was sent: an object as is, text as JSON or YAML. */
function documentValue(input: unknown): unknown {
  if (typeof input !== 'string') return input;
  if (/^\s*[{[]/.test(input)) {
    try {
      return JSON.parse(input);
    } catch {
      // YAML in flow style, or not valid: the YAML parser reads it or says why.
    }
  }
  try {
    return parse(input, { maxAliasCount: 100 });
  } catch (error) {
    throw invalid(`openapi is neither JSON nor YAML: ${(error as Error).message.split('\n')[0]}`);
  }
}

/** Follows a JSON pointer (`#/components/responses/NotFound`) into `root`. */
export function pointer(root: unknown, ref: string): unknown {
  let node = root;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (!isObject(node) && !Array.isArray(node)) return undefined;
    node = (node as Json)[key];
  }
  return node;
}

/** `node` with its `$ref` (to a response, a header, a path item) followed; `undefined` when it points at nothing. */
export function followRef(root: Json, node: unknown): Json | undefined {
  let at = node;
  for (let hop = 0; hop < MAX_REF_HOPS && isObject(at) && typeof at.$ref === 'string'; hop++) {
    if (!at.$ref.startsWith('#')) return undefined;
    at = pointer(root, at.$ref);
  }
  return isObject(at) && typeof at.$ref !== 'string' ? at : undefined;
}

/** `/pets/{petId}.json` → `/pets/\0.json`; literal text percent-decoded as a route's is. */
export function templateShape(template: string): string {
  return template
    .split('/')
    .map((segment) =>
      segment
        .split(/(\{[^}]*\})/)
        .map((piece) => (piece.startsWith('{') && piece.endsWith('}') ? PARAM : decoded(piece)))
        .join(''),
    )
    .join('/');
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The path of a server URL (`https://api.example.com/v1/` → `/v1`), or `''`. */
function serverPath(url: unknown): string {
  if (typeof url !== 'string') return '';
  const path = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '').replace(/\{[^}]*\}/g, PARAM);
  const trimmed = path.replace(/\/+$/, '');
  return trimmed.startsWith('/') ? trimmed : '';
}

/** The key a `default` response is kept under: `default` is a value keyword to the schema tools, never walked. */
export const DEFAULT_RESPONSE = 'x-mockpoint-default';

/** A path item with each operation's `default` response under {@link DEFAULT_RESPONSE} instead (the rest shared, not copied). */
function withDefaultsRenamed(item: Json): Json {
  const copy: Json = { ...item };
  for (const method of OPENAPI_METHODS) {
    const operation = item[method];
    if (isObject(operation) && isObject(operation.responses) && operation.responses.default !== undefined) {
      const { default: fallback, ...rest } = operation.responses;
      copy[method] = { ...operation, responses: { ...rest, [DEFAULT_RESPONSE]: fallback } };
    }
  }
  return copy;
}

/** Nodes walked, or paths read, between two yields of {@link documentSteps}. */
const STEP_NODES = 1000;
const STEP_PATHS = 100;

/** The first `$ref` of `doc` that names another file (`schemas.yaml#/Pet`), if any: the API reads no file. */
function* fileRef(doc: unknown): Generator<void, string | undefined> {
  const stack = [doc];
  let walked = 0;
  while (stack.length > 0) {
    if (++walked % STEP_NODES === 0) yield;
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    const ref = (node as Json).$ref;
    if (!Array.isArray(node) && typeof ref === 'string' && !ref.startsWith('#')) return ref;
    for (const value of Object.values(node)) if (typeof value === 'object' && value !== null) stack.push(value);
  }
  return undefined;
}

/**
 * The document `input` (an object, or its JSON or YAML text) ready to verify
 * against; `400 INVALID_OPENAPI` when it is not an OpenAPI 3.0 or 3.1 document.
 */
export function readOpenApi(input: unknown): OpenApiDocument {
  const steps = documentSteps(documentValue(input));
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * {@link readOpenApi} of a parsed document a slice per event-loop turn (`budget`):
 * its walk for other files' `$ref`s and its paths' index, which take seconds for
 * 80,000 paths, let the daemon answer between slices.
 */
export async function readOpenApiInTurns(input: unknown, budget: TurnBudget): Promise<OpenApiDocument> {
  const steps = documentSteps(documentValue(input));
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await budget.pause();
  }
}

/** What {@link readOpenApi} does, yielding where a caller may let the event loop run. */
function* documentSteps(doc: unknown): Generator<void, OpenApiDocument> {
  if (!isObject(doc)) throw invalid('openapi is not an object (give the document, or its JSON or YAML text)');
  const openapi = doc.openapi;
  if (typeof openapi !== 'string' || !/^3\.[01]\.\d+/.test(openapi)) {
    const swagger = typeof doc.swagger === 'string' ? ' (a Swagger 2.0 document: convert it to OpenAPI 3 first)' : '';
    throw invalid(`openapi has no \`openapi: 3.0.x\` or \`3.1.x\` field${swagger}`);
  }
  if (!isObject(doc.paths)) throw invalid('openapi has no `paths` object');
  const outside = yield* fileRef(doc);
  if (outside !== undefined) {
    throw invalid(
      `openapi's $ref ${quoted(outside, 200)} names another file; only #/… references are read here (mockpoint verify --openapi reads a document's files and sends it whole)`,
    );
  }
  const draft4 = openapi.startsWith('3.0');
  const root = { components: toJsonSchema(doc.components ?? {}, draft4, { of: 'response' }) } as Json;
  let program: SchemaProgram;
  try {
    program = new SchemaProgram(root as Schema);
  } catch (error) {
    throw invalid(`openapi's schemas cannot be read: ${(error as Error).message.split('\n')[0]}`);
  }
  const paths = new Map<string, DocumentPath[]>();
  let read = 0;
  for (const [template, raw] of Object.entries(doc.paths)) {
    if (++read % STEP_PATHS === 0) yield;
    if (!template.startsWith('/')) continue;
    const shape = templateShape(template);
    let made: Json | undefined | null = null;
    const item = (): Json | undefined => {
      if (made !== null) return made;
      made = undefined;
      if (isObject(raw) && typeof raw.$ref === 'string') {
        // A reference to components' path items: rewritten and in the program already.
        made = followRef(root, raw);
      } else if (isObject(raw)) {
        const converted = toJsonSchema(withDefaultsRenamed(raw), draft4, { of: 'response' }) as Json;
        dereference(converted as Schema, program.lookup as never, initialBaseURI, `/paths/${encodePointer(template)}`);
        made = converted;
      }
      return made;
    };
    const same = paths.get(shape);
    if (same === undefined) paths.set(shape, [{ template, item, raw }]);
    else same.push({ template, item, raw });
  }
  const servers = Array.isArray(doc.servers) ? doc.servers : [];
  const basePaths = [
    ...new Set(servers.map((server) => serverPath(isObject(server) ? server.url : undefined)).filter(Boolean)),
  ].sort((a, b) => b.length - a.length);
  const info = isObject(doc.info) ? doc.info : {};
  return {
    openapi,
    title: typeof info.title === 'string' ? info.title : '',
    version: typeof info.version === 'string' ? info.version : '',
    program,
    root,
    paths,
    basePaths,
    source: doc,
    draft4,
  };
}
