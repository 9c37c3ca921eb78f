/**
 * Reads the text of a mock file (YAML, or JSON) into checked endpoints: the
 * same checks the admin API makes, every `data` kept as its exact JSON text.
 * Each problem is one {@link MockpointError} naming the file, the line and
 * column, and the path in the document (`endpoints[2].routes[0].match.path`).
 *
 * @module
 */
import {
  type Alias,
  type Document,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  type Node,
  parseDocument,
} from 'yaml';
import type { z } from 'zod';
import type { QueuedAnswer } from '../api/answer-json.js';
import { type ChaosSettings, chaosSchemas, parseChaosInput } from '../api/chaos.js';
import { checkRoutes, type Route, type RouteInput } from '../api/route.js';
import { createSchemas, parseQueueBody } from '../api/schemas.js';
import { type States, stateProblem } from '../api/state-json.js';
import { toBase64 } from '../codec/base64.js';
import { JsonSyntaxError, JsonText, scanJson } from '../codec/json-text.js';
import { utf8Length } from '../codec/utf8-length.js';
import { parseCollection } from '../collections/collection-input.js';
import { collectionText } from '../collections/item.js';
import { buildGraphqlSchema } from '../graphql/graphql-schema.js';
import { type ErrorCode, MockpointError } from '../registry/errors.js';
import {
  DEFAULT_LIMITS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_ROUTES,
  ROUTES_BODY_FACTOR,
  routesBodyBytes,
} from '../registry/limits.js';
import {
  NAME_SETTINGS,
  SETTING_KINDS,
  type SettingFileValues,
  type SettingKind,
  settingFile,
} from '../settings/name-settings.js';
import { AliasBudget, AliasLimitError } from './alias-budget.js';
import { exactJsonText, NotJsonError } from './exact-yaml.js';
import { createMockFileSchema } from './mock-file-schema.js';
import { issueWords, MAX_PROBLEMS } from './schema-problems.js';
import { TWIN_KEYS } from './twin-setting-file.js';
import { decodeStrictUtf8, InvalidUtf8Error } from './utf8.js';
import { writeBodies } from './write-bodies.js';

/** The collection limits a file is checked against (the daemon's own may be lower: it refuses then). */
const DEFAULT_COLLECTION_LIMITS = {
  maxCollectionItems: DEFAULT_LIMITS.maxCollectionItems,
  maxCollectionBytes: DEFAULT_LIMITS.maxCollectionBytes,
};

/**
 * One endpoint of a mock file, checked. Besides what is here, each per-name setting its member
 * (named by its key, as its declaration's export form holds it: settings/name-settings.ts).
 */
export interface MockFileEndpoint extends SettingFileValues {
  name: string;
  /** The record, when the file gives `data`, `statusCode` or `delay` (absent fields: null, 200, 0). */
  record?: { data: JsonText; statusCode: number; delay: number };
  /** The routes, each with its id (absent ids are `route-1`, `route-2`, … by position: stable across loads). */
  routes: Route[];
  /** Queued answers, `times` defaulted. */
  queue: QueuedAnswer[];
  /** Collections by name, each its items' exact text as one JSON array (absent: none). */
  collections?: Map<string, JsonText>;
  /** The scenarios' start, as `PUT …/state` sets it (absent or empty: every scenario starts at `started`; docs/state.md). */
  state?: States;
}

/** A checked mock file. */
export interface MockFile {
  version: 1;
  endpoints: MockFileEndpoint[];
  /** The namespace's chaos (`PUT /api/chaos`), checked as the API checks it (absent: the file sets none). */
  chaos?: ChaosSettings;
}

