/**
 * A route's answer, prepared once when the routes change: the headers merged
 * and defaulted, the body encoded and its Content-Length counted, so serving an
 * untemplated route allocates nothing. A templated one renders its parts.
 *
 * @module
 */

import { kindOf } from '../../api/answer-kinds.js';
import type { RouteAnswer } from '../../api/route.js';
import { base64Bytes } from '../../codec/base64.js';
import { unsendableHeader } from '../../codec/http-header.js';
import { jsonTextOf } from '../../codec/json-text.js';
import { utf8Length } from '../../codec/utf8-length.js';
import { type Latency, latencySampler } from '../../random/latency.js';
import { parseTemplate } from '../../template/template-syntax.js';
import type { AnswerHeaderMap, EndpointAnswer, FaultAnswer, RespondAnswer } from '../endpoint-answer.js';
import { errorAnswer, reuseHeaders } from '../endpoint-answer.js';
import { answerCases, matchAnswer } from '../match-answer.js';
import { BODILESS_STATUS, CORS_HEADERS } from '../read-response.js';
import { compileJsonTemplate, type JsonTemplate, renderJson, renderText, type TemplateContext } from '../template.js';
import { KIND_COMPILERS } from './answer-kinds.js';
import { type CompiledAnswer, compileHeaderTemplates, lowerHeaders, templated } from './compile-parts.js';

/** The Content-Type of each body form when the answer's headers do not say. */
const DEFAULT_TYPES = {
  data: 'application/json; charset=utf-8',
  body: 'text/plain; charset=utf-8',
  bodyBase64: 'application/octet-stream',
} as const;

type Body = { form: keyof typeof DEFAULT_TYPES; value: string | Uint8Array } | undefined;

function bodyOf(answer: RouteAnswer): Body {
  if (Object.hasOwn(answer, 'data')) return { form: 'data', value: jsonTextOf(answer.data) };
  if (answer.body !== undefined) return { form: 'body', value: answer.body };
  if (answer.bodyBase64 !== undefined) return { form: 'bodyBase64', value: base64Bytes(answer.bodyBase64) };
  return undefined;
}

function finish(
  status: number,
  base: Map<string, string[]>,
  body: string | Uint8Array | null,
  delay: number,
): { full: RespondAnswer; head: RespondAnswer } {
  const headers: Record<string, string | readonly string[]> = { ...CORS_HEADERS };
  for (const [name, values] of base) headers[name] = values.length === 1 ? (values[0] as string) : values;
  if (body !== null) {
    headers['content-length'] = String(typeof body === 'string' ? utf8Length(body) : body.byteLength);
  }
  const frozen: AnswerHeaderMap = Object.freeze(headers);
  return {
    full: Object.freeze({ kind: 'respond', status, headers: frozen, body, delay }),
    head: Object.freeze({ kind: 'respond', status, headers: frozen, body: null, delay }),
  };
}

/**
 * An answer that cannot be sent as it was kept (an earlier version saved header
 * values it now refuses): every request gets 500 `ANSWER_NOT_SENDABLE` saying
 * why, instead of a failure while its head is written.
 */
function notSendable(problem: string): CompiledAnswer {
  const message = `this answer cannot be sent: ${problem}. It was saved by an earlier version that did not check header values; save it again with values HTTP can carry`;
  const full = errorAnswer(500, 'ANSWER_NOT_SENDABLE', message, { cors: true });
  const head = errorAnswer(500, 'ANSWER_NOT_SENDABLE', message, { cors: true, head: true });
  return {
    statusCode: 500,
    templated: false,
    bytes: 512 + message.length * 2,
    answer: (isHead) => (isHead ? head : full),
  };
}

/**
 * Compiles a route's answer (already checked by `checkRoutes`; one kept before
 * header values were checked answers 500 `ANSWER_NOT_SENDABLE`).
 */
export function compileAnswer(answer: RouteAnswer): CompiledAnswer {
  const compiled = compileFixed(answer);
  return answer.latency === undefined ? compiled : withLatency(compiled, answer.latency);
}

/** The answer with a delay drawn per request added to its own (respond, stream, fault, upgrade: those that wait). */
function withLatency(compiled: CompiledAnswer, latency: Latency): CompiledAnswer {
  const draw = latencySampler(latency);
  return {
    statusCode: compiled.statusCode,
    templated: compiled.templated,
    bytes: compiled.bytes,
    answer(head, context) {
      return matchAnswer(compiled.answer(head, context), LATER, draw, undefined);
    },
    ...(compiled.contextOf === undefined ? {} : { contextOf: compiled.contextOf }),
  };
}

/** A drawn delay added to the answer's own; a relay waits for its upstream instead. */
const LATER = answerCases<EndpointAnswer, () => number>({
  relay: (answer) => answer,
  otherwise: (answer, draw) => ({ ...answer, delay: answer.delay + draw() }),
});

function compileFixed(answer: RouteAnswer): CompiledAnswer {
  // Checked once per compile, never per request; a templated value's placeholders render sendable.
  const problem = answer.headers === undefined ? undefined : unsendableHeader(answer.headers);
  if (problem !== undefined) return notSendable(problem);
  const kind = kindOf(answer);
  const compile = kind === undefined ? 'plain' : KIND_COMPILERS[kind.key];
  if (compile !== 'plain') return compile(answer);
  const statusCode = answer.statusCode ?? 200;
  const delay = answer.delay ?? 0;
  const bodiless = BODILESS_STATUS.has(statusCode);
  const body = bodiless ? undefined : bodyOf(answer);
  const headers = lowerHeaders(answer);
  if (body !== undefined && !headers.has('content-type')) headers.set('content-type', [DEFAULT_TYPES[body.form]]);
  const size = body === undefined ? 0 : typeof body.value === 'string' ? body.value.length * 2 : body.value.byteLength;
  const bytes = size + 256 + JSON.stringify(answer.headers ?? {}).length * 2;

  if (answer.fault !== undefined) {
    const fault = answer.fault;
    const prepared = finish(fault === 'close' ? statusCode : 0, headers, body?.value ?? null, delay);
    reuseHeaders(prepared.full.headers);
    const faultAnswer: FaultAnswer = {
      kind: 'fault',
      fault,
      status: fault === 'close' ? statusCode : 0,
      headers: prepared.full.headers,
      body: fault === 'close' ? (body?.value ?? null) : null,
      delay,
    };
    return { statusCode: faultAnswer.status, templated: false, bytes, answer: () => faultAnswer };
  }

  if (answer.template !== true) {
    const prepared = finish(statusCode, headers, body?.value ?? null, delay);
    reuseHeaders(prepared.full.headers);
    return { statusCode, templated: false, bytes, answer: (head) => (head ? prepared.head : prepared.full) };
  }

  const renderHeaders = compileHeaderTemplates(headers);
  let renderBody: (context: TemplateContext) => string | Uint8Array | null = () => body?.value ?? null;
  if (body?.form === 'data') {
    const template: JsonTemplate = compileJsonTemplate(body.value as string);
    renderBody = (context) => renderJson(template, context);
  } else if (body?.form === 'body') {
    const parts = parseTemplate(body.value as string);
    renderBody = (context) => renderText(parts, context);
  }
  return templated(statusCode, bytes, (head, context) => {
    const prepared = finish(statusCode, renderHeaders(context), renderBody(context), delay);
    return head ? prepared.head : prepared.full;
  });
}
