/**
 * A route's `llm` answer compiled into the engine's own kinds: a JSON body is a
 * `respond` answer, a streamed one a `stream` answer of SSE frames (each chunk
 * `chunkDelayMs` after the one before), and `end: 'reset'` the stream's own
 * reset halfway (a JSON body: a `close` fault after half of it). No sink
 * knows about LLMs. Rendered per request: the request's `model`, `stream` and
 * `stream_options` are read, ids are fresh, and `text` is templated with
 * `template: true`. Bedrock's ConverseStream frames its events in AWS's binary
 * event stream (bedrock-stream.ts).
 *
 * @module
 */

import { type LlmAnswer, MAX_LLM_MODEL_LENGTH } from '../../api/answer-llm.js';
import { utf8Length } from '../../codec/utf8-length.js';
import { NOT_JSON } from '../../journal/request-filter.js';
import { sseEvent } from '../../journal/sse-frames.js';
import { MockpointError } from '../../registry/errors.js';
import { SETTINGS } from '../../registry/settings.js';
import { parseTemplate } from '../../template/template-syntax.js';
import type { AnswerHeaderMap, EndpointAnswer, StreamFrame } from '../endpoint-answer.js';
import { CORS_HEADERS } from '../read-response.js';
import type { KindRequest } from '../routes/compile-parts.js';
import { STREAM_HEADERS } from '../stream/stream-frames.js';
import { BODY_NOT_READ, renderText, type TemplateContext } from '../template.js';
import { bedrockEventFrame } from './bedrock-stream.js';
import { LIVE_SOURCE, type LlmEvent, type LlmRequest, type LlmSource, llmWire } from './llm-wire.js';

const encoder = new TextEncoder();

/** Events a stream has besides its chunks (and per tool call), kept out of the chunk budget. */
const OVERHEAD_EVENTS = 12;
const CALL_OVERHEAD_EVENTS = 3;

function bodyNotRead(): MockpointError {
  return new MockpointError(
    'BODY_TOO_LARGE',
    'its llm answer reads the request body (model, stream, messages), and the body is longer than the body limit (MOCKPOINT_MAX_BODY_BYTES), the most mockpoint reads of a request; send a smaller body, or raise MOCKPOINT_MAX_BODY_BYTES',
  );
}

/** What the request says, from its JSON body (anything else: nothing), its subpath and its `alt` query parameter. */
export function llmRequestOf(json: unknown, at: { path?: string; query?: TemplateContext['query'] } = {}): LlmRequest {
  const where: { path?: string; alt?: string } = {};
  if (at.path !== undefined) where.path = at.path;
  const alt = at.query?.alt;
  if (typeof alt === 'string') where.alt = alt;
  if (json === NOT_JSON || json === BODY_NOT_READ || typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { includeUsage: false, inputChars: 0, ...where };
  }
  const body = json as Record<string, unknown>;
  const own = (key: string): unknown => (Object.hasOwn(body, key) ? body[key] : undefined);
  const model = own('model');
  const stream = own('stream');
  const options = own('stream_options');
  let inputChars = 0;
  for (const key of ['messages', 'input', 'system', 'instructions', 'contents', 'systemInstruction']) {
    const value = own(key);
    if (value !== undefined)
      inputChars += typeof value === 'string' ? value.length : (JSON.stringify(value)?.length ?? 0);
  }
  const out: {
    model?: string;
    stream?: boolean;
    includeUsage: boolean;
    inputChars: number;
    input?: unknown;
    dimensions?: unknown;
    encodingFormat?: unknown;
  } = {
    includeUsage:
      typeof options === 'object' &&
      options !== null &&
      Object.hasOwn(options, 'include_usage') &&
      (options as Record<string, unknown>).include_usage === true,
    inputChars,
  };
  if (typeof model === 'string' && model.length > 0 && model.length <= MAX_LLM_MODEL_LENGTH) out.model = model;
  if (typeof stream === 'boolean') out.stream = stream;
  // Embeddings read these three as they are (openai-embeddings.ts refuses what the API would).
  if (own('input') !== undefined) out.input = own('input');
  if (own('dimensions') !== undefined) out.dimensions = own('dimensions');
  if (own('encoding_format') !== undefined) out.encodingFormat = own('encoding_format');
  return { ...out, ...where };
}

/** Response headers: CORS, the provider's, then the route's own (which win). */
function mergeHeaders(provider: Record<string, string>, own: Map<string, string[]>, extra: Record<string, string>) {
  const headers: Record<string, string | readonly string[]> = { ...CORS_HEADERS, ...provider, ...extra };
  for (const [name, values] of own) headers[name] = values.length === 1 ? (values[0] as string) : values;
  return headers;
}

