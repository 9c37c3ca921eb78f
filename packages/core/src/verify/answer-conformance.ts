/**
 * Answers as a server sent them, checked against the document's response
 * schemas for their operation and status: what a proxy in front of a twin, or a
 * test reading its answers, holds a twin to (docs/twins.md, "A worked example").
 * The operation is found from the request's path as `verify --journal` finds it
 * (operation-index.ts), the answer checked as `verify` checks a route's
 * (answer-check.ts). An error status (4xx, 5xx) the operation does not declare
 * is not a finding: the document says nothing of that answer, so there is
 * nothing to hold it to; a success status it does not declare is.
 *
 * @module
 */
import type { RouteAnswer } from '../api/route.js';
import type { VerifyFinding } from '../api/verify-json.js';
import { AnswerCheck, responseKey } from './answer-check.js';
import { followRef, isObject, type OpenApiDocument } from './openapi-document.js';
import { methodsOf, OperationIndex } from './operation-index.js';
import { type At, Collector } from './verify-collector.js';

/** Findings one answer lists at most. */
const MAX_FINDINGS_PER_ANSWER = 50;

/** The content types whose body is read as text (JSON, `text/*` but events). */
const READ_AS_TEXT = /^\s*(?:application\/(?:[\w.+-]+\+)?json|text\/(?!event-stream))/i;

/** An answer as it was sent: the request's method and path, the status, headers and body text. */
export interface SentAnswer {
  method: string;
  /** The request's path as sent (percent-encoded), its query left off or not. */
  path: string;
  status: number;
  /** Response headers by name (a `content-type` says how the body is read). */
  headers: Record<string, string>;
  /** The body's text ('' for none). */
  body: string;
}

/** The check of answers against one document: its operation index made once. */
export class AnswerConformance {
  readonly #index: OperationIndex;
  readonly #doc: OpenApiDocument;
  /** Answers checked. */
  checked = 0;

  constructor(doc: OpenApiDocument) {
    this.#doc = doc;
    this.#index = new OperationIndex(doc);
  }

  /** What is wrong with `answer` by the document (`[]`: it conforms). */
  check(answer: SentAnswer): VerifyFinding[] {
    this.checked++;
    const out = new Collector(MAX_FINDINGS_PER_ANSWER);
    const path = answer.path.split('?')[0] ?? '';
    const method = answer.method.toUpperCase();
    const at: At = { endpoint: '', operation: `${method} ${path}` };
    const found = this.#index.find(path);
    if (found === undefined) {
      out.finding(at, 'UNKNOWN_OPERATION', 'path', 'a path of the document', path);
      return out.findings;
    }
    at.operation = `${method} ${found.path.template}`;
    const item = found.path.item();
    const operation = item?.[method.toLowerCase()];
    if (!isObject(operation)) {
      const methods = methodsOf(followRef(this.#doc.source, found.path.raw)).join(', ');
      out.finding(at, 'UNKNOWN_OPERATION', 'method', `one of ${methods} (${found.path.template})`, method);
      return out.findings;
    }
    const responses = isObject(operation.responses) ? operation.responses : {};
    if (answer.status >= 400 && responseKey(responses, answer.status) === undefined) return [];
    const routeAnswer: RouteAnswer = { statusCode: answer.status, headers: answer.headers };
    if (answer.body !== '') {
      const type = Object.entries(answer.headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '';
      // JSON and text are held against the schema; events and bytes only by their type (as verify does).
      if (READ_AS_TEXT.test(type)) routeAnswer.body = answer.body;
      else routeAnswer.bodyBase64 = 'AA==';
    }
    new AnswerCheck(this.#doc, out).check(at, operation, routeAnswer, method);
    return out.findings;
  }
}
