/**
 * What a request was answered with, as the journal keeps it beside the request:
 * a reference to the very answer the sink sends (its status, headers and body:
 * nothing copied on the read path), cut to the journal's body limit only when
 * its body is longer (so a big one-off answer is not held whole), plus the
 * times the sink measured. Turned into the entry's `response` and `timings`
 * ({@link responseOf}, {@link timingsOf}) only when the journal is read.
 *
 * @module
 */

import type { Fault } from '../api/answer-json.js';
import type { AnswerEntry, AnswerTimings } from '../api/journal-json.js';
import { toBase64 } from '../codec/base64.js';
import { truncatedBody } from '../codec/truncated-body.js';
import { utf8Length } from '../codec/utf8-length.js';
import { JOURNAL_BODY_LIMIT } from '../registry/limits.js';
import type { RecordedRequest } from './journal-entry.js';

/** Response headers as answers carry them: lower-case names, an array for a header sent once per value. */
type AnswerHeaderMap = Readonly<Record<string, string | readonly string[]>>;

/** A body as answers carry it: text (UTF-8 on the wire), bytes, or none. */
type AnswerBody = string | Uint8Array | null;

/**
 * What the journal reads of an answer: the parts of each kind of the answer
 * layer's `EndpointAnswer` (answer/endpoint-answer.ts) that it shows. Declared
 * here, by shape, so that the journal does not import the layer above it; every
 * `EndpointAnswer` is one.
 */
export type JournaledAnswer =
  | { readonly kind: 'respond'; readonly status: number; readonly headers: AnswerHeaderMap; readonly body: AnswerBody }
  | {
      readonly kind: 'fault';
      readonly fault: Fault;
      readonly status: number;
      readonly headers: AnswerHeaderMap;
      readonly body: AnswerBody;
    }
  | {
      readonly kind: 'stream';
      readonly status: number;
      readonly headers: AnswerHeaderMap;
      readonly frames: readonly { readonly bytes: Uint8Array }[];
    }
  | { readonly kind: 'relay' | 'upgrade'; readonly status: number; readonly headers: AnswerHeaderMap };

/** An answer whose body was longer than the journal keeps: its first bytes (a copy), and its whole size. */
export interface CutAnswer {
  readonly kind: 'cut';
  readonly status: number;
  readonly headers: AnswerHeaderMap;
  readonly body: Uint8Array;
  /** The whole body's size in bytes. */
  readonly size: number;
}

/** The answer a journal entry keeps: the sink's own (by reference), or a {@link CutAnswer}. */
export type KeptAnswer = JournaledAnswer | CutAnswer;

const encoder = new TextEncoder();
const EMPTY = new Uint8Array(0);

/** The body's size in bytes (a string's as UTF-8). */
function sizeOf(body: string | Uint8Array | null): number {
  if (body === null) return 0;
  return typeof body === 'string' ? utf8Length(body) : body.byteLength;
}

/** Whether the body is within `limit` bytes: a short string without counting (at most 3 bytes per UTF-16 unit). */
function within(body: string | Uint8Array | null, limit: number): boolean {
  if (body === null) return true;
  if (typeof body !== 'string') return body.byteLength <= limit;
  return body.length * 3 <= limit || utf8Length(body) <= limit;
}

/** The first `limit` bytes of `body` (a copy: the rest is not held). */
function cut(body: string | Uint8Array, limit: number): Uint8Array {
  if (typeof body !== 'string') return body.slice(0, limit);
  return encoder.encode(body.slice(0, limit)).slice(0, limit);
}

/** A stream's frames as one byte string, at most `limit` bytes of it; and the frames' whole size. */
function framesOf(frames: readonly { bytes: Uint8Array }[], limit: number): { bytes: Uint8Array; size: number } {
  let size = 0;
  for (const frame of frames) size += frame.bytes.byteLength;
  const bytes = new Uint8Array(Math.min(size, limit));
  let at = 0;
  for (const frame of frames) {
    if (at >= bytes.byteLength) break;
    const part = frame.bytes.subarray(0, bytes.byteLength - at);
    bytes.set(part, at);
    at += part.byteLength;
  }
  return { bytes, size };
}

/**
 * What the journal keeps of an answer whose body may be over the limit, by the
 * answer: an answer served many times (a cached record's, a route's that is not
 * templated) is measured and cut once, not on every request.
 */
const keptByAnswer = new WeakMap<JournaledAnswer, KeptAnswer>();

/**
 * What the journal keeps of `answer`: the answer itself, unless its body is over
 * the journal's limit (then its first bytes, {@link CutAnswer}). Called once per
 * journaled request; for the usual answer it allocates nothing and scans nothing.
 */
export function keptAnswer(answer: JournaledAnswer): KeptAnswer {
  // A `reset` or a `hang` sends no body: nothing of it is shown, nothing to cut.
  if (answer.kind !== 'respond' && (answer.kind !== 'fault' || answer.fault !== 'close')) return answer;
  const body = answer.body;
  // At most 3 bytes per UTF-16 unit: a string this short is within the limit without counting.
  if (body === null || (typeof body === 'string' ? body.length * 3 : body.byteLength) <= JOURNAL_BODY_LIMIT) {
    return answer;
  }
  let kept = keptByAnswer.get(answer);
  if (kept === undefined) {
    kept = within(body, JOURNAL_BODY_LIMIT) ? answer : cutAnswer(answer, body);
    keptByAnswer.set(answer, kept);
  }
  return kept;
}

