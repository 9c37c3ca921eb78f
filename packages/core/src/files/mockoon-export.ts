/**
 * A mock file's endpoints as ONE Mockoon environment (the JSON file the
 * Mockoon app saves and `mockoon-cli start --data` runs): the subset Mockoon
 * can express, with the rest listed (`skipped`), so that nobody is locked in.
 *
 * - Each route becomes a Mockoon route with one response, in mockpoint's
 *   order. A route with `match.query`, `match.headers` or a text `match.body`
 *   gets `equals` rules (`AND`) and the `FALLBACK` response mode: when they do
 *   not match, Mockoon tries the next route, as mockpoint does.
 * - Bodies are exact text with templating off (`disableTemplating`), and
 *   mockpoint's default `Content-Type` is written out.
 * - Collections become data buckets (exact text); a resource route over one
 *   becomes a CRUD route (`crudKey` its idField).
 * - The record becomes a route at the endpoint's root for every method, after
 *   the routes. `endpointPrefix` is empty: with one endpoint the paths are
 *   its subpaths (point the client at Mockoon's root); with several, each
 *   path starts with `<name>/`.
 *
 * @module
 */
import { kindOf } from '../api/answer-kinds.js';
import type { Route } from '../api/route.js';
import { base64Bytes } from '../codec/base64.js';
import { JsonText, jsonTextOf, stringifyExact } from '../codec/json-text.js';
import type { ValueMatcher } from '../pattern/value-pattern.js';
import { slugOf } from './import-ids.js';
import type { LeftOut } from './left-out.js';
import { caselessPath } from './mockoon-path.js';
import type { MockFileEndpoint } from './parse-mock-file.js';

/** What {@link mockoonEnvironment} made. */
export interface MockoonExport {
  /** The environment, JSON (every body exact). */
  text: string;
  routes: number;
  skipped: LeftOut[];
  /**
   * The binary bodies, each a file the environment serves (`bodyType: FILE`):
   * `path` relative to the environment file, under {@link MockoonExportOptions.filesDir}.
   */
  files: { path: string; bytes: Uint8Array }[];
}

/** Options for {@link mockoonEnvironment}. */
export interface MockoonExportOptions {
  /**
   * The folder, relative to the environment file, binary bodies are written to
   * as files (Mockoon serves bytes only from a file). Absent: a binary body
   * route is left out, said so.
   */
  filesDir?: string;
}

type Json = Record<string, unknown>;

/** The migration the environment is written at (Mockoon CLI 9.x reads it as is). */
const LAST_MIGRATION = 33;

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head', 'options']);

/** A Content-Type Express sends as it is with a text body (any other it writes again with charset=utf-8). */
const UTF8_TYPE = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+; charset=utf-8$/;

/** A query parameter name Mockoon reads as itself in a rule's modifier. */
const QUERY_KEY = /^[A-Za-z0-9_-]+$/;

/** A segment Express's path syntax reads as itself, or a `:param`. */
const PLAIN_SEGMENT = /^(?:[A-Za-z0-9._~-]+|:[A-Za-z_][A-Za-z0-9_]*)$/;

/** A path pattern as a Mockoon route's `endpoint` (no leading slash), or why it cannot be one. */
function endpointOf(path: string | ValueMatcher | undefined, prefix: string): string | { why: string } {
  if (path === undefined) return { why: 'a route for every path: a Mockoon route has one path' };
  if (typeof path !== 'string') {
    // The Mockoon import's own form (`(?i)/users/(?<id>[^/]+?)/?`) is the path it came from.
    const from = caselessPath(path);
    if (from === undefined) return { why: 'a regular-expression path: not carried over to a Mockoon route path' };
    if (from.endsWith('/*')) return { why: 'a trailing * is not carried over (Express reads it its own way)' };
    return endpointOf(from, prefix);
  }
  const segments = path.split('/').slice(1).filter(Boolean);
  for (const segment of segments) {
    if (segment === '*') return { why: 'a trailing * is not carried over (Express reads it its own way)' };
    if (!PLAIN_SEGMENT.test(segment)) {
      return { why: `path segment ${JSON.stringify(segment)}: Express's path syntax would read it otherwise` };
    }
  }
  return [prefix, ...segments].filter(Boolean).join('/');
}