/** Options for {@link parseMockFile}. */
export interface ParseMockFileOptions {
  /** The file's name, for messages. @default 'mockpoint.yaml' */
  file?: string;
  /** How to read the text. @default by the name: `.json` is JSON, anything else YAML */
  format?: 'json' | 'yaml';
  /**
   * Reads a `{ "$file": "./x.json" }` reference (a path relative to the mock
   * file's folder, already checked not to leave it): its bytes (text is
   * checked to be UTF-8), or its text. Without it, `$file` is refused.
   * @default undefined
   */
  readFile?: (relativePath: string) => Uint8Array | string;
  /** The largest body of one answer. @default 5 MiB */
  maxBodyBytes?: number;
  /** The most routes of one endpoint. @default 10000 */
  maxRoutes?: number;
}

type Path = (string | number)[];

/** `endpoints[2].routes[0].match.path` */
export function formatPath(path: readonly (string | number | symbol)[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out || '(document)';
}

/** Where in the file a path's node starts (the closest existing ancestor's, when it has none). */
function positionOf(
  doc: Document,
  counter: LineCounter,
  path: readonly PropertyKey[],
): { line: number; column: number } {
  for (let n = path.length; n >= 0; n--) {
    const node = n === 0 ? doc.contents : (doc.getIn(path.slice(0, n) as Path, true) as Node | undefined);
    if (node && typeof node === 'object' && 'range' in node && node.range) return positionAt(counter, node.range[0]);
  }
  return { line: 1, column: 1 };
}

function positionAt(counter: LineCounter, offset: number): { line: number; column: number } {
  const { line, col } = counter.linePos(offset);
  return { line, column: col };
}

interface Where {
  file: string;
  line: number;
  column: number;
  path?: string;
}

function fileError(
  code: ErrorCode,
  where: Where,
  message: string,
  reason?: string | Record<string, unknown>,
): MockpointError {
  const at = `${where.file}:${where.line}:${where.column}`;
  const details: Record<string, unknown> = { file: where.file, line: where.line, column: where.column };
  if (where.path !== undefined) details.path = where.path;
  // A reason code (`details.reason`), or more details.
  if (typeof reason === 'string') details.reason = reason;
  else if (reason !== undefined) Object.assign(details, reason);
  return new MockpointError(code, `${at}: ${where.path === undefined ? '' : `${where.path}: `}${message}`, {
    details,
  });
}

/** The error code of a bad field (the API's own), by the field's name. */
const FIELD_REASONS: Record<string, string> = {
  name: 'INVALID_NAME',
  statusCode: 'INVALID_STATUS_CODE',
  delay: 'INVALID_DELAY',
  fault: 'INVALID_FAULT',
  times: 'INVALID_TIMES',
  id: 'INVALID_ROUTE_ID',
  match: 'INVALID_MATCH',
  headers: 'INVALID_HEADER',
  version: 'INVALID_VERSION',
  hosts: 'INVALID_HOSTS',
  chaos: 'INVALID_CHAOS',
  latency: 'INVALID_LATENCY',
  twin: 'INVALID_TWIN',
};

/** The error code of a bad field of a signature check (the API's own). */
const SIGNATURE_REASONS: Record<string, string> = {
  scheme: 'UNKNOWN_SIGNATURE_SCHEME',
  secret: 'INVALID_SIGNATURE_SECRET',
  secrets: 'INVALID_SIGNATURE_SECRET',
};

/** Which answer field `path` is (`data`, `body` or `bodyBase64`: the places a `$file` may stand), if any. */
function answerField(path: Path): 'data' | 'body' | 'bodyBase64' | undefined {
  const n = path.length;
  const last = path[n - 1];
  // endpoints[i].collections.users: a collection is kept as its exact text, like data (and may be a $file).
  if (path[0] === 'endpoints' && n === 4 && path[2] === 'collections') return 'data';
  // endpoints[i].graphql: SDL text, or a $file read as text (like a body).
  if (path[0] === 'endpoints' && n === 3 && last === 'graphql') return 'body';
  // endpoints[i].grpc.protos["a.proto"]: a .proto source, or a $file read as text; grpc.descriptorSet: base64, or a $file's bytes.
  if (path[0] === 'endpoints' && path[2] === 'grpc') {
    if (n === 5 && path[3] === 'protos') return 'body';
    if (n === 4 && last === 'descriptorSet') return 'bodyBase64';
  }
  // A websocket frame's json (answer.websocket.onOpen[k].json, answer.websocket.on[m].send[k].json): exact, like data.
  if (last === 'json' && path[0] === 'endpoints' && path[2] === 'routes' && path[5] === 'websocket') {
    if ((n === 9 && path[6] === 'onOpen') || (n === 11 && path[6] === 'on' && path[8] === 'send')) return 'data';
  }
  // An llm tool call's arguments (answer.llm.toolCalls[k].arguments): exact, like data.
  if (last === 'arguments' && n === 9 && path[0] === 'endpoints' && path[2] === 'routes' && path[5] === 'llm') {
    if (path[4] === 'answer' && path[6] === 'toolCalls') return 'data';
  }
  if (path[0] !== 'endpoints' || (last !== 'data' && last !== 'body' && last !== 'bodyBase64')) return undefined;
  if (n === 3) return last === 'data' ? last : undefined; // endpoints[i].data (a record has data only)
  if (n === 5 && path[2] === 'queue') return last; // endpoints[i].queue[k].data
  if (n === 6 && path[2] === 'routes' && path[4] === 'answer') return last; // endpoints[i].routes[j].answer.data
  return undefined;
}

/** `{ $file: … }`: the reference's node, else `undefined`. */
function fileReference(node: Node | null): { value: Node | null } | undefined {
  if (node === null || !isMap(node) || node.items.length !== 1) return undefined;
  const [pair] = node.items;
  const key = pair?.key as Node | undefined;
  if (!key || !isScalar(key) || key.value !== '$file') return undefined;
  return { value: (pair?.value as Node | null | undefined) ?? null };
}

/** The API's code for an issue: UNKNOWN_FIELD, the field's own (FIELD_REASONS) or INVALID_BODY. */
function issueReason(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') return 'UNKNOWN_FIELD';
  // An endpoint's signature check and state: the codes PUT …/signature and PUT …/state answer.
  if (issue.path[0] === 'endpoints' && issue.path[2] === 'signature') {
    return SIGNATURE_REASONS[String(issue.path[3])] ?? 'INVALID_SIGNATURE_OPTIONS';
  }
  if (issue.path[0] === 'endpoints' && issue.path[2] === 'state') return 'INVALID_STATE';
  const field = [...issue.path].reverse().find((key) => typeof key === 'string' && key in FIELD_REASONS);
  return field === undefined ? 'INVALID_BODY' : (FIELD_REASONS[field as string] as string);
}

/**
 * MOCK_FILE_INVALID for every problem the schema found (up to MAX_PROBLEMS), on one line: the
 * first as `file:line:column: path: words`, the others after it as `line:column path: words`;
 * `details.problems` lists them all, `details.reason` is the first one's code.
 */
function schemaError(
  issues: readonly z.core.$ZodIssue[],
  root: unknown,
  at: (path: readonly PropertyKey[]) => Where,
): MockpointError {
  const problems = issues.slice(0, MAX_PROBLEMS).map((issue) => {
    const where = at(issue.path);
    return { ...where, message: issueWords(issue, root), reason: issueReason(issue) };
  });
  const [first, ...rest] = problems as [(typeof problems)[number], ...typeof problems];
  const more = issues.length > MAX_PROBLEMS ? `, the first ${MAX_PROBLEMS} shown` : '';
  const also =
    rest.length === 0
      ? ''
      : ` (${issues.length} problems${more}; also ${rest.map((one) => `${one.line}:${one.column} ${one.path}: ${one.message}`).join('; ')})`;
  const list = problems.map(({ line, column, path, message, reason }) => ({ line, column, path, message, reason }));
  return fileError('MOCK_FILE_INVALID', first, `${first.message}${also}`, { reason: first.reason, problems: list });
}

/** The schemas a mock file is checked with, made once (zod schemas hold no state between parses). */
let schemasMade: { schemas: ReturnType<typeof createSchemas>; fileSchema: ReturnType<typeof createMockFileSchema> };
function mockFileSchemas(): typeof schemasMade {
  if (schemasMade === undefined) {
    const schemas = createSchemas();
    schemasMade = { schemas, fileSchema: createMockFileSchema(schemas) };
  }
  return schemasMade;
}

/**
 * Parses and checks a mock file.
 * @throws MockpointError `MOCK_FILE_SYNTAX` (not YAML/JSON, a duplicate key) or
 *   `MOCK_FILE_INVALID` (`details.reason` holds the API's code for the field, e.g. `INVALID_STATUS_CODE`)
 * @example parseMockFile('version: 1\nendpoints:\n  - name: hello\n    data: { id: 12345678901234567890 }\n')
 */
export function parseMockFile(text: string, options: ParseMockFileOptions = {}): MockFile {
  const file = options.file ?? 'mockpoint.yaml';
  const { doc, counter, source } = parseSource(text, file, options);
  const at = (path: readonly PropertyKey[]): Where => ({
    file,
    ...positionOf(doc, counter, path),
    path: formatPath(path as Path),
  });
  const value = documentValue({ doc, counter, source, file, options, at });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw fileError(
      'MOCK_FILE_INVALID',
      at([]),
      'a mock file is an object: { version: 1, endpoints: [ … ] }',
      'INVALID_BODY',
    );
  }
  if (!Object.hasOwn(value, 'version')) {
    if (Object.hasOwn(value, 'endpoints'))
      throw fileError('MOCK_FILE_INVALID', at([]), 'version is required (version: 1)', 'INVALID_VERSION');
    throw fileError('MOCK_FILE_INVALID', at([]), notAMockFile(value, file), 'NOT_A_MOCK_FILE');
  }
  const { schemas, fileSchema } = mockFileSchemas();
  const result = fileSchema.safeParse(value);
  if (!result.success) throw schemaError(result.error.issues, value, at);

  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxRoutes = options.maxRoutes ?? DEFAULT_MAX_ROUTES;
  const names = new Map<string, number>();
  const input = (value as { endpoints: Record<string, unknown>[] }).endpoints;
  const context: EndpointContext = { at, schemas, maxBodyBytes, maxRoutes, names, seen: new Map() };
  const endpoints = input.map((entry, i) => fileEndpoint(entry, i, context));
  const chaos = (value as { chaos?: unknown }).chaos;
  if (chaos === undefined) return { version: 1, endpoints };
  return { version: 1, endpoints, chaos: checkedChaos(chaos, ['chaos'], context) };
}

