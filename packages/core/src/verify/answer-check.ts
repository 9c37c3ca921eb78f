/**
 * One answer checked against the responses of its operation (docs/verify.md): its
 * status declared, its headers and body fitting the response's schemas for its
 * content type, with the validator that checks requests (answer/routes/json-schema).
 * Used by the route check (verify-routes.ts) and by the check of answers as sent
 * (answer-conformance.ts).
 *
 * @module
 */
import { Run } from '../answer/routes/json-schema/schema-program.js';
import { validate } from '../answer/routes/json-schema/validate.js';
import { failure } from '../answer/routes/request-validator.js';
import type { RouteAnswer } from '../api/route.js';
import { JsonText } from '../codec/json-text.js';
import { DEFAULT_RESPONSE, followRef, isObject, type OpenApiDocument } from './openapi-document.js';
import { type SchemaWords, schemaWords } from './schema-words.js';
import { type At, type Collector, shown } from './verify-collector.js';

type Json = Record<string, unknown>;

/** Statuses that carry no body (a declared content does not apply). */
const BODILESS = new Set([204, 205, 304]);

/** The media type's essence, lower case: `application/json; charset=utf-8` → `application/json`. */
function essence(type: string): string {
  return (type.split(';')[0] ?? '').trim().toLowerCase();
}

function isJsonType(type: string): boolean {
  return /^application\/(?:[\w.+-]+\+)?json$/.test(type) || type === 'application/json';
}

/** The answer's headers by lower-case name (a list as its first value). */
function headersOf(answer: RouteAnswer): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, value] of Object.entries(answer.headers ?? {})) {
    out.set(name.toLowerCase(), Array.isArray(value) ? (value[0] ?? '') : value);
  }
  return out;
}

/** The body an answer sends, as verify reads it. */
type Body =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown; type: string }
  | { kind: 'text'; text: string; type: string }
  | { kind: 'bytes'; type: string }
  | { kind: 'stream'; type: string };

function bodyOf(answer: RouteAnswer, headers: Map<string, string>): Body {
  const given = headers.get('content-type');
  if (answer.data !== undefined) {
    const value = answer.data instanceof JsonText ? JSON.parse(answer.data.text) : answer.data;
    return { kind: 'json', value, type: given ?? 'application/json' };
  }
  if (answer.body !== undefined && answer.body !== '') {
    return { kind: 'text', text: answer.body, type: given ?? 'text/plain; charset=utf-8' };
  }
  if (answer.bodyBase64 !== undefined && answer.bodyBase64 !== '') {
    return { kind: 'bytes', type: given ?? 'application/octet-stream' };
  }
  if (answer.stream !== undefined) return { kind: 'stream', type: given ?? 'text/event-stream' };
  return { kind: 'none' };
}

/** The response of `status`: its own, its range's (`4XX`), or `default`. */
export function responseKey(responses: Json, status: number): string | undefined {
  const own = String(status);
  if (responses[own] !== undefined) return own;
  const range = Object.keys(responses).find((key) => key.toUpperCase() === `${own.charAt(0)}XX`);
  if (range !== undefined) return range;
  return responses[DEFAULT_RESPONSE] !== undefined ? DEFAULT_RESPONSE : undefined;
}

/** The declared media type that covers `type`: itself, `type/*`, or `*∕*`. */
function mediaFor(content: Json, type: string): Json | undefined {
  const wanted = essence(type);
  const keys = Object.keys(content);
  const key =
    keys.find((k) => essence(k) === wanted) ??
    keys.find((k) => essence(k) === `${wanted.split('/')[0]}/*`) ??
    keys.find((k) => essence(k) === '*/*');
  if (key === undefined) return undefined;
  const media = content[key];
  return isObject(media) ? media : {};
}