/** Deterministic UUIDs (v4 form), so that one export is the same text twice. */
function uuids(): () => string {
  let next = 0;
  return () => `00000000-0000-4000-8000-${(++next).toString(16).padStart(12, '0')}`;
}

function rule(target: string, modifier: string, value: string): Json {
  return { target, modifier, value, invert: false, operator: 'equals' };
}

/** The Mockoon rules of a route's match (its path and method aside), or why it has none. */
function rulesOf(match: Route['match']): Json[] | string {
  const rules: Json[] = [];
  if (match === undefined) return rules;
  for (const key of ['graphql', 'signature', 'websocket', 'state'] as const) {
    if (match[key] !== undefined) return `match.${key} has no Mockoon rule`;
  }
  if (match.url !== undefined || match.bodyPatterns !== undefined) return 'a regular expression: not carried over';
  if (Object.hasOwn(match, 'bodyEquals')) return 'a whole-body JSON equality: Mockoon compares one field at a time';
  if (match.bodyJsonPaths !== undefined) return 'a JSONPath condition: not carried over';
  for (const [key, value] of Object.entries(match.query ?? {})) {
    if (typeof value === 'object' && !Array.isArray(value)) {
      return 'absent' in value
        ? 'an absent query parameter: no Mockoon rule'
        : 'a regular expression: not carried over';
    }
    if (Array.isArray(value)) return `query ${JSON.stringify(key)} repeated: a Mockoon rule compares one value`;
    // Mockoon reads a rule's modifier as a path into the parsed query (`a.b`, `a[0]`, `$…`).
    if (!QUERY_KEY.test(key)) return `query ${JSON.stringify(key)}: Mockoon would read the name as a path`;
    rules.push(rule('query', key, value));
  }
  for (const [name, value] of Object.entries(match.headers ?? {})) {
    if (typeof value !== 'string') {
      return 'absent' in value ? 'an absent header: no Mockoon rule' : 'a regular expression: not carried over';
    }
    rules.push(rule('header', name, value));
  }
  if (Object.hasOwn(match, 'body')) {
    if (typeof match.body !== 'string') return 'a JSON body subset: Mockoon compares one field at a time, as text';
    rules.push(rule('body', '', match.body));
  }
  // Mockoon renders a rule's value as a template before it compares.
  if (rules.some(({ value }) => (value as string).includes('{{'))) return 'a value with {{: Mockoon would render it';
  return rules;
}

/** The content type mockpoint sends for a body form when the answer's headers name none. */
function defaultType(answer: Route['answer']): string | undefined {
  if (answer.data !== undefined) return 'application/json; charset=utf-8';
  if (answer.body !== undefined) return 'text/plain; charset=utf-8';
  return undefined;
}

/** Mockoon headers (`[{ key, value }]`) of an answer's, the ones it cannot send noted. */
function headersOf(
  headers: Record<string, string | string[]> | undefined,
  note: (what: string, why: string) => void,
): { key: string; value: string }[] {
  const list: { key: string; value: string }[] = [];
  for (const [key, value] of Object.entries(headers ?? {})) {
    const values = [value].flat();
    if (values.length !== 1) {
      note(`header ${key}`, 'several values: Mockoon sends one per name');
      continue;
    }
    if ((values[0] as string).includes('{{')) {
      note(`header ${key}`, 'Mockoon renders {{…}} in header values; not sent as it is');
      continue;
    }
    list.push({ key, value: values[0] as string });
  }
  return list;
}

function response(uuid: string, fields: Json): Json {
  return {
    uuid,
    body: '',
    latency: 0,
    statusCode: 200,
    label: '',
    headers: [],
    bodyType: 'INLINE',
    filePath: '',
    databucketID: '',
    sendFileAsBody: false,
    rules: [],
    rulesOperator: 'AND',
    disableTemplating: true,
    fallbackTo404: false,
    default: true,
    crudKey: 'id',
    callbacks: [],
    ...fields,
  };
}

function route(uuid: string, method: string, endpoint: string, responses: Json[], fields: Json = {}): Json {
  return {
    uuid,
    type: 'http',
    documentation: '',
    method,
    endpoint,
    responses,
    responseMode: null,
    streamingMode: null,
    streamingInterval: 0,
    ...fields,
  };
}

/**
 * One Mockoon environment for `endpoints` (a parsed mock file's). What Mockoon
 * cannot express is left out, each with why (a route whole, or one part of it).
 */