/** Why an object with neither `version` nor `endpoints` is no mock file, and what to do with it. */
function notAMockFile(value: object, file: string): string {
  const keys = Object.keys(value);
  const has = (key: string) => keys.includes(key);
  if (has('openapi') || has('swagger'))
    return `an OpenAPI document, not a mock file: make one with mockpoint import ${file} --name <name> --out mockpoint.json (or --stateful for a twin)`;
  if (keys.length > 0 && keys.every((key) => TWIN_KEYS.has(key)))
    return "a twin setting, not a mock file: one is read as JSON with a provider or an OpenAPI document (as mockpoint import --stateful --out writes it); or give it as an endpoint's twin: in a mock file (docs/twins.md)";
  const shown =
    keys.length === 0
      ? 'it has no keys'
      : `its keys: ${keys
          .slice(0, 5)
          .map((key) => JSON.stringify(key.slice(0, 40)))
          .join(', ')}${keys.length > 5 ? ', …' : ''}`;
  return `not a mock file (no version or endpoints; ${shown}): a mock file is { version: 1, endpoints: [ … ] } (docs/files.md), a json-server database (.json) an object of arrays and objects`;
}

/** The text as a YAML document (a JSON file checked as JSON first); `MOCK_FILE_SYNTAX` where it is neither. */
function parseSource(
  text: string,
  file: string,
  options: ParseMockFileOptions,
): { doc: Document.Parsed; counter: LineCounter; source: string } {
  const json = (options.format ?? (/\.json$/i.test(file) ? 'json' : 'yaml')) === 'json';
  const counter = new LineCounter();
  const source = text.replace(/^\uFEFF/, '');
  if (json) {
    try {
      scanJson(source);
    } catch (error) {
      if (!(error instanceof JsonSyntaxError)) throw error;
      counter.addNewLine(0);
      for (let i = source.indexOf('\n'); i !== -1; i = source.indexOf('\n', i + 1)) counter.addNewLine(i + 1);
      throw fileError('MOCK_FILE_SYNTAX', { file, ...positionAt(counter, error.position) }, error.message);
    }
  }
  const doc = parseDocument(source, { lineCounter: counter, keepSourceTokens: true, prettyErrors: false });
  const [problem] = doc.errors;
  if (problem) {
    const first = problem.message.split('\n')[0] ?? problem.message;
    throw fileError('MOCK_FILE_SYNTAX', { file, ...positionAt(counter, problem.pos[0]) }, first, problem.code);
  }
  return { doc, counter, source };
}

