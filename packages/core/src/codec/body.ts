/**
 * Reading request bodies under a byte limit that holds for chunked bodies too,
 * not only for a declared Content-Length, and parsing them as JSON.
 *
 * @module
 */

import { MockpointError } from '../registry/errors.js';
import { TurnBudget } from '../turns/turn-budget.js';
import { concatBytes } from './concat-bytes.js';
import { JsonSyntaxError, MAX_JSON_DEPTH, scanJson, scanJsonInTurns } from './json-text.js';
import { utf8Text } from './utf8.js';

export { MAX_JSON_DEPTH };

/**
 * The 413 says `connection: close`: the connection is closed after the answer.
 * The rest of the body is read and dropped first (see {@link DRAIN_BYTES}).
 */
function tooLarge(maxBytes: number): MockpointError {
  return new MockpointError('BODY_TOO_LARGE', `request body is larger than the limit of ${maxBytes} bytes`, {
    headers: { connection: 'close' },
  });
}

/**
 * What a bounded read kept: the first bytes, whether more came (`truncated`), and
 * whether more than the whole bound came (`over`: the stream was cancelled there).
 */
export interface BodyPrefix {
  bytes: Uint8Array;
  truncated: boolean;
  over?: boolean;
}

/**
 * Reads at most `limit` bytes of the body. When more arrive, `truncated` is true
 * and the rest is read and dropped (never buffered) up to `drainLimit` bytes in
 * all, so the connection can carry the next request; past that the stream is
 * cancelled (`over`).
 */
export async function readBodyPrefix(
  request: Request,
  limit: number,
  drainLimit: number = limit,
  keepAll?: KeepAll,
  drainMs = Number.POSITIVE_INFINITY,
): Promise<BodyPrefix> {
  const whole = readDeclaredBody(request, request.headers.get('content-length'), limit, drainLimit, keepAll);
  if (whole !== undefined) return whole;
  // `request.body` rather than Content-Length: a Request built in-process
  // (`app.request()`, the client's `app` option) carries a body without one.
  if (request.body === null) return { bytes: new Uint8Array(0), truncated: false };
  try {
    return await readStreamPrefix(request.body, limit, drainLimit, keepAll, drainMs);
  } catch (error) {
    throw requestAborted(error);
  }
}

/**
 * The body stream fails when the client hangs up mid-upload: a normal event,
 * answered (to nobody) with a coded error, so it is neither logged nor reported.
 */
function requestAborted(error: unknown): MockpointError {
  return new MockpointError(
    'REQUEST_ABORTED',
    'the client closed the connection before the request body was complete',
    {
      cause: error,
    },
  );
}

/**
 * {@link readBodyPrefix} of a body whose Content-Length is within `limit` (and not
 * 0): read at once by the runtime itself (`arrayBuffer()`), in one asynchronous
 * step, and without asking for `request.body` (on Bun several times less CPU than
 * a stream reader's chunks, and a server request's body stream is made only when
 * asked for: docs/performance.md, Bun). `undefined` for any other body. `declared`: the
 * request's Content-Length (`null`: none).
 */
export function readDeclaredBody(
  request: Request,
  declared: string | null | undefined,
  limit: number,
  drainLimit: number = limit,
  keepAll?: KeepAll,
): Promise<BodyPrefix> | undefined {
  if (declared === null || declared === undefined || declared.length > 9 || declared === '0') return undefined;
  const length = Number(declared);
  if (!(length > 0 && length <= limit)) return undefined;
  return request.arrayBuffer().then((buffer) => {
    const bytes = new Uint8Array(buffer);
    // Within `limit` (always, when the Content-Length was true): all of it, without another async step.
    return bytes.byteLength <= limit ? { bytes, truncated: false } : prefixOf(bytes, limit, drainLimit, keepAll);
  }, abortedRead);
}

function abortedRead(error: unknown): never {
  throw requestAborted(error);
}

/**
 * The part of a body read whole that {@link readStreamPrefix} would keep: all of it within
 * `limit` (always, when the Content-Length was true); past it (a Request made in process
 * with a shorter Content-Length), the first `limit` bytes, or up to `drainLimit` if `keepAll`.
 */
async function prefixOf(
  bytes: Uint8Array,
  limit: number,
  drainLimit: number,
  keepAll: KeepAll | undefined,
): Promise<BodyPrefix> {
  if (bytes.byteLength <= limit) return { bytes, truncated: false };
  const keep = keepAll !== undefined && (await keepAll()) ? Math.max(limit, drainLimit) : limit;
  return { bytes: bytes.slice(0, keep), truncated: bytes.byteLength > keep };
}

/**
 * Asked once, when a body first outgrows the `limit` of {@link readBodyPrefix}:
 * `true` keeps all of it up to `drainLimit` (nothing more is read until it answers).
 */
export type KeepAll = () => boolean | Promise<boolean>;

/** What a read gives when the drain's time ran out. */
const DRAIN_TIMED_OUT = Symbol('drain timed out');

