/**
 * Streamed answers as they cross the wire: `stream: { format, events, end }` in
 * the one answer shape, its JSON (each event's `data` kept as its exact text),
 * and the checks the schema cannot state (which fields each format takes, the
 * limits on events, bytes and total time), each with a stable code.
 *
 * @module
 */
import { isBase64 } from '../codec/base64.js';
import { JsonText, jsonTextOf, scanJson } from '../codec/json-text.js';
import { MockpointError } from '../registry/errors.js';
import {
  jsonStringTokens,
  minRenderedBytes,
  minRenderedJsonBytes,
  templateSyntaxProblem,
} from '../template/template-syntax.js';

/** How the events are written: server-sent events, one JSON text per line, or bytes as they are. */
export type StreamFormat = 'sse' | 'ndjson' | 'raw';

/** The formats, in the order the docs list them. */
export const STREAM_FORMATS: readonly StreamFormat[] = ['sse', 'ndjson', 'raw'];

/**
 * What happens after the last event: `close` ends the response normally; `hang`
 * keeps the connection open (nothing more is sent) until the client leaves or
 * the server shuts down; `reset` breaks the connection (a stream that dies halfway).
 */
export type StreamEnd = 'close' | 'hang' | 'reset';

/** The ends, in the order the docs list them. */
export const STREAM_ENDS: readonly StreamEnd[] = ['close', 'hang', 'reset'];

/**
 * One event of a stream. Which fields apply depends on the format:
 * - `sse`: `data` (a string is sent as text, any other JSON value as its exact
 *   text; several lines become several `data:` lines), `event?`, `id?`, `retry?`;
 * - `ndjson`: `data` (any JSON value, one line);
 * - `raw`: `body` (text) or `bodyBase64` (bytes).
 */
export interface StreamEvent {
  /** Milliseconds after the previous event (after the headers, for the first). @default 0 */
  delay?: number;
  /** `sse`, `ndjson`: the event's data. */
  data?: unknown;
  /** `sse`: the event type (`event:` line). */
  event?: string;
  /** `sse`: the event id (`id:` line); a request with `Last-Event-ID` resumes after it. */
  id?: string;
  /** `sse`: the client's reconnection time in milliseconds (`retry:` line). */
  retry?: number;
  /** `raw`: text sent as UTF-8. */
  body?: string;
  /** `raw`: bytes, in base64. */
  bodyBase64?: string;
}

/**
 * A streamed answer: each event is written and flushed `delay` ms after the one before.
 * @example { format: 'sse', events: [{ data: { n: 1 } }, { data: '[DONE]', delay: 50 }], end: 'close' }
 */
export interface AnswerStream {
  format: StreamFormat;
  events: StreamEvent[];
  /** @default 'close' */
  end?: StreamEnd;
}

/** The fields each format takes (besides `delay`). */
export const STREAM_EVENT_FIELDS: Readonly<Record<StreamFormat, readonly string[]>> = {
  sse: ['data', 'event', 'id', 'retry'],
  ndjson: ['data'],
  raw: ['body', 'bodyBase64'],
};

/** The limits a stream is checked against. */
export interface StreamLimits {
  /** Largest total of the events' bytes (the body limit). */
  maxBodyBytes: number;
  /** Largest `delay` of one event. */
  maxDelayMs: number;
  /** Most events in one stream. */
  maxStreamEvents: number;
  /** Largest sum of the answer's and the events' delays. */
  maxStreamMs: number;
}

const encoder = new TextEncoder();

/** The text an SSE event's `data` is sent as: a string as itself, other JSON as its exact text. */
export function sseDataText(data: unknown): string {
  if (typeof data === 'string') return data;
  if (data instanceof JsonText && data.text.startsWith('"')) return JSON.parse(data.text) as string;
  return jsonTextOf(data);
}

/** Whether an SSE event's `data` is a string (templated as text) rather than other JSON. */
export function isTextData(data: unknown): boolean {
  return typeof data === 'string' || (data instanceof JsonText && data.text.startsWith('"'));
}

function utf8(text: string): number {
  return encoder.encode(text).byteLength;
}

/** The bytes of an SSE event as it is written (`retry:`, `id:`, `event:`, a `data:` line per line, a blank line). */
function sseFrameBytes(event: StreamEvent, data: string): number {
  let bytes = 1;
  if (event.retry !== undefined) bytes += `retry: ${event.retry}\n`.length;
  if (event.id !== undefined) bytes += 5 + utf8(event.id);
  if (event.event !== undefined) bytes += 8 + utf8(event.event);
  for (const line of data.split(/\r\n|\r|\n/)) bytes += 7 + utf8(line);
  return bytes;
}

function checkTemplate(text: string, fail: (message: string) => never): void {
  const problem = templateSyntaxProblem(text);
  if (problem !== undefined) fail(problem);
}

/**
 * Checks a stream that passed the schema: fields that fit its format, ids,
 * event names and base64, template syntax (when `template`), then the limits:
 * events ≤ `maxStreamEvents` and delays in total ≤ `maxStreamMs`
 * (`STREAM_TOO_LONG`), bytes ≤ `maxBodyBytes` (`BODY_TOO_LARGE`). `where` starts
 * each message (e.g. `routes[2].answer`); `details` goes with the error.
 */