/** A header's text read as its schema's type says (`"42"` as 42 for an integer). */
function headerValue(text: string, schema: unknown): unknown {
  const type = isObject(schema) ? schema.type : undefined;
  const types = Array.isArray(type) ? type : [type];
  if ((types.includes('integer') || types.includes('number')) && text.trim() !== '' && Number.isFinite(Number(text)))
    return Number(text);
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

/** Checks one answer against one operation's responses. */
export class AnswerCheck {
  constructor(
    private readonly doc: OpenApiDocument,
    private readonly out: Collector,
  ) {}

  /** `value` against `schema`; one finding per thing wrong, in words (schema-words.ts), at `where` + its path. */
  schema(at: At, where: string, schema: unknown, value: unknown): void {
    let listed: SchemaWords[];
    try {
      const result = validate(value, schema, new Run(this.doc.program));
      if (result.valid) return;
      const names =
        where === 'body'
          ? { what: 'the body', root: 'body' }
          : { what: `the header ${where.slice(8)}`, root: where.slice(8) };
      listed = schemaWords(result.errors, value, schema, this.doc.program, names);
    } catch (error) {
      this.out.note(at, `${where}: not checked: ${failure(error)}`);
      return;
    }
    for (const words of listed) {
      this.out.finding(at, 'SCHEMA_MISMATCH', `${where}${words.path}`, words.expected, words.found, words.says);
    }
  }

  check(at: At, operation: Json, answer: RouteAnswer, method: string | undefined): void {
    const responses = isObject(operation.responses) ? operation.responses : {};
    const status = answer.statusCode ?? 200;
    const key = responseKey(responses, status);
    if (key === undefined) {
      const declared = Object.keys(responses).map((k) => (k === DEFAULT_RESPONSE ? 'default' : k));
      this.out.finding(
        at,
        'UNDECLARED_STATUS',
        'status',
        declared.length === 0 ? 'a declared status (the operation has none)' : `one of ${declared.join(', ')}`,
        String(status),
      );
      return;
    }
    const response = followRef(this.doc.root, responses[key]);
    if (response === undefined) {
      this.out.note(at, `response ${key}: its $ref points at nothing in the document; not checked`);
      return;
    }
    const headers = headersOf(answer);
    this.headers(at, response, headers, answer.template === true);
    if (answer.fault !== undefined) {
      this.out.note(at, `answers with the fault "${answer.fault}": its body was not checked`);
      return;
    }
    this.body(at, response, bodyOf(answer, headers), status, method, answer.template === true);
  }

  headers(at: At, response: Json, headers: Map<string, string>, template: boolean): void {
    if (!isObject(response.headers)) return;
    for (const [name, raw] of Object.entries(response.headers)) {
      const lower = name.toLowerCase();
      // OpenAPI: a Content-Type response header is ignored (the content says it).
      if (lower === 'content-type') continue;
      const header = followRef(this.doc.root, raw);
      if (header === undefined) continue;
      const value = headers.get(lower);
      if (value === undefined) {
        if (header.required === true) this.out.finding(at, 'MISSING_HEADER', `headers/${lower}`, 'the header', 'none');
        continue;
      }
      if (header.schema === undefined) continue;
      if (template && value.includes('{{')) continue;
      this.schema(at, `headers/${lower}`, header.schema, headerValue(value, header.schema));
    }
  }

  body(at: At, response: Json, body: Body, status: number, method: string | undefined, template: boolean): void {
    const content = isObject(response.content) ? response.content : {};
    const declared = Object.keys(content);
    if (declared.length === 0) {
      if (body.kind !== 'none') {
        this.out.finding(at, 'WRONG_CONTENT_TYPE', 'body', 'no body (the response declares no content)', body.type);
      }
      return;
    }
    if (body.kind === 'none') {
      if (!BODILESS.has(status) && method !== 'HEAD') {
        this.out.finding(at, 'MISSING_BODY', 'body', `a body of ${declared.join(', ')}`, 'no body');
      }
      return;
    }
    const media = mediaFor(content, body.type);
    if (media === undefined) {
      this.out.finding(at, 'WRONG_CONTENT_TYPE', 'body', `one of ${declared.join(', ')}`, essence(body.type));
      return;
    }
    // Only a JSON or a text body can be held against the schema (bytes and events cannot).
    if (media.schema === undefined || (body.kind !== 'json' && body.kind !== 'text')) return;
    if (template) {
      this.out.note(
        at,
        'templated answer ({{…}}): its body is made per request, so only its status, headers and content type were checked',
      );
      return;
    }
    const type = essence(body.type);
    if (isJsonType(type)) {
      let value: unknown;
      if (body.kind === 'json') value = body.value;
      else {
        try {
          value = JSON.parse(body.text);
        } catch {
          this.out.finding(at, 'SCHEMA_MISMATCH', 'body', `JSON (${type})`, shown(body.text));
          return;
        }
      }
      this.schema(at, 'body', media.schema, value);
    } else if (body.kind === 'text' && type.startsWith('text/')) {
      this.schema(at, 'body', media.schema, body.text);
    }
  }
}