/** `reader.read()`, or {@link DRAIN_TIMED_OUT} once `deadline` (a `performance.now()` time) passes. */
function readBefore(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  deadline: number,
): Promise<Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']>> | typeof DRAIN_TIMED_OUT> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<typeof DRAIN_TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(DRAIN_TIMED_OUT), Math.max(0, deadline - performance.now()));
  });
  return Promise.race([reader.read(), late]).finally(() => clearTimeout(timer));
}

/**
 * {@link readBodyPrefix} for any byte stream. Past `limit`, the rest is dropped while it
 * keeps coming: a pause longer than `drainMs`, or {@link DRAIN_TOTAL_MS} of dropping in all,
 * cancels it (still `truncated`). The pause, not the total, is what a busy machine stretches.
 */
export async function readStreamPrefix(
  body: ReadableStream<Uint8Array>,
  initialLimit: number,
  drainLimit: number = initialLimit,
  keepAll?: KeepAll,
  drainMs = Number.POSITIVE_INFINITY,
): Promise<BodyPrefix> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let limit = initialLimit;
  let kept = 0;
  let seen = 0;
  let deadline = Number.POSITIVE_INFINITY;
  let drainEnds = Number.POSITIVE_INFINITY;
  for (;;) {
    const read = deadline === Number.POSITIVE_INFINITY ? await reader.read() : await readBefore(reader, deadline);
    if (read === DRAIN_TIMED_OUT) {
      await reader.cancel().catch(() => undefined);
      break;
    }
    const { done, value } = read;
    if (done) break;
    const before = seen;
    seen += value.byteLength;
    if (keepAll !== undefined && before <= initialLimit && seen > initialLimit) {
      const all = keepAll();
      if (all === true || (all !== false && (await all))) limit = drainLimit;
    }
    if (kept < limit) {
      const take = Math.min(value.byteLength, limit - kept);
      chunks.push(take === value.byteLength ? value : value.subarray(0, take));
      kept += take;
    }
    if (seen > drainLimit || (seen > limit && drainLimit <= limit)) {
      await reader.cancel().catch(() => undefined);
      break;
    }
    if (seen > limit && drainMs !== Number.POSITIVE_INFINITY) {
      const now = performance.now();
      if (drainEnds === Number.POSITIVE_INFINITY) drainEnds = now + Math.max(drainMs, DRAIN_TOTAL_MS);
      deadline = Math.min(now + drainMs, drainEnds);
    }
  }
  const truncated = seen > limit;
  const over = seen > drainLimit;
  if (chunks.length === 1) return { bytes: chunks[0] as Uint8Array, truncated, over };
  return { bytes: concatBytes(chunks, kept), truncated, over };
}

/**
 * How much of a body past the limit is read and dropped before the 413 is
 * answered. A connection closed with unread bytes is reset, and the reset
 * reaches the client while it is still sending: its write fails (EPIPE) and the
 * 413 is lost (Node's fetch, 7 times of 10 with 6 MB). Reading the rest lets it
 * finish and read the answer; past this bound the connection is closed anyway.
 */
export const DRAIN_BYTES = 64 * 1024 * 1024;

/**
 * How long the rest of a body past the limit may pause while it is read and dropped:
 * a body that stops coming gets its 413 then, and the connection is closed. It bounds
 * the pause, not the whole drain: 5 MiB on a loaded machine took longer than 2 s in all.
 */
export const DRAIN_MS = 2_000;

/**
 * How long the rest of a body past the limit is read and dropped in all, at most: a body
 * that trickles (a byte before each pause runs out) gets its 413 then.
 */
export const DRAIN_TOTAL_MS = 15_000;

/**
 * Reads the whole body as bytes, failing with `BODY_TOO_LARGE` when more than
 * `maxBytes` arrive (the rest read and dropped first, up to {@link DRAIN_BYTES}).
 */
export async function readBodyBytes(request: Request, maxBytes: number): Promise<Uint8Array> {
  const drainLimit = maxBytes + DRAIN_BYTES;
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) {
    // Nothing kept: read and dropped, when within the bound (else the body is not read at all).
    if (Number(declared) <= drainLimit) await readBodyPrefix(request, 0, drainLimit, undefined, DRAIN_MS);
    throw tooLarge(maxBytes);
  }
  const { bytes, truncated } = await readBodyPrefix(request, maxBytes, drainLimit, undefined, DRAIN_MS);
  if (truncated) throw tooLarge(maxBytes);
  return bytes;
}

/**
 * True when `text` (JSON) nests arrays/objects deeper than `max`. A linear scan
 * that skips strings, so it costs no parsing and no recursion.
 */
export function jsonTooDeep(text: string, max: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > max) return true;
    } else if (c === 93 /* ] */ || c === 125 /* } */) depth--;
  }
  return false;
}

/** The content codings a management body may use. */
export const ACCEPTED_ENCODINGS = 'gzip, deflate';

/**
 * The body's bytes after undoing its `Content-Encoding` (gzip and deflate, via
 * the runtime's `DecompressionStream`), with the limit applied to the compressed
 * and to the decoded size. Other codings are refused (415) naming the ones accepted.
 */