/** What {@link documentValue} reads from. */
interface DocumentContext {
  doc: Document.Parsed;
  counter: LineCounter;
  source: string;
  file: string;
  options: ParseMockFileOptions;
  at: (path: readonly PropertyKey[]) => Where;
}

/**
 * The document as a plain value: each answer's `data` as its exact {@link JsonText},
 * `$file` references read, aliases expanded within their budget (`MOCK_FILE_ALIAS_LIMIT` past it).
 */
function documentValue({ doc, counter, source, file, options, at }: DocumentContext): unknown {
  const aliases = new AliasBudget(doc);
  // Where the outermost alias being expanded is used: an AliasLimitError is reported there.
  let aliasPath: Path = [];
  const { readReferenced, fixtureText } = fileReader(options, at);

  const readData = (node: Node | null, path: Path, via: Alias | undefined): JsonText => {
    const reference = fileReference(node);
    if (reference) {
      const ref = [...path, '$file'];
      const content = readReferenced(reference.value, ref);
      try {
        return JsonText.parse(fixtureText(content, ref).replace(/^\uFEFF/, ''));
      } catch (error) {
        if (!(error instanceof JsonSyntaxError)) throw error;
        throw fileError(
          'MOCK_FILE_INVALID',
          at(ref),
          `${content.ref} is not one JSON value: ${error.message}`,
          'INVALID_DATA',
        );
      }
    }
    try {
      return new JsonText(scanJson(exactJsonText(node, source, aliases, via)).text);
    } catch (error) {
      if (error instanceof NotJsonError) {
        const range = error.node.range;
        const position = range ? positionAt(counter, range[0]) : positionOf(doc, counter, path);
        throw fileError(
          'MOCK_FILE_INVALID',
          { file, ...position, path: formatPath(path) },
          error.message,
          'INVALID_DATA',
        );
      }
      if (error instanceof JsonSyntaxError)
        throw fileError('MOCK_FILE_INVALID', at(path), error.message, 'INVALID_DATA');
      throw error;
    }
  };

  /** `body: { $file }` is the file's text exactly; `bodyBase64: { $file }` its bytes. */
  const readBody = (node: Node | null, path: Path, field: 'body' | 'bodyBase64'): unknown => {
    const reference = fileReference(node);
    if (!reference) return undefined;
    const ref = [...path, '$file'];
    const content = readReferenced(reference.value, ref);
    if (field === 'body') return fixtureText(content, ref);
    return toBase64(typeof content.content === 'string' ? new TextEncoder().encode(content.content) : content.content);
  };

  /** `via`: the outermost alias being expanded, whose budget each node reached spends. */
  const toValue = (node: Node | null, path: Path, via?: Alias): unknown => {
    const field = answerField(path);
    if (field === 'data') {
      if (via === undefined) aliasPath = path; // aliases inside data are reported at the data
      return readData(node, path, via);
    }
    if (field !== undefined) {
      const body = readBody(node, path, field);
      if (body !== undefined) return body;
    }
    if (node === null) return null;
    let resolved = node;
    let outer = via;
    if (isAlias(node)) {
      if (outer === undefined) {
        outer = node;
        aliasPath = path;
      }
      const target = aliases.resolve(node);
      if (target === undefined) throw fileError('MOCK_FILE_SYNTAX', at(path), 'an alias that names no anchor');
      resolved = target;
    }
    aliases.node(outer);
    if (isMap(resolved)) {
      const entries = resolved.items.map((pair) => {
        const key = pair.key as Node | null;
        const name = key !== null && isScalar(key) ? key.value : undefined;
        if (typeof name !== 'string' && typeof name !== 'number') {
          throw fileError('MOCK_FILE_INVALID', at(path), 'keys must be strings', 'INVALID_BODY');
        }
        const keyText = String(name);
        return [keyText, toValue(pair.value as Node | null, [...path, keyText], outer)] as const;
      });
      // fromEntries makes own properties: a `__proto__` key is a key, refused as unknown.
      return Object.fromEntries(entries);
    }
    if (isSeq(resolved)) {
      return resolved.items.map((item, index) => toValue(item as Node | null, [...path, index], outer));
    }
    if (isScalar(resolved)) return resolved.value;
    return null;
  };

  let value: unknown;
  try {
    value = toValue(doc.contents as Node | null, []);
  } catch (error) {
    if (!(error instanceof AliasLimitError)) throw error;
    const range = error.node.range;
    const position = range ? positionAt(counter, range[0]) : positionOf(doc, counter, aliasPath);
    throw fileError('MOCK_FILE_ALIAS_LIMIT', { file, ...position, path: formatPath(aliasPath) }, error.message, {
      alias: error.node.source,
    });
  }
  return value;
}

