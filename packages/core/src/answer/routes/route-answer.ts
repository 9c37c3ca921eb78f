/**
 * A route's answer, prepared once when the routes change: the headers merged
 * and defaulted, the body encoded and its Content-Length counted, so serving an
 * untemplated route allocates nothing. A templated one renders its parts.
 *
 * @module
 */

import { base64Bytes } from '../../wire/base64.js';
import { unsendableHeader } from '../../wire/http-header.js';
import { jsonTextOf } from '../../wire/json-text.js';
import type { RouteAnswer } from '../../wire/route.js';
import { parseTemplate, type TemplatePart } from '../../wire/template-syntax.js';
import { utf8Length } from '../../wire/utf8-length.js';
import type {
  AnswerHeaderMap,
  EndpointAnswer,
  FaultAnswer,
  RespondAnswer,
  StreamAnswer,
  UpgradeAnswer,
} from '../endpoint-answer.js';
import { errorAnswer, reuseHeaders } from '../endpoint-answer.js';
import { llmAnswer } from '../llm/llm-answer.js';
import { BODILESS_STATUS, CORS_HEADERS } from '../read-response.js';
import { compileStream, STREAM_HEADERS, STREAM_TYPES } from '../stream/stream-frames.js';
import {
  compileJsonTemplate,
  type JsonTemplate,
  renderHeader,
  renderJson,
  renderText,
  type TemplateContext,
} from '../template.js';
import { prepareScript, scriptBytes } from '../websocket/socket-script.js';

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

/** The answer's headers under lower-case names (two spellings of one name are sent as one list). */
function lowerHeaders(answer: RouteAnswer): Map<string, string[]> {
  const headers = new Map<string, string[]>();
  for (const [name, value] of Object.entries(answer.headers ?? {})) {
    const lower = name.toLowerCase();
    const list = headers.get(lower) ?? [];
    list.push(...(Array.isArray(value) ? value : [value]));
    headers.set(lower, list);
  }
  return headers;
}

/** A prepared answer: `answer(head, context)` gives what an adapter sends. */
export interface CompiledAnswer {
  readonly statusCode: number;
  /** Whether it renders per request (then `context` is needed). */
  readonly templated: boolean;
  /** Approximate memory cost, for the cache bound. */
  readonly bytes: number;
  answer(head: boolean, context?: TemplateContext): EndpointAnswer;
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

function headerMap(base: Map<string, string[]>): AnswerHeaderMap {
  const headers: Record<string, string | readonly string[]> = { ...CORS_HEADERS };
  for (const [name, values] of base) headers[name] = values.length === 1 ? (values[0] as string) : values;
  return Object.freeze(headers);
}

/** A streamed answer: the stream's Content-Type and no-buffering headers unless the answer sets them. */
/** Parses each header value of a templated answer once; the result renders them for one request. */
function compileHeaderTemplates(headers: Map<string, string[]>): (context: TemplateContext) => Map<string, string[]> {
  const parts = new Map<string, TemplatePart[][]>();
  for (const [name, values] of headers) parts.set(name, values.map(parseTemplate));
  return (context) => {
    const rendered = new Map<string, string[]>();
    for (const [name, values] of parts)
      rendered.set(
        name,
        values.map((value) => renderHeader(value, context)),
      );
    return rendered;
  };
}

/** An answer rendered per request (its memory cost counted twice: the parts and a rendering). */
function templated(
  statusCode: number,
  bytes: number,
  render: (head: boolean, context: TemplateContext) => EndpointAnswer,
): CompiledAnswer {
  return {
    statusCode,
    templated: true,
    bytes: bytes * 2,
    answer(head, context) {
      if (context === undefined) throw new TypeError('a templated answer needs its request');
      return render(head, context);
    },
  };
}

function compileStreamAnswer(answer: RouteAnswer & { stream: NonNullable<RouteAnswer['stream']> }): CompiledAnswer {
  const statusCode = answer.statusCode ?? 200;
  const delay = answer.delay ?? 0;
  const end = answer.stream.end ?? 'close';
  const template = answer.template === true;
  const headers = lowerHeaders(answer);
  if (!headers.has('content-type')) headers.set('content-type', [STREAM_TYPES[answer.stream.format]]);
  for (const [name, value] of Object.entries(STREAM_HEADERS)) if (!headers.has(name)) headers.set(name, [value]);
  const stream = compileStream(answer.stream, template);
  const bytes = stream.bytes + 256 + JSON.stringify(answer.headers ?? {}).length * 2;
  // HEAD: the headers alone, ended at once.
  const build = (map: AnswerHeaderMap, frames: StreamAnswer['frames'] | undefined): StreamAnswer =>
    Object.freeze({
      kind: 'stream',
      status: statusCode,
      headers: map,
      frames: frames ?? [],
      end: frames === undefined ? 'close' : end,
      delay,
    });
  if (!template) {
    const map = headerMap(headers);
    const full = build(map, stream.frames());
    const head = build(map, undefined);
    return { statusCode, templated: false, bytes, answer: (isHead) => (isHead ? head : full) };
  }
  const renderHeaders = compileHeaderTemplates(headers);
  return templated(statusCode, bytes, (head, context) =>
    build(headerMap(renderHeaders(context)), head ? undefined : stream.frames(context)),
  );
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
 * A WebSocket answer: the script prepared once; the route step gives each
 * upgrade request its own copy with the session (see `pipeline/route-step.ts`).
 */
function compileSocketAnswer(answer: RouteAnswer, websocket: NonNullable<RouteAnswer['websocket']>): CompiledAnswer {
  const headers: Record<string, string | readonly string[]> = {};
  for (const [name, values] of lowerHeaders(answer))
    headers[name] = values.length === 1 ? (values[0] as string) : values;
  const script = prepareScript(websocket);
  const upgrade: UpgradeAnswer = Object.freeze({
    kind: 'upgrade',
    status: 101,
    headers: Object.freeze(headers),
    script,
    delay: answer.delay ?? 0,
  });
  return { statusCode: 101, templated: false, bytes: scriptBytes(script), answer: () => upgrade };
}

/**
 * An LLM API answer: rendered per request (it reads the request's model and
 * stream fields, and gives fresh ids) into a respond or stream answer.
 */
function compileLlmAnswer(answer: RouteAnswer, llm: NonNullable<RouteAnswer['llm']>): CompiledAnswer {
  const template = answer.template === true;
  const headers = lowerHeaders(answer);
  const renderHeaders = template ? compileHeaderTemplates(headers) : () => headers;
  const render = llmAnswer({ llm, delay: answer.delay ?? 0, template, headers: renderHeaders });
  const size = (llm.text?.length ?? 0) * 2 + JSON.stringify(llm.toolCalls ?? []).length * 2;
  return templated(200, size + 1024 + JSON.stringify(answer.headers ?? {}).length * 2, render);
}

/**
 * Compiles a route's answer (already checked by `checkRoutes`; one kept before
 * header values were checked answers 500 `ANSWER_NOT_SENDABLE`).
 */
export function compileAnswer(answer: RouteAnswer): CompiledAnswer {
  // Checked once per compile, never per request; a templated value's placeholders render sendable.
  const problem = answer.headers === undefined ? undefined : unsendableHeader(answer.headers);
  if (problem !== undefined) return notSendable(problem);
  if (answer.stream !== undefined) return compileStreamAnswer({ ...answer, stream: answer.stream });
  if (answer.websocket !== undefined) return compileSocketAnswer(answer, answer.websocket);
  if (answer.llm !== undefined) return compileLlmAnswer(answer, answer.llm);
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