export async function readDecodedBody(request: Request, maxBytes: number): Promise<Uint8Array> {
  const header = request.headers.get('content-encoding');
  const codings = (header ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  if (codings.length === 0) return readBodyBytes(request, maxBytes);
  for (const coding of codings) {
    if (coding !== 'gzip' && coding !== 'x-gzip' && coding !== 'deflate') {
      throw new MockpointError(
        'UNSUPPORTED_ENCODING',
        `Content-Encoding "${header}" is not supported; send the body uncompressed, gzip or deflate`,
        { headers: { 'accept-encoding': ACCEPTED_ENCODINGS } },
      );
    }
  }
  let bytes = await readBodyBytes(request, maxBytes);
  // Codings are listed in the order they were applied: undo the last first.
  for (const coding of codings.reverse()) {
    const format = coding === 'deflate' ? 'deflate' : 'gzip';
    const stream = new Blob([bytes])
      .stream()
      .pipeThrough(new DecompressionStream(format)) as ReadableStream<Uint8Array>;
    let decoded: { bytes: Uint8Array; truncated: boolean };
    try {
      decoded = await readStreamPrefix(stream, maxBytes);
    } catch (error) {
      throw new MockpointError(
        'INVALID_ENCODING',
        `request body is not valid ${coding} data (Content-Encoding: ${header}): ${(error as Error).message}`,
        { cause: error },
      );
    }
    if (decoded.truncated) {
      throw new MockpointError(
        'BODY_TOO_LARGE',
        `request body is larger than the limit of ${maxBytes} bytes once decoded (Content-Encoding: ${header})`,
      );
    }
    bytes = decoded.bytes;
  }
  return bytes;
}

/** The bytes as UTF-8 text; bytes that are not UTF-8 are a 400 `INVALID_UTF8`, never U+FFFD. */
export function decodeUtf8(bytes: Uint8Array, what = 'request body'): string {
  const text = utf8Text(bytes);
  if (text === undefined)
    throw new MockpointError('INVALID_UTF8', `${what} is not valid UTF-8; send JSON encoded as UTF-8`);
  return text;
}

/** `text` parsed as JSON, or `INVALID_JSON` with `hint` (what to send) as its message. */
export function parseJsonBody(text: string, hint: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new MockpointError('INVALID_JSON', hint, { cause: error });
  }
}

/** Maps a scanner error to the request-body error a client sees. */
function bodyJsonError(error: unknown): never {
  if (!(error instanceof JsonSyntaxError)) throw error;
  if (error.problem === 'duplicate-key') throw new MockpointError('DUPLICATE_KEY', `request body: ${error.message}`);
  if (error.problem === 'too-deep') {
    throw new MockpointError('INVALID_BODY', `request body nests arrays/objects deeper than ${MAX_JSON_DEPTH} levels`);
  }
  throw new MockpointError('INVALID_JSON', `request body is not valid JSON: ${error.message}`);
}

/**
 * INVALID_BODY for a body that is JSON but not an object, showing the `shape` expected (e.g.
 * `{ "routes": [ ... ] }`) when there is one: a bare array is the usual slip.
 */
function notAnObject(text: string, shape: string | undefined): MockpointError {
  if (shape === undefined) return new MockpointError('INVALID_BODY', 'request body must be a JSON object');
  const array = text.trimStart().startsWith('[');
  return new MockpointError(
    'INVALID_BODY',
    `request body must be a JSON object: ${shape}${array ? ' (a bare array is not taken: wrap it so)' : ''}`,
  );
}

/**
 * Reads a management body (decoded, strict UTF-8) and scans it as JSON without
 * losing anything: the top-level object's members come back as their own JSON
 * text, so `data` can be stored exactly as sent. Parsed whatever the
 * Content-Type says, so a bare `curl -X PUT -d '{...}'` works. With
 * `emptyIsObject`, an empty (or blank) body reads as `{}`; `shape` is what a body that is not an
 * object is told to look like.
 */
export async function readJsonObjectBody(
  request: Request,
  maxBytes: number,
  options: { emptyIsObject?: boolean; inTurnsFrom?: number; deepInTurns?: number; shape?: string } = {},
): Promise<Map<string, string>> {
  const text = decodeUtf8(await readDecodedBody(request, maxBytes));
  if (text.trim() === '') {
    // Where a body is optional (`{}` by default), an empty one is read once, under the limit, like any other.
    if (options.emptyIsObject) return new Map();
    throw new MockpointError('INVALID_JSON', 'request body is empty; send a JSON object');
  }
  let members: Map<string, string> | undefined;
  try {
    // A body of `inTurnsFrom` characters or more (a long routes list) is scanned a slice per event-loop turn.
    const long = options.inTurnsFrom !== undefined && text.length >= options.inTurnsFrom;
    // `deepInTurns`: that many levels of objects below the members are read in turns too (a whole document).
    members = (long ? await scanJsonInTurns(text, new TurnBudget(), false, options.deepInTurns) : scanJson(text))
      .members;
  } catch (error) {
    bodyJsonError(error);
  }
  if (members === undefined) throw notAnObject(text, options.shape);
  return members;
}