/** How `$file` references are read: their content, and a fixture's text. */
function fileReader(options: ParseMockFileOptions, at: (path: readonly PropertyKey[]) => Where) {
  /** The content of a `$file` reference at `path`, with the reference as written. */
  const readReferenced = (node: Node | null, path: Path): { ref: string; content: Uint8Array | string } => {
    const ref = node !== null && isScalar(node) ? node.value : undefined;
    if (typeof ref !== 'string' || ref === '') {
      throw fileError(
        'MOCK_FILE_INVALID',
        at(path),
        '$file must be a path relative to this file',
        'INVALID_FILE_REFERENCE',
      );
    }
    if (!options.readFile) {
      throw fileError(
        'MOCK_FILE_INVALID',
        at(path),
        '$file references are read only from a file on disk',
        'INVALID_FILE_REFERENCE',
      );
    }
    try {
      return { ref, content: options.readFile(ref) };
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      const reason = code === 'FILE_OUTSIDE' || code === 'BODY_TOO_LARGE' ? code : 'FILE_UNREADABLE';
      throw fileError('MOCK_FILE_INVALID', at(path), (error as Error).message, reason);
    }
  };

  /** A fixture's text: its bytes as strict UTF-8 (`INVALID_UTF8` with the offset otherwise). */
  const fixtureText = ({ ref, content }: { ref: string; content: Uint8Array | string }, path: Path): string => {
    if (typeof content === 'string') return content;
    try {
      return decodeStrictUtf8(content);
    } catch (error) {
      if (!(error instanceof InvalidUtf8Error)) throw error;
      throw fileError(
        'MOCK_FILE_INVALID',
        at(path),
        `${ref}: byte ${error.offset} is not valid UTF-8 (a body is text; read bytes with bodyBase64: { $file: ${ref} })`,
        { reason: 'INVALID_UTF8', offset: error.offset },
      );
    }
  };

  return { readReferenced, fixtureText };
}