/** An NDJSON line's bytes: the event's data and a newline. */
function ndjsonLine(event: LlmEvent): Uint8Array {
  return encoder.encode(`${event.data}\n`);
}

/** An SSE event's bytes. */
function sseFrame(event: LlmEvent): Uint8Array {
  return sseEvent(event.event === undefined ? { data: event.data } : { event: event.event, data: event.data });
}

/**
 * The llm answer's template context: the common one and the request's subpath,
 * where Gemini names the model and the stream (`/v1beta/models/{model}:streamGenerateContent`).
 */
export interface LlmContext extends TemplateContext {
  /** The request's subpath (after `/endpoint/{name}`). */
  readonly path?: string;
}

/** The llm kind's context for a request: the common one and the subpath. */
export function llmContext(common: TemplateContext, request: KindRequest): LlmContext {
  return { ...common, path: request.subpath };
}

/** Options for {@link llmAnswer}. */
export interface LlmAnswerOptions {
  readonly llm: LlmAnswer;
  /** The route's answer delay. */
  readonly delay: number;
  /** With `template: true`, `text` renders per request. */
  readonly template: boolean;
  /** The route's own headers for this request (rendered when templated). */
  readonly headers: (context: TemplateContext) => Map<string, string[]>;
  readonly source?: LlmSource;
}

/**
 * The answer's renderer: `(head, context)` gives what one request gets.
 * Streams are bounded by the default limits of events and total time (the
 * literal text was checked against the server's own at save).
 */
export function llmAnswer(options: LlmAnswerOptions): (head: boolean, context: LlmContext) => EndpointAnswer {
  const { llm, delay } = options;
  const source = options.source ?? LIVE_SOURCE;
  const textParts = llm.text !== undefined && options.template ? parseTemplate(llm.text) : undefined;
  const chunkDelay = llm.chunkDelayMs ?? 0;
  const byEvents =
    SETTINGS.maxStreamEvents.default - OVERHEAD_EVENTS - CALL_OVERHEAD_EVENTS * (llm.toolCalls?.length ?? 0);
  const byTime = chunkDelay > 0 ? Math.floor((SETTINGS.maxStreamMs.default - delay) / chunkDelay) : byEvents;
  const maxChunks = Math.max(1, Math.min(byEvents, byTime));
  const render = (head: boolean, context: LlmContext): EndpointAnswer => {
    // The answer follows the request's model, stream and messages: a body not read whole is refused, never read as empty.
    if (context.json === BODY_NOT_READ) throw bodyNotRead();
    const text = textParts === undefined ? llm.text : renderText(textParts, context);
    // The live source tells the time by the app's clock (docs/clock.md): `created` follows it.
    const now = options.source === undefined ? context.now : undefined;
    const timed = now === undefined ? source : { random: source.random, now: () => now };
    const request = llmRequestOf(context.json, context);
    const wire = llmWire({ answer: llm, text, request, maxChunks }, timed);
    const own = options.headers(context);
    if (wire.kind === 'json') {
      const headers: AnswerHeaderMap = Object.freeze(
        mergeHeaders(wire.headers, own, { 'content-length': String(utf8Length(wire.body)) }),
      );
      if (llm.end === 'reset' && !head) {
        return { kind: 'fault', fault: 'close', status: wire.status, headers, body: wire.body, delay };
      }
      return { kind: 'respond', status: wire.status, headers, body: head ? null : wire.body, delay };
    }
    const headers: AnswerHeaderMap = Object.freeze(mergeHeaders(wire.headers, own, STREAM_HEADERS));
    const encode = wire.kind === 'eventstream' ? bedrockEventFrame : wire.kind === 'ndjson' ? ndjsonLine : sseFrame;
    let events = wire.events;
    if (llm.end === 'reset') {
      // Halfway: the events before the middle chunk (or, without chunks, the first half).
      const chunks = events.flatMap((event, i) => (event.chunk ? [i] : []));
      const cut = chunks.length > 0 ? (chunks[Math.floor(chunks.length / 2)] as number) : Math.floor(events.length / 2);
      events = events.slice(0, cut);
    }
    const frames: StreamFrame[] = head
      ? []
      : events.map((event) => ({
          bytes: encode(event),
          delay: event.chunk ? chunkDelay : 0,
        }));
    return {
      kind: 'stream',
      status: wire.status,
      headers,
      frames,
      end: head ? 'close' : (llm.end ?? 'close'),
      delay,
    };
  };
  return render;
}
