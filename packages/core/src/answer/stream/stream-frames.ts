/**
 * A streamed answer's events as the bytes each is written as: SSE frames,
 * NDJSON lines or raw chunks. Prepared once when the answer is compiled; a
 * templated stream renders each event per request. Also the resume of an SSE
 * stream after the client's `Last-Event-ID`.
 *
 * @module
 */

import { type AnswerStream, isTextData, type StreamFormat, sseDataText } from '../../api/answer-stream.js';
import { base64Bytes } from '../../codec/base64.js';
import { jsonTextOf } from '../../codec/json-text.js';
import { sseEvent } from '../../journal/sse-frames.js';
import { parseTemplate, type TemplatePart } from '../../template/template-syntax.js';
import type { StreamAnswer, StreamFrame } from '../endpoint-answer.js';
import { compileJsonTemplate, type JsonTemplate, renderJson, renderText, type TemplateContext } from '../template.js';

/** The Content-Type of each format when the answer's headers do not say. */
export const STREAM_TYPES: Readonly<Record<StreamFormat, string>> = {
  sse: 'text/event-stream; charset=utf-8',
  ndjson: 'application/x-ndjson',
  raw: 'application/octet-stream',
};

/**
 * Headers every stream gets unless the answer sets them: no caching and no
 * transformation on the way (`no-transform` keeps compression off), and no
 * buffering in nginx.
 */
export const STREAM_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
};

const encoder = new TextEncoder();

/** One event, ready to be written: literal bytes, or a renderer (templated). */
type PreparedEvent =
  | { bytes: Uint8Array; render?: undefined; delay: number; id?: string }
  | { bytes?: undefined; render: (context: TemplateContext) => Uint8Array; delay: number; id?: string };

/** A stream's events, prepared: `frames(context)` gives what a request gets. */
export interface CompiledStream {
  /** Whether any event renders per request (then `frames` needs its context). */
  readonly templated: boolean;
  /** Approximate memory cost, for the cache bound. */
  readonly bytes: number;
  frames(context?: TemplateContext): StreamFrame[];
}

/** Prepares one SSE event (the fields other than `data` never render). */
function sseFrame(event: AnswerStream['events'][number], template: boolean): PreparedEvent {
  const delay = event.delay ?? 0;
  const fields = { event: event.event, id: event.id, retry: event.retry };
  const text = sseDataText(event.data);
  const id = event.id;
  if (template) {
    if (isTextData(event.data)) {
      const parts: TemplatePart[] = parseTemplate(text);
      if (parts.some((part) => typeof part !== 'string')) {
        return { render: (context) => sseEvent({ ...fields, data: renderText(parts, context) }), delay, id };
      }
    } else {
      const json: JsonTemplate = compileJsonTemplate(text);
      if (json.some((piece) => typeof piece !== 'string')) {
        return { render: (context) => sseEvent({ ...fields, data: renderJson(json, context) }), delay, id };
      }
    }
  }
  return { bytes: sseEvent({ ...fields, data: text }), delay, id };
}

function ndjsonFrame(event: AnswerStream['events'][number], template: boolean): PreparedEvent {
  const delay = event.delay ?? 0;
  const text = jsonTextOf(event.data);
  if (template) {
    const json = compileJsonTemplate(text);
    if (json.some((piece) => typeof piece !== 'string')) {
      return { render: (context) => encoder.encode(`${renderJson(json, context)}\n`), delay };
    }
  }
  return { bytes: encoder.encode(`${text}\n`), delay };
}

function rawFrame(event: AnswerStream['events'][number], template: boolean): PreparedEvent {
  const delay = event.delay ?? 0;
  if (event.body === undefined) return { bytes: base64Bytes(event.bodyBase64 ?? ''), delay };
  if (template) {
    const parts = parseTemplate(event.body);
    if (parts.some((part) => typeof part !== 'string')) {
      return { render: (context) => encoder.encode(renderText(parts, context)), delay };
    }
  }
  return { bytes: encoder.encode(event.body), delay };
}

const FRAMES = { sse: sseFrame, ndjson: ndjsonFrame, raw: rawFrame } as const;

/** Prepares a (checked) stream; with `template`, event data is rendered per request. */
export function compileStream(stream: AnswerStream, template: boolean): CompiledStream {
  const prepared = stream.events.map((event) => FRAMES[stream.format](event, template));
  const templated = prepared.some((event) => event.render !== undefined);
  let bytes = 64 * prepared.length;
  for (const event of prepared) bytes += event.bytes?.byteLength ?? 256;
  const literal: StreamFrame[] | undefined = templated ? undefined : prepared.map(toFrame);
  return {
    templated,
    bytes,
    frames(context) {
      if (literal !== undefined) return literal;
      if (context === undefined) throw new TypeError('a templated stream needs its request');
      return prepared.map((event) =>
        toFrame(
          event.render === undefined ? event : { bytes: event.render(context), delay: event.delay, id: event.id },
        ),
      );
    },
  };
}

function toFrame(event: { bytes?: Uint8Array; delay: number; id?: string }): StreamFrame {
  const frame: { bytes: Uint8Array; delay: number; id?: string } = {
    bytes: event.bytes as Uint8Array,
    delay: event.delay,
  };
  if (event.id !== undefined) frame.id = event.id;
  return Object.freeze(frame);
}

/**
 * The answer a client reconnecting with `Last-Event-ID: lastEventId` gets: the
 * frames after the (first) one with that id; every frame when no frame has it.
 */
export function resumeAfter(answer: StreamAnswer, lastEventId: string | undefined): StreamAnswer {
  if (lastEventId === undefined) return answer;
  const at = answer.frames.findIndex((frame) => frame.id === lastEventId);
  if (at === -1) return answer;
  return { ...answer, frames: answer.frames.slice(at + 1) };
}