export function checkStream(
  stream: AnswerStream,
  options: StreamLimits & {
    where: string;
    details?: Record<string, unknown>;
    template: boolean;
    /** The answer's own delay (counts towards the total). */
    delay: number;
  },
): void {
  const { where, details } = options;
  const at = `${where}.stream`;
  const invalid = (path: string, message: string): never => {
    throw new MockpointError('INVALID_STREAM', `${at}${path}: ${message}`, { details });
  };
  const { format, events } = stream;
  if (events.length > options.maxStreamEvents) {
    throw new MockpointError(
      'STREAM_TOO_LONG',
      `${at}.events: ${events.length} events, more than the limit ${options.maxStreamEvents} (MOCKPOINT_MAX_STREAM_EVENTS)`,
      { details },
    );
  }
  const allowed = STREAM_EVENT_FIELDS[format];
  let bytes = 0;
  let total = options.delay;
  events.forEach((event, i) => {
    const path = `.events[${i}]`;
    const fail = (message: string): never => invalid(path, message);
    for (const key of Object.keys(event)) {
      if (key !== 'delay' && !allowed.includes(key)) {
        fail(`${key} does not apply to the ${format} format (it takes ${allowed.join(', ')} and delay)`);
      }
    }
    total += event.delay ?? 0;
    if (format === 'raw') {
      const forms = ['body', 'bodyBase64'].filter((form) => Object.hasOwn(event, form));
      if (forms.length !== 1) fail('a raw event has exactly one of body and bodyBase64');
      if (event.body !== undefined) {
        bytes += encoder.encode(event.body).byteLength;
        if (options.template) checkTemplate(event.body, fail);
      } else {
        const base64 = event.bodyBase64 as string;
        if (!isBase64(base64)) fail('bodyBase64 is not base64 (A-Z a-z 0-9 + /, padded with =)');
        bytes += Math.floor((base64.length * 3) / 4);
      }
      return;
    }
    if (!Object.hasOwn(event, 'data')) fail(`data is required in a ${format} event (null is a value)`);
    if (format === 'sse') {
      if (event.event !== undefined && (event.event === '' || /[\r\n]/.test(event.event))) {
        fail('event must be a non-empty name without CR or LF');
      }
      if (event.id !== undefined && /[\r\n\0]/.test(event.id)) fail('id may not hold CR, LF or NUL');
      const text = sseDataText(event.data);
      bytes += sseFrameBytes(event, text);
      if (options.template) {
        if (isTextData(event.data)) checkTemplate(text, fail);
        else for (const token of jsonStringTokens(text)) checkTemplate(token.value, fail);
      }
    } else {
      const text = jsonTextOf(event.data);
      bytes += encoder.encode(text).byteLength + 1;
      if (options.template) for (const token of jsonStringTokens(text)) checkTemplate(token.value, fail);
    }
  });
  if (bytes > options.maxBodyBytes) {
    throw new MockpointError(
      'BODY_TOO_LARGE',
      `${at}: the events are ${bytes} bytes in all, more than the limit ${options.maxBodyBytes} (MOCKPOINT_MAX_BODY_BYTES)`,
      { details },
    );
  }
  if (total > options.maxStreamMs) {
    throw new MockpointError(
      'STREAM_TOO_LONG',
      `${at}: the delays add up to ${total} ms, more than the limit ${options.maxStreamMs} (MOCKPOINT_MAX_STREAM_MS)`,
      { details },
    );
  }
}

/**
 * The fewest bytes a templated stream's events render for any request: the
 * events with placeholders only (the others are sent as they are). Its syntax
 * is checked already.
 */
export function minRenderedStreamBytes(stream: AnswerStream): number {
  let bytes = 0;
  for (const event of stream.events) {
    if (stream.format === 'raw') {
      if (event.body?.includes('{{')) bytes += minRenderedBytes(event.body);
      continue;
    }
    const text = stream.format === 'sse' ? sseDataText(event.data) : jsonTextOf(event.data);
    if (!text.includes('{{')) continue;
    bytes += stream.format === 'sse' && isTextData(event.data) ? minRenderedBytes(text) : minRenderedJsonBytes(text);
  }
  return bytes;
}

/**
 * A stream object from its JSON text, each event's `data` kept as its exact
 * text (a {@link JsonText}); everything else parsed. Not checked.
 */
export function streamFromJson(text: string): unknown {
  const members = text.startsWith('{') ? scanJson(text).members : undefined;
  if (members === undefined) return JSON.parse(text);
  return Object.fromEntries(
    [...members].map(([key, value]) => {
      if (key !== 'events' || !value.startsWith('[')) return [key, JSON.parse(value)];
      const events = (scanJson(value).elements ?? []).map((element) => {
        const fields = element.startsWith('{') ? scanJson(element).members : undefined;
        if (fields === undefined) return JSON.parse(element);
        return Object.fromEntries(
          [...fields].map(([name, field]) => [name, name === 'data' ? new JsonText(field) : JSON.parse(field)]),
        );
      });
      return [key, events];
    }),
  );
}