export function mockoonEnvironment(
  endpoints: readonly MockFileEndpoint[],
  name = 'mockpoint',
  options: MockoonExportOptions = {},
): MockoonExport {
  const uuid = uuids();
  const files: MockoonExport['files'] = [];
  const routes: Json[] = [];
  const data: Json[] = [];
  const skipped: LeftOut[] = [];
  const several = endpoints.length > 1;
  for (const endpoint of endpoints) {
    const prefix = several ? endpoint.name : '';
    const label = (what: string) => (several ? `${endpoint.name} ${what}` : what);
    const buckets = new Map<string, string>();
    for (const [collection, items] of endpoint.collections ?? []) {
      if (items.text.includes('{{')) {
        // Mockoon renders a data bucket's text as a template when it starts.
        skipped.push({ what: label(`collection ${collection}`), why: 'its text has {{: Mockoon would render it' });
        continue;
      }
      const id = several ? `${endpoint.name}-${collection}` : collection;
      buckets.set(collection, id);
      data.push({ uuid: uuid(), id, name: collection, documentation: '', value: items.text });
    }
    const context: RouteContext = { uuid, prefix, label, buckets, files, options, skipped };
    for (const one of endpoint.routes) {
      const exported = exportRoute(one, context);
      if (exported !== undefined) routes.push(exported);
    }
    if (endpoint.record !== undefined) {
      // The record answers every method at the bare URL, after the routes.
      const fields: Json = {
        body: endpoint.record.data.text,
        statusCode: endpoint.record.statusCode,
        headers: [{ key: 'Content-Type', value: 'application/json; charset=utf-8' }],
        latency: endpoint.record.delay,
      };
      routes.push(route(uuid(), 'all', prefix, [response(uuid(), fields)]));
    }
    if (endpoint.queue.length > 0) {
      skipped.push({ what: label('queued answers'), why: 'Mockoon has no queue of answers used once each' });
    }
    if (endpoint.graphql !== undefined)
      skipped.push({ what: label('graphql schema'), why: 'Mockoon answers no GraphQL from a schema' });
    if (endpoint.hosts !== undefined) skipped.push({ what: label('hosts'), why: 'Mockoon picks no route by Host' });
    if (endpoint.chaos !== undefined)
      skipped.push({ what: label('chaos'), why: 'Mockoon injects no faults into a share of requests' });
  }
  const environment = environmentOf(uuid, name, routes, data);
  return { text: `${stringifyExact(environment, 2)}\n`, routes: routes.length, skipped, files };
}

/** What exporting one route needs: the ids, the endpoint's prefix and buckets, the files written, what is left out. */
interface RouteContext {
  uuid: () => string;
  prefix: string;
  label: (what: string) => string;
  buckets: Map<string, string>;
  files: MockoonExport['files'];
  options: MockoonExportOptions;
  skipped: LeftOut[];
}