/** The first bytes of an answer's body over the limit (a `close` fault's: of the half it sends), and its size. */
function cutAnswer(answer: JournaledAnswer & { kind: 'respond' | 'fault' }, body: string | Uint8Array): CutAnswer {
  const sent = answer.kind === 'fault' ? truncatedBody(body) : body;
  return {
    kind: 'cut',
    status: answer.status,
    headers: answer.headers,
    body: cut(sent, JOURNAL_BODY_LIMIT),
    size: sizeOf(sent),
  };
}

/** Marks `request` as answered with `answer` (see {@link keptAnswer}); the journal then shows it. */
export function answered(request: RecordedRequest, answer: JournaledAnswer): void {
  request.answer = keptAnswer(answer);
}

/** Memory a kept answer holds for the journal's byte bound: its body (a shared one counted too). */
export function keptBytes(request: RecordedRequest): number {
  const answer = request.answer;
  if (answer === undefined) return 0;
  switch (answer.kind) {
    case 'respond':
    case 'fault':
      return answer.body === null
        ? 64
        : typeof answer.body === 'string'
          ? answer.body.length * 2
          : answer.body.byteLength;
    case 'cut':
      return answer.body.byteLength;
    case 'relay':
      // Its first bytes are kept as they pass (see `relayedChunk`), up to the limit.
      return JOURNAL_BODY_LIMIT;
    case 'stream':
      return Math.min(JOURNAL_BODY_LIMIT, answer.frames.length * 256);
    default:
      return 64;
  }
}

/**
 * Keeps a reference to a chunk of a relayed (proxied) answer's body as it is
 * passed on, until the journal's limit is reached; counts every byte.
 */
export function relayedChunk(request: RecordedRequest, chunk: Uint8Array): void {
  const seen = request.relayedBytes ?? 0;
  request.relayedBytes = seen + chunk.byteLength;
  if (seen >= JOURNAL_BODY_LIMIT) return;
  if (request.relayed === undefined) request.relayed = [chunk];
  else request.relayed.push(chunk);
}

/** Chunks as one byte string of at most `limit` bytes. */
function joined(chunks: readonly Uint8Array[], limit: number): Uint8Array {
  return framesOf(
    chunks.map((bytes) => ({ bytes })),
    limit,
  ).bytes;
}

/** Header map → the entry's record (a copy: entries are handed out). */
function headerEntry(headers: AnswerHeaderMap): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const name of Object.keys(headers)) {
    const value = headers[name] as string | readonly string[];
    out[name] = typeof value === 'string' ? value : [...value];
  }
  return out;
}

/** Text when the bytes are UTF-8 (`decode` is codec/utf8.ts's utf8Text), else base64. */
type Decode = (bytes: Uint8Array, truncated: boolean) => string | undefined;

function withBody(
  headers: AnswerHeaderMap,
  body: string | Uint8Array | null,
  size: number,
  decode: Decode,
): AnswerEntry {
  const entry: AnswerEntry = { headers: headerEntry(headers), body: '', bodySize: size, bodyTruncated: false };
  if (body === null || size === 0) return entry;
  if (typeof body === 'string') {
    entry.body = body;
    return entry;
  }
  entry.bodyTruncated = body.byteLength < size;
  const text = decode(body, entry.bodyTruncated);
  if (text === undefined) {
    entry.body = toBase64(body);
    entry.bodyEncoding = 'base64';
  } else entry.body = text;
  return entry;
}

/** The entry's `response`: what was sent (headers and body, as far as the journal keeps it), or `undefined`. */
export function responseOf(request: RecordedRequest, decode: Decode): AnswerEntry | undefined {
  const answer = request.answer;
  if (answer === undefined) return undefined;
  switch (answer.kind) {
    case 'respond':
      return withBody(answer.headers, answer.body, sizeOf(answer.body), decode);
    case 'cut':
      return withBody(answer.headers, answer.body, answer.size, decode);
    case 'fault': {
      // `reset` and `hang` sent nothing; `close` the status, the headers and half the body.
      if (answer.fault !== 'close') return undefined;
      const sent = truncatedBody(answer.body);
      return withBody(answer.headers, sent, sent.byteLength, decode);
    }
    case 'stream': {
      const { bytes, size } = framesOf(answer.frames, JOURNAL_BODY_LIMIT);
      return withBody(answer.headers, bytes, size, decode);
    }
    case 'relay': {
      const size = request.relayedBytes ?? 0;
      return withBody(answer.headers, joined(request.relayed ?? [], JOURNAL_BODY_LIMIT), size, decode);
    }
    case 'upgrade':
      return withBody(answer.headers, EMPTY, 0, decode);
  }
}

/** Milliseconds with microseconds kept (as devtools give them). */
function ms(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** The entry's `timings`, when the answer's first byte was sent: wait until it, and the whole answer. */
export function timingsOf(request: RecordedRequest): AnswerTimings | undefined {
  const { startedAt, firstByteAt, doneAt } = request;
  if (startedAt === undefined || firstByteAt === undefined) return undefined;
  const timings: AnswerTimings = { wait: ms(Math.max(0, firstByteAt - startedAt)) };
  if (doneAt !== undefined) timings.total = ms(Math.max(timings.wait, doneAt - startedAt));
  return timings;
}
