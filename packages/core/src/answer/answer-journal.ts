/**
 * What the journal shows of an answer, by its kind: the journal keeps a
 * reference to the very answer the sink sends (its status, headers and body:
 * nothing copied on the read path), cut to the journal's body limit only when
 * its body is longer (so a big one-off answer is not held whole), and turns it
 * into the entry's `response` only when the journal is read. The journal layer
 * (below this one) holds it as a `KeptAnswer` and reads none of its kinds.
 *
 * @module
 */

import type { AnswerEntry } from '../api/journal-json.js';
import { toBase64 } from '../codec/base64.js';
import { truncatedBody } from '../codec/truncated-body.js';
import { utf8Length } from '../codec/utf8-length.js';
import type { AnswerHeaderMap } from '../journal/answer-record.js';
import type { RecordedRequest } from '../journal/journal-entry.js';
import { JOURNAL_BODY_LIMIT } from '../registry/limits.js';
import type { EndpointAnswer, FaultAnswer, RespondAnswer } from './endpoint-answer.js';
import { answerCases, matchAnswer } from './match-answer.js';

/** An answer whose body was longer than the journal keeps: its first bytes (a copy), and its whole size. */
export interface CutAnswer {
  readonly kind: 'cut';
  readonly status: number;
  readonly headers: AnswerHeaderMap;
  readonly body: Uint8Array;
  /** The whole body's size in bytes. */
  readonly size: number;
}

/** What a request's `answer` is: an answer (by reference) or a {@link CutAnswer}. */
function keptOf(request: RecordedRequest): EndpointAnswer | CutAnswer | undefined {
  // Only `answered` (an `EndpointAnswer`) and `keep` (a `CutAnswer`) set it.
  return request.answer as EndpointAnswer | CutAnswer | undefined;
}

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
const keptByAnswer = new WeakMap<EndpointAnswer, EndpointAnswer | CutAnswer>();

/** The body the answer sends whole (a `close` fault's: the half it sends), as far as the journal may cut it. */
function keptWithBody(
  answer: RespondAnswer | FaultAnswer,
  body: string | Uint8Array | null,
  half: boolean,
): EndpointAnswer | CutAnswer {
  // At most 3 bytes per UTF-16 unit: a string this short is within the limit without counting.
  if (body === null || (typeof body === 'string' ? body.length * 3 : body.byteLength) <= JOURNAL_BODY_LIMIT) {
    return answer;
  }
  let kept = keptByAnswer.get(answer);
  if (kept === undefined) {
    const sent = half ? truncatedBody(body) : body;
    kept = within(body, JOURNAL_BODY_LIMIT)
      ? answer
      : {
          kind: 'cut',
          status: answer.status,
          headers: answer.headers,
          body: cut(sent, JOURNAL_BODY_LIMIT),
          size: sizeOf(sent),
        };
    keptByAnswer.set(answer, kept);
  }
  return kept;
}

/** What is kept of each kind: a body over the limit is cut; a stream, a relay, an upgrade and a call are kept as they are. */
const KEPT = answerCases<EndpointAnswer | CutAnswer>({
  respond: (answer) => keptWithBody(answer, answer.body, false),
  // A `reset` or a `hang` sends no body: nothing of it is shown, nothing to cut.
  fault: (answer) => (answer.fault === 'close' ? keptWithBody(answer, answer.body, true) : answer),
  stream: (answer) => answer,
  relay: (answer) => answer,
  upgrade: (answer) => answer,
  call: (answer) => answer,
});

/**
 * What the journal keeps of `answer`: the answer itself, unless its body is over
 * the journal's limit (then its first bytes, {@link CutAnswer}). Called once per
 * journaled request; for the usual answer it allocates nothing and scans nothing.
 */
export function keptAnswer(answer: EndpointAnswer): EndpointAnswer | CutAnswer {
  return matchAnswer(answer, KEPT, undefined, undefined);
}

/** Keeps what the journal shows of `request`'s answer (see {@link keptAnswer}): a journal calls it as it records. */
export function keep(request: RecordedRequest): void {
  const answer = keptOf(request);
  if (answer !== undefined && answer.kind !== 'cut') request.answer = keptAnswer(answer);
}

/** A body's memory: a shared one counted too. */
function bodyBytes(body: string | Uint8Array | null): number {
  if (body === null) return 64;
  return typeof body === 'string' ? body.length * 2 : body.byteLength;
}

const BYTES = answerCases<number>({
  respond: (answer) => bodyBytes(answer.body),
  fault: (answer) => bodyBytes(answer.body),
  // Its first bytes are kept as they pass (see `relayedChunk`), up to the limit.
  relay: () => JOURNAL_BODY_LIMIT,
  stream: (answer) => Math.min(JOURNAL_BODY_LIMIT, answer.frames.length * 256),
  upgrade: () => 64,
  call: () => 64,
});

/** Memory a kept answer holds for the journal's byte bound: its body (a shared one counted too). */
export function keptBytes(request: RecordedRequest): number {
  const answer = keptOf(request);
  if (answer === undefined) return 0;
  if (answer.kind === 'cut') return answer.body.byteLength;
  return matchAnswer(answer, BYTES, undefined, undefined);
}

/** Whether the answer goes whole with its status line (a relay's, a stream's body and a socket's messages come later). */
export function sentWhole(request: RecordedRequest): boolean {
  const answer = keptOf(request);
  if (answer === undefined) return false;
  return answer.kind === 'cut' || matchAnswer(answer, WHOLE, undefined, undefined);
}

const WHOLE = answerCases<boolean>({
  respond: () => true,
  fault: () => false,
  stream: () => false,
  relay: () => false,
  upgrade: () => false,
  call: () => false,
});

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

const RESPONSE = answerCases<AnswerEntry | undefined, RecordedRequest, Decode>({
  respond: (answer, _request, decode) => withBody(answer.headers, answer.body, sizeOf(answer.body), decode),
  fault: (answer, _request, decode) => {
    // `reset` and `hang` sent nothing; `close` the status, the headers and half the body.
    if (answer.fault !== 'close') return undefined;
    const sent = truncatedBody(answer.body);
    return withBody(answer.headers, sent, sent.byteLength, decode);
  },
  stream: (answer, _request, decode) => {
    const { bytes, size } = framesOf(answer.frames, JOURNAL_BODY_LIMIT);
    return withBody(answer.headers, bytes, size, decode);
  },
  relay: (answer, request, decode) => {
    const size = request.relayedBytes ?? 0;
    return withBody(answer.headers, joined(request.relayed ?? [], JOURNAL_BODY_LIMIT), size, decode);
  },
  upgrade: (answer, _request, decode) => withBody(answer.headers, EMPTY, 0, decode),
  // A call's messages are its `grpc` mark's, not a body.
  call: (answer, _request, decode) => withBody(answer.headers, EMPTY, 0, decode),
});

/** The entry's `response`: what was sent (headers and body, as far as the journal keeps it), or `undefined`. */
export function responseOf(request: RecordedRequest, decode: Decode): AnswerEntry | undefined {
  const answer = keptOf(request);
  if (answer === undefined) return undefined;
  if (answer.kind === 'cut') return withBody(answer.headers, answer.body, answer.size, decode);
  return matchAnswer(answer, RESPONSE, request, decode);
}