/** The Mockoon route of `one`, or `undefined` when it has none (left out, with why). */
function exportRoute(one: Route, context: RouteContext): Json | undefined {
  const { uuid, prefix, label, buckets, files, options, skipped } = context;
  const what = label(`route ${one.id}`);
  const note = (part: string, why: string) => skipped.push({ what: `${what}: ${part}`, why });
  const out = (why: string) => skipped.push({ what, why });
  const path = endpointOf(one.match?.path, prefix);
  if (typeof path !== 'string') {
    out(path.why);
    return undefined;
  }
  const method = one.match?.method?.toLowerCase() ?? 'all';
  if (method !== 'all' && !METHODS.has(method)) {
    out(`method ${one.match?.method}: Mockoon routes have ${[...METHODS].join(', ')} or all`);
    return undefined;
  }
  const rules = rulesOf(one.match);
  if (typeof rules === 'string') {
    out(rules);
    return undefined;
  }
  const answer = one.answer;
  if ((one as { validate?: unknown }).validate !== undefined) {
    note('validate', 'request validation against schemas is not carried over');
  }
  if (answer.setState !== undefined) note('setState', 'Mockoon routes keep no state machine');
  if (answer.latency !== undefined) note('latency', 'Mockoon has a fixed latency only; the drawn part is left out');
  if (answer.template === true) {
    note('template', "mockpoint's placeholders are not Mockoon's Handlebars; the body is written as it is");
  }
  if (answer.resource !== undefined) {
    const [collection, idField] =
      typeof answer.resource === 'string'
        ? [answer.resource, 'id']
        : [answer.resource.collection, answer.resource.idField ?? 'id'];
    const bucket = buckets.get(collection);
    if (bucket === undefined) {
      out(`no data bucket for collection ${collection}`);
      return undefined;
    }
    if (method !== 'all' || rules.length > 0 || path.includes(':')) {
      out('a resource route with a method, rules or parameters: a Mockoon CRUD route has none');
      return undefined;
    }
    const headers = headersOf(answer.headers, note);
    return route(
      uuid(),
      '',
      path,
      [response(uuid(), { bodyType: 'DATABUCKET', databucketID: bucket, crudKey: idField, headers })],
      { type: 'crud' },
    );
  }
  const kind = kindOf(answer);
  if (kind !== undefined && !kind.forms.mockoon) {
    out(`a ${kind.key} answer has no Mockoon form`);
    return undefined;
  }
  if (answer.bodyBase64 !== undefined && options.filesDir === undefined) {
    out('a binary body (bodyBase64): Mockoon serves bytes from a file only; export with --out to write it beside');
    return undefined;
  }
  const headers = headersOf(answer.headers, note);
  if (answer.bodyBase64 !== undefined && options.filesDir !== undefined) {
    // Served from a file by Mockoon, as the bytes are; its Content-Type the answer's, or mockpoint's default.
    const file = `${options.filesDir}/${files.length + 1}-${slugOf(one.id, 'route')}.bin`;
    files.push({ path: file, bytes: base64Bytes(answer.bodyBase64) });
    if (!headers.some(({ key }) => key.toLowerCase() === 'content-type')) {
      headers.push({ key: 'Content-Type', value: 'application/octet-stream' });
    }
    const fields: Json = {
      bodyType: 'FILE',
      filePath: file,
      sendFileAsBody: true,
      statusCode: answer.statusCode ?? 200,
      headers,
      latency: answer.delay ?? 0,
    };
    if (rules.length > 0) Object.assign(fields, { rules, default: false });
    return route(
      uuid(),
      method,
      path,
      [response(uuid(), fields)],
      rules.length > 0 ? { responseMode: 'FALLBACK' } : {},
    );
  }
  const type = defaultType(answer);
  const typed = headers.some(({ key }) => key.toLowerCase() === 'content-type');
  if (type !== undefined && !typed) headers.push({ key: 'Content-Type', value: type });
  const status = answer.statusCode ?? 200;
  if (type === undefined && !typed && status !== 204 && status !== 304) {
    note('no Content-Type', 'Mockoon sends text/html; charset=utf-8 with an empty body');
  }
  const given = headers.find(({ key }) => key.toLowerCase() === 'content-type');
  if (given !== undefined && !UTF8_TYPE.test(given.value) && status !== 204 && status !== 304) {
    // Express writes a text body's Content-Type again, with charset=utf-8.
    note(`Content-Type ${given.value}`, 'Mockoon sends it as type; charset=utf-8');
  }
  let body = '';
  if (answer.data !== undefined) body = new JsonText(jsonTextOf(answer.data)).text;
  else if (answer.body !== undefined) body = answer.body;
  const fields: Json = { body, statusCode: status, headers, latency: answer.delay ?? 0 };
  if (rules.length > 0) Object.assign(fields, { rules, default: false });
  return route(uuid(), method, path, [response(uuid(), fields)], rules.length > 0 ? { responseMode: 'FALLBACK' } : {});
}

/** The environment around `routes` and `data`. */
function environmentOf(uuid: () => string, name: string, routes: Json[], data: Json[]): Json {
  return {
    uuid: uuid(),
    lastMigration: LAST_MIGRATION,
    name,
    endpointPrefix: '',
    latency: 0,
    port: 3000,
    hostname: '',
    folders: [],
    routes,
    rootChildren: routes.map((one) => ({ type: 'route', uuid: one.uuid })),
    proxyMode: false,
    proxyHost: '',
    proxyRemovePrefix: false,
    tlsOptions: {
      enabled: false,
      type: 'CERT',
      pfxPath: '',
      certPath: '',
      keyPath: '',
      caPath: '',
      passphrase: '',
    },
    cors: true,
    headers: [],
    proxyReqHeaders: [],
    proxyResHeaders: [],
    data,
    callbacks: [],
  };
}