/** What checking one endpoint of the file needs: the names and hosts seen so far and the limits. */
interface EndpointContext {
  at: (path: readonly PropertyKey[]) => Where;
  schemas: ReturnType<typeof createSchemas>;
  maxBodyBytes: number;
  maxRoutes: number;
  names: Map<string, number>;
  /** Per setting, what its members of earlier endpoints claimed (hosts: each pattern once). */
  seen: Map<SettingKind, Map<string, number>>;
}

/** The endpoint `entry` (the file's `endpoints[i]`), checked as the API would check its writes. */
function fileEndpoint(entry: Record<string, unknown>, i: number, context: EndpointContext): MockFileEndpoint {
  const { at, schemas, maxBodyBytes, maxRoutes, names } = context;
  const name = entry.name as string;
  const seen = names.get(name);
  if (seen !== undefined) {
    throw fileError(
      'MOCK_FILE_INVALID',
      at(['endpoints', i, 'name']),
      `"${name}" is already defined by endpoints[${seen}]`,
      'NAME_TAKEN',
    );
  }
  names.set(name, i);
  const out: MockFileEndpoint = { name, routes: [], queue: [] };
  if (Object.hasOwn(entry, 'data') || entry.statusCode !== undefined || entry.delay !== undefined) {
    out.record = {
      data: (entry.data as JsonText | undefined) ?? new JsonText('null'),
      statusCode: (entry.statusCode as number | undefined) ?? 200,
      delay: (entry.delay as number | undefined) ?? 0,
    };
  }
  const routes = (entry.routes as RouteInput[] | undefined) ?? [];
  if (routes.length > maxRoutes) {
    throw fileError(
      'MOCK_FILE_INVALID',
      at(['endpoints', i, 'routes']),
      `${routes.length} routes, more than the limit ${maxRoutes}`,
      'TOO_MANY_ROUTES',
    );
  }
  try {
    out.routes = checkRoutes(withStableIds(routes), { maxBodyBytes });
  } catch (error) {
    if (!(error instanceof MockpointError)) throw error;
    const index = Number(error.details?.index ?? 0);
    const message = error.message.replace(/^routes\[\d+\]:?\s*/, '');
    throw fileError('MOCK_FILE_INVALID', at(['endpoints', i, 'routes', index]), message, error.code);
  }
  if (Array.isArray(entry.queue) && entry.queue.length > 0) {
    try {
      out.queue = parseQueueBody(schemas, { answers: entry.queue });
    } catch (error) {
      if (!(error instanceof MockpointError)) throw error;
      const index = Number(/^answers\[(\d+)\]/.exec(error.message)?.[1] ?? 0);
      const message = error.message.replace(/^answers\[\d+\]:?\s*/, '');
      throw fileError('MOCK_FILE_INVALID', at(['endpoints', i, 'queue', index]), message, error.code);
    }
  }
  if (entry.collections !== undefined) {
    out.collections = new Map();
    for (const [collection, items] of Object.entries(entry.collections as Record<string, JsonText>)) {
      try {
        const parsed = parseCollection(collection, items.text, DEFAULT_COLLECTION_LIMITS);
        out.collections.set(collection, new JsonText(collectionText(parsed)));
      } catch (error) {
        if (!(error instanceof MockpointError)) throw error;
        const where = at(['endpoints', i, 'collections', collection]);
        throw fileError('MOCK_FILE_INVALID', where, error.message, error.code);
      }
    }
  }
  for (const kind of SETTING_KINDS) checkedSetting(kind, entry, out, i, context);
  if (entry.state !== undefined) {
    const problem = stateProblem(entry.state as States);
    if (problem !== undefined)
      throw fileError('MOCK_FILE_INVALID', at(['endpoints', i, 'state']), problem, 'INVALID_STATE');
    if (Object.keys(entry.state as States).length > 0) out.state = { ...(entry.state as States) };
  }
  checkWriteSizes(out, i, maxBodyBytes, at);
  return out;
}

