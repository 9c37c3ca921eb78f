/**
 * `verify --journal`: each recorded request of an endpoint checked against the
 * request schemas of the document's operation for it (path, query and header
 * parameters, required ones, the JSON body), by the validator that checks a
 * route's requests (verify/request-schemas.ts). A request no operation covers
 * is `UNKNOWN_OPERATION`; WebSocket messages and gRPC calls are not HTTP
 * operations and are skipped. Each operation's schemas are prepared once.
 *
 * @module
 */
import type { RequestValidator } from '../answer/routes/request-validator.js';
import type { JournalEntry } from '../api/journal-json.js';
import type { Route } from '../api/route.js';
import type { ValidationIssue } from '../api/route-validation.js';
import type { VerifyFindingCode } from '../api/verify-json.js';
import { fromBase64 } from '../codec/base64.js';
import { paramName } from '../openapi/openapi-request.js';
import { followRef, type OpenApiDocument } from './openapi-document.js';
import { methodsOf, OperationIndex } from './operation-index.js';
import { requestValidatorOf } from './request-schemas.js';
import { type At, type Collector, shown } from './verify-collector.js';

/** A required property's error, as the validator words it. */
const REQUIRED = /^Instance does not have required property "(.*)"\.$/s;

/** The journal check of one document: its operation index and each operation's validator, made once. */
export class JournalCheck {
  readonly #index: OperationIndex;
  readonly #validators = new Map<string, RequestValidator | undefined>();
  /** Requests checked. */
  checked = 0;

  constructor(
    private readonly doc: OpenApiDocument,
    private readonly out: Collector,
  ) {
    this.#index = new OperationIndex(doc);
  }

  #validator(template: string, raw: unknown, method: string): RequestValidator | undefined {
    const key = `${method} ${template}`;
    if (!this.#validators.has(key)) this.#validators.set(key, requestValidatorOf(this.doc, raw, method));
    return this.#validators.get(key);
  }

  /** Checks one recorded request of `endpoint`, whose routes are `routes`. */
  check(endpoint: string, routes: readonly Route[], entry: JournalEntry): void {
    if (entry.websocket !== undefined || entry.grpc !== undefined) return;
    this.checked++;
    const answered =
      typeof entry.answeredBy === 'object' && 'route' in entry.answeredBy ? entry.answeredBy.route : undefined;
    const index = answered === undefined ? -1 : routes.findIndex((route) => route.id === answered);
    const at: At = {
      endpoint,
      entry: { id: entry.id, receivedAt: entry.receivedAt, method: entry.method, path: entry.subpath },
      operation: `${entry.method} ${entry.subpath}`,
    };
    if (answered !== undefined && index !== -1) at.route = { id: answered, index };
    const found = this.#index.find(entry.subpath);
    if (found === undefined) {
      this.out.finding(at, 'UNKNOWN_OPERATION', 'path', 'a path of the document', shown(entry.subpath));
      return;
    }
    const item = found.path.raw;
    const methods = methodsOf(followRef(this.doc.source, item));
    if (!methods.includes(entry.method.toUpperCase())) {
      const expected = methods.length === 0 ? 'an operation (the path has none)' : `one of ${methods.join(', ')}`;
      this.out.finding(at, 'UNKNOWN_OPERATION', 'method', `${expected} (${found.path.template})`, entry.method);
      return;
    }
    const validator = this.#validator(found.path.template, item, entry.method);
    if (validator === undefined) return;
    if (entry.bodyTruncated && validator.readsBody) {
      this.out.note(at, 'its body was longer than the journal keeps, so the body was not checked');
    }
    const params: Record<string, string> = {};
    for (const [name, value] of Object.entries(found.params)) params[paramName(name)] = value;
    const body = entry.bodyTruncated
      ? new Uint8Array()
      : entry.bodyEncoding === 'base64'
        ? (fromBase64(entry.body) ?? new Uint8Array())
        : new TextEncoder().encode(entry.body);
    const mark = validator.check({ query: entry.query, headers: entry.headers, params, body });
    for (const issue of mark.errors) this.#finding(at, issue, entry, params);
    if (mark.total !== undefined) {
      this.out.note(at, `${mark.total - mark.errors.length} more errors of this request, not listed`);
    }
  }

  #finding(at: At, issue: ValidationIssue, entry: JournalEntry, params: Record<string, string>): void {
    const required = REQUIRED.exec(issue.message);
    let code: VerifyFindingCode = 'REQUEST_SCHEMA_MISMATCH';
    let path = `${issue.in}${issue.path}`;
    if (issue.message === 'a body is required') code = 'MISSING_PARAMETER';
    else if (required !== null && issue.in !== 'body') {
      code = 'MISSING_PARAMETER';
      path = `${issue.in}/${required[1]}`;
    }
    const sent = code === 'MISSING_PARAMETER' ? 'nothing' : shown(valueAt(entry, issue, params));
    this.out.finding(at, code, path, issue.message, sent);
  }
}

/** The value an issue points at in the request, as far as it can be read back. */
function valueAt(entry: JournalEntry, issue: ValidationIssue, params: Record<string, string>): unknown {
  const keys = issue.path
    .split('/')
    .slice(1)
    .map((key) => key.replaceAll('~1', '/').replaceAll('~0', '~'));
  let node: unknown =
    issue.in === 'body'
      ? (entry.json ?? entry.body)
      : issue.in === 'query'
        ? entry.query
        : issue.in === 'headers'
          ? entry.headers
          : params;
  for (const key of keys) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