/** Each admin write that applies `out` must be within the body limit the daemon holds it to. */
function checkWriteSizes(
  out: MockFileEndpoint,
  i: number,
  maxBodyBytes: number,
  at: (path: readonly PropertyKey[]) => Where,
): void {
  const { name } = out;
  const bodies = writeBodies(out);
  const writes = [
    ['data', 'PUT', '', bodies.record],
    ['routes', 'PUT', '/routes', bodies.routes],
    ['queue', 'POST', '/queue', bodies.queue],
    ['collections', 'PUT', '/collections', bodies.collections],
    ...SETTING_KINDS.map((kind) => [kind, 'PUT', `/${NAME_SETTINGS[kind].key}`, bodies.settings[kind]] as const),
    ['state', 'PUT', '/state', bodies.state],
  ] as const;
  for (const [field, method, suffix, body] of writes) {
    const size = body === undefined ? 0 : utf8Length(body);
    // A routes list may take ROUTES_BODY_FACTOR times the body limit (the daemon takes that much there).
    const limit = field === 'routes' ? routesBodyBytes(maxBodyBytes) : maxBodyBytes;
    if (size <= limit) continue;
    const times = field === 'routes' ? `${ROUTES_BODY_FACTOR} x ` : '';
    throw fileError(
      'MOCK_FILE_INVALID',
      at(['endpoints', i, field]),
      `${method} /api/endpoints/${name}${suffix} would send ${size} bytes, more than the body limit ${limit} (${times}MOCKPOINT_MAX_BODY_BYTES)`,
      'BODY_TOO_LARGE',
    );
  }
}

/**
 * The file endpoint's member of setting `kind`, checked by its declaration's export form (as its PUT
 * checks it, where that needs no daemon) into `out`; refused at its path with the API's code.
 */
function checkedSetting(
  kind: SettingKind,
  entry: Record<string, unknown>,
  out: MockFileEndpoint,
  i: number,
  context: EndpointContext,
): void {
  const { key } = NAME_SETTINGS[kind];
  const value = entry[key];
  if (value === undefined) return;
  const seen = context.seen.get(kind) ?? new Map<string, number>();
  context.seen.set(kind, seen);
  try {
    const checked = settingFile(kind).check(value, { schemas: context.schemas, endpoint: i, seen, buildGraphql });
    if (checked !== undefined) (out as unknown as Record<string, unknown>)[kind] = checked;
  } catch (error) {
    if (!(error instanceof MockpointError)) throw error;
    const below = Array.isArray(error.details?.at) ? (error.details.at as Path) : [];
    throw fileError('MOCK_FILE_INVALID', context.at(['endpoints', i, key, ...below]), error.message, error.code);
  }
}

/** A mock file's GraphQL schema, built as `PUT …/graphql` builds it, within the default size limit. */
function buildGraphql(sdl: string): void {
  buildGraphqlSchema(sdl, DEFAULT_LIMITS.maxGraphqlSchemaBytes);
}

/**
 * A `chaos:` (an endpoint's, or the namespace's at the top), checked as `PUT
 * …/chaos` checks it (faults each once, latency within the delay limit);
 * refused at `path` with the API's code.
 */
function checkedChaos(chaos: unknown, path: Path, context: EndpointContext): ChaosSettings {
  const schema = chaosSchemas(context.schemas.routeAnswer.shape.latency).settings;
  try {
    return parseChaosInput(chaos, schema, DEFAULT_LIMITS.maxDelayMs);
  } catch (error) {
    if (!(error instanceof MockpointError)) throw error;
    throw fileError('MOCK_FILE_INVALID', context.at(path), error.message, error.code);
  }
}

/**
 * Routes without an id get `route-1`, `route-2`, … by their position (skipping
 * ids the file uses): the same file gives the same ids on every load, so
 * journal entries' `answeredBy` and a re-apply's diff are stable.
 */
function withStableIds(routes: readonly RouteInput[]): RouteInput[] {
  const taken = new Set(routes.map((route) => route.id).filter((id) => id !== undefined));
  let next = 1;
  return routes.map((route) => {
    if (route.id !== undefined) return route;
    while (taken.has(`route-${next}`)) next++;
    const id = `route-${next++}`;
    return { ...route, id };
  });
}
