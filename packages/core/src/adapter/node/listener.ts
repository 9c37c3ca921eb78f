/**
 * The Node.js adapter: a `node:http` request listener for a mockpoint app. Every
 * request to `/endpoint/{name}` is answered natively (no Fetch-API objects) by the
 * app's {@link EndpointHandler}; everything else goes to the Hono app.
 *
 * @module
 */
import type { IncomingMessage, OutgoingHttpHeaders, RequestListener, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import {
  type ClientGone,
  type EndpointAnswer,
  errorAnswer,
  type FaultAnswer,
  type RelayAnswer,
  type RespondAnswer,
  type StreamAnswer,
} from '../../answer/endpoint-answer.js';
import { ENDPOINT_PREFIX, type EndpointHandler } from '../../answer/endpoint-handler.js';
import { truncatedBody } from '../../answer/queue/queued-answer.js';
import type { OpenStreams } from '../../answer/stream/open-streams.js';
import type { MockpointApp } from '../../http/create-app.js';
import type { RecordedRequest } from '../../journal/journal-entry.js';
import { splitEndpointTarget } from '../../wire/endpoint-target.js';
import { JOURNAL_BODY_LIMIT } from '../../wire/limits.js';
import { nodeUpstream } from './node-upstream.js';

const EMPTY = new Uint8Array(0);
/** A `.` or `..` path segment, literal or percent-encoded: the URL parser would resolve it. */
const DOT_SEGMENT = /\/(?:\.|%2e){1,2}(?=[/?#]|$)/i;

/**
 * True when the raw headers announce a body (Content-Length other than 0, or a
 * Transfer-Encoding). Scans `rawHeaders` so Node never builds `req.headers`.
 */
function declaresBody(rawHeaders: readonly string[]): boolean {
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] as string;
    if (name.length === 14 && name.toLowerCase() === 'content-length') {
      if (rawHeaders[i + 1] !== '0') return true;
    } else if (name.length === 17 && name.toLowerCase() === 'transfer-encoding') {
      return true;
    }
  }
  return false;
}

/**
 * The target to answer natively: `url` itself when it is under `/endpoint/`, the
 * path and query of an absolute-form target (`GET http://host/endpoint/a`) under
 * it, otherwise `undefined`.
 */
function endpointTarget(url: string): string | undefined {
  if (url.startsWith(ENDPOINT_PREFIX)) return url;
  if (url.charCodeAt(0) === 47 /* / */) return undefined;
  const scheme = url.indexOf('://');
  const start = scheme === -1 ? -1 : url.indexOf('/', scheme + 3);
  return start !== -1 && url.startsWith(ENDPOINT_PREFIX, start) ? url.slice(start) : undefined;
}

// ---- sending an answer: one timer for a delay, nothing else per request ----

/** What sending needs besides the response: the open streams, and where a failure is reported. */
interface Outlet {
  readonly streams: OpenStreams;
  readonly handler: EndpointHandler;
}

const LAST_RESORT_MESSAGE = 'internal error: the answer could not be sent; see the server log';

/**
 * The last resort for one request, whatever failed while answering it (the
 * handler, a head Node refuses to write, a timer, a promise): the failure is
 * reported, and this client alone gets 500 `INTERNAL` as JSON, or, once its
 * status line is out, a destroyed connection. Nothing here may throw: no
 * request can take the process down.
 */
function lastResort(res: ServerResponse, out: Outlet, error: unknown): void {
  const req = res.req as IncomingMessage | undefined;
  out.handler.reportUnexpected(error, { method: req?.method ?? 'GET', url: req?.url ?? '' });
  if (res.headersSent || res.writableEnded || res.destroyed) {
    res.destroy();
    return;
  }
  try {
    const failed = errorAnswer(500, 'INTERNAL', LAST_RESORT_MESSAGE, { head: req?.method === 'HEAD' }) as RespondAnswer;
    // Whatever a failed writeHead left set is dropped: the error answer's own headers only, and
    // its own reason phrase (Node keeps the one the failed call set: "500 Created").
    for (const name of res.getHeaderNames()) res.removeHeader(name);
    res.writeHead(failed.status, 'Internal Server Error', failed.headers as OutgoingHttpHeaders);
    res.end(failed.body ?? undefined);
  } catch {
    res.destroy();
  }
}

const TIMER = Symbol('mockpoint.delay');
type DelayedResponse = ServerResponse & { [TIMER]?: ReturnType<typeof setTimeout> };

/**
 * A queued fault, on the socket itself: `reset` resets the connection (TCP RST,
 * nothing sent); `close` sends the status line, the headers (with the whole
 * body's Content-Length) and half the body, then closes the connection; `hang`
 * sends nothing until the client goes away or the queue is cleared, and then
 * the answer of that moment.
 */
function fault(res: ServerResponse, answer: FaultAnswer, out: Outlet): void {
  if (answer.fault === 'reset') {
    res.socket?.resetAndDestroy();
  } else if (answer.fault === 'close') {
    res.writeHead(answer.status, answer.headers as OutgoingHttpHeaders);
    const part = truncatedBody(answer.body);
    // Destroyed once the partial body is written out, so the client receives it.
    if (part.byteLength > 0) res.write(part, () => res.destroy());
    else {
      res.flushHeaders();
      res.socket?.end();
    }
  } else {
    const { release, next } = answer;
    if (release === undefined || next === undefined) return;
    const onRelease = () => {
      res.off('close', onClose);
      // An abort listener: a throw here would be the process's, so every failure goes to the last resort.
      try {
        Promise.resolve(next()).then(
          (later) => send(res, later, out),
          (error: unknown) => lastResort(res, out, error),
        );
      } catch (error) {
        lastResort(res, out, error);
      }
    };
    const onClose = () => release.removeEventListener('abort', onRelease);
    if (release.aborted) onRelease();
    else {
      release.addEventListener('abort', onRelease, { once: true });
      res.once('close', onClose);
    }
  }
}

/**
 * A streamed answer: the headers at once, then each frame written as it is due
 * (Node sends every write as its own chunk, without waiting for more); a client
 * that leaves stops the stream.
 */
function stream(res: ServerResponse, answer: StreamAnswer, out: Outlet): void {
  res.writeHead(answer.status, answer.headers as OutgoingHttpHeaders);
  res.flushHeaders();
  const playback = out.streams.play(answer, {
    // Frames are written from timers: a failure there goes to the last resort, not to the process.
    write: (bytes) => {
      try {
        res.write(bytes);
      } catch (error) {
        lastResort(res, out, error);
      }
    },
    end: () => void res.end(),
    // Destroyed once what was written is out (socket writes keep their order): the body breaks off.
    reset: () => {
      const socket = res.socket;
      if (socket === null) res.destroy();
      else socket.write(EMPTY, () => res.destroy());
    },
  });
  // Also fires after a normal end: cancelling a finished stream does nothing.
  res.once('close', () => playback.cancel());
}

/**
 * A proxy route's answer: the upstream's status and headers, then its body
 * chunk by chunk as it arrives, waiting for the client to take each one. A
 * client that leaves cancels the upstream body; an upstream that breaks off
 * breaks the client's connection (the status has been sent).
 */
function relay(res: ServerResponse, answer: RelayAnswer): void {
  res.writeHead(answer.status, answer.headers as OutgoingHttpHeaders);
  if (answer.body === null) {
    res.end();
    return;
  }
  const reader = answer.body.getReader();
  let finished = false;
  res.once('close', () => {
    if (!finished) reader.cancel().catch(() => undefined);
  });
  const pump = (): void => {
    reader.read().then(
      ({ done, value }) => {
        if (done) {
          finished = true;
          res.end();
        } else if (res.write(value)) pump();
        else res.once('drain', pump);
      },
      () => {
        finished = true;
        res.destroy();
      },
    );
  };
  pump();
}

/** Sends `answer`; any failure (e.g. a head Node refuses) goes to {@link lastResort}. */
function write(res: ServerResponse, answer: EndpointAnswer, out: Outlet): void {
  try {
    writeAnswer(res, answer, out);
  } catch (error) {
    lastResort(res, out, error);
  }
}

function writeAnswer(res: ServerResponse, answer: EndpointAnswer, out: Outlet): void {
  if (res.destroyed) {
    if (answer.kind === 'relay') answer.body?.cancel().catch(() => undefined);
    return;
  }
  if (answer.kind === 'relay') {
    relay(res, answer);
    return;
  }
  if (answer.kind === 'fault') {
    fault(res, answer, out);
    return;
  }
  if (answer.kind === 'stream') {
    stream(res, answer, out);
    return;
  }
  res.writeHead(answer.status, answer.headers as OutgoingHttpHeaders);
  res.end(answer.body ?? undefined);
}

function cancelDelay(this: DelayedResponse): void {
  clearTimeout(this[TIMER]);
}

function send(res: ServerResponse, answer: EndpointAnswer, out: Outlet): void {
  if (answer.delay <= 0) {
    write(res, answer, out);
    return;
  }
  // Cancelled when the client goes away ('close' also fires after a normal end: harmless).
  (res as DelayedResponse)[TIMER] = setTimeout(write, answer.delay, res, answer, out);
  res.on('close', cancelDelay);
}

/** Asks the handler for the answer to `recorded` and sends it; a throw or a rejection goes to {@link lastResort}. */
function answer(res: ServerResponse, out: Outlet, recorded: RecordedRequest, whole?: Uint8Array): void {
  let result: ReturnType<EndpointHandler['handle']>;
  try {
    result = out.handler.handle(recorded, whole, clientGone(res));
  } catch (error) {
    lastResort(res, out, error);
    return;
  }
  if (result instanceof Promise) {
    result.then(
      (value) => send(res, value, out),
      (error: unknown) => lastResort(res, out, error),
    );
  } else send(res, result, out);
}

/** A signal, made when first asked for, that aborts when `res` closes before its answer was all sent. */
function clientGone(res: ServerResponse): ClientGone {
  return () => {
    const controller = new AbortController();
    if (res.destroyed) controller.abort();
    else {
      res.once('close', () => {
        if (!res.writableFinished) controller.abort();
      });
    }
    return controller.signal;
  };
}

// ---- reading a body: the first bytes kept, the rest read and dropped ----
// (or, where the answer needs it, kept whole up to maxBytes: see EndpointHandler.readsWholeBody)

const BODY = Symbol('mockpoint.body');

interface BodyState {
  out: Outlet;
  res: ServerResponse;
  target: string;
  /** Past this many bytes in all, the request is answered and the connection closed. */
  maxBytes: number;
  /** Bytes kept at most: the journal's copy, or `maxBytes` once the handler wants the whole body. */
  keep: number;
  chunks: Uint8Array[];
  kept: number;
  seen: number;
  done: boolean;
  /** The handler is being asked whether to keep the whole body: reading is paused until it answers. */
  deciding: boolean;
  /** The body ended while `deciding`: it is finished once the handler has answered. */
  ended: boolean;
}

type ReadingRequest = IncomingMessage & { [BODY]: BodyState };

/** The first `length` kept bytes as one new array (copied, so no socket buffer is retained). */
function keptBytes(state: BodyState, length: number = state.kept): Uint8Array {
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of state.chunks) {
    if (offset + chunk.byteLength > length) {
      bytes.set(chunk.subarray(0, length - offset), offset);
      break;
    }
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

function finishBody(req: ReadingRequest, state: BodyState): void {
  state.done = true;
  // A body kept whole (complete, within maxBytes) goes to the signature check; the journal gets its own first bytes.
  const whole = state.kept > JOURNAL_BODY_LIMIT && state.seen === state.kept ? keptBytes(state) : undefined;
  const body = keptBytes(state, Math.min(state.kept, JOURNAL_BODY_LIMIT));
  const recorded = {
    method: req.method ?? 'GET',
    target: state.target,
    rawHeaders: req.rawHeaders,
    body,
    bodyTruncated: state.seen > body.byteLength,
  };
  answer(state.res, state.out, recorded, whole);
}

/** Whether the body of a request to `target` is kept whole (a Promise while the name is looked up). */
function readsWholeBody(state: BodyState): boolean | Promise<boolean> {
  const name = splitEndpointTarget(state.target)?.name;
  return name !== undefined && state.out.handler.readsWholeBody(name);
}

/**
 * Asks once, when the body first outgrows the journal's copy, whether to keep
 * all of it. While a name is looked up, the request is paused (TCP holds the
 * rest back) and only the chunk at hand is kept; a "no" drops what is past the
 * journal's copy.
 */
function decideKeep(req: ReadingRequest, state: BodyState): void {
  const whole = readsWholeBody(state);
  if (whole === true) state.keep = state.maxBytes;
  if (typeof whole === 'boolean') return;
  state.deciding = true;
  state.keep = state.maxBytes;
  req.pause();
  void whole.then((keepWhole) => {
    state.deciding = false;
    if (!keepWhole) {
      state.keep = JOURNAL_BODY_LIMIT;
      state.chunks = [keptBytes(state, Math.min(state.kept, JOURNAL_BODY_LIMIT))];
      state.kept = state.chunks[0]?.byteLength ?? 0;
    }
    if (state.done) return;
    if (state.ended) finishBody(req, state);
    else req.resume();
  });
}

function onData(this: ReadingRequest, chunk: Buffer): void {
  const state = this[BODY];
  if (state.done) return;
  const before = state.seen;
  state.seen += chunk.byteLength;
  if (before <= JOURNAL_BODY_LIMIT && state.seen > JOURNAL_BODY_LIMIT) decideKeep(this, state);
  if (state.kept < state.keep) {
    const take = Math.min(chunk.byteLength, state.keep - state.kept);
    state.chunks.push(take === chunk.byteLength ? chunk : chunk.subarray(0, take));
    state.kept += take;
  }
  if (state.seen > state.maxBytes) {
    // Too long to read to the end: answer now and close the connection after it.
    state.res.shouldKeepAlive = false;
    state.res.setHeader('connection', 'close');
    finishBody(this, state);
  }
}

function onEnd(this: ReadingRequest): void {
  const state = this[BODY];
  if (state.deciding) state.ended = true;
  else if (!state.done) finishBody(this, state);
}

/** A client that hangs up mid-upload is a normal event: nothing is recorded or answered. */
function onAbort(this: ReadingRequest): void {
  this[BODY].done = true;
}

function readBody(req: IncomingMessage, res: ServerResponse, out: Outlet, target: string, maxBytes: number) {
  const reading = req as ReadingRequest;
  const keep = JOURNAL_BODY_LIMIT;
  reading[BODY] = {
    out,
    res,
    target,
    maxBytes,
    keep,
    chunks: [],
    kept: 0,
    seen: 0,
    done: false,
    deciding: false,
    ended: false,
  };
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', onAbort);
}

/** Options for {@link createNodeListener}. */
export interface NodeListenerOptions {
  /**
   * Let `@hono/node-server` replace the global `Request`/`Response` with its faster
   * ones. Right for a daemon; a library running inside someone's tests passes `false`.
   * @default true
   */
  overrideGlobalObjects?: boolean;
}

/**
 * A `node:http` listener for `app`. Requests under `/endpoint/` (every method,
 * with or without a body, cached or not, delayed or not) are answered natively by
 * the app's one {@link EndpointHandler}: the same status, headers, bytes and
 * journal entry as the Fetch route, without Fetch-API objects. Requests of one
 * connection are handled in order, also when pipelined.
 * @example http.createServer(createNodeListener(createApp())).listen(0)
 */
export function createNodeListener(app: MockpointApp, options: NodeListenerOptions = {}): RequestListener {
  const fallback = getRequestListener(app.fetch, { overrideGlobalObjects: options.overrideGlobalObjects ?? true });
  const { handler, streams, proxy } = app.mockpoint;
  const out: Outlet = { handler, streams };
  // Proxy routes resolve names here and check every address before connecting.
  proxy.preferUpstream(nodeUpstream);
  const maxBytes = app.mockpoint.options.maxBodyBytes;

  const dispatch = (req: IncomingMessage, res: ServerResponse): void => {
    const url = req.url ?? '/';
    const target = endpointTarget(url);
    if (target === undefined) {
      // Never let the URL parser resolve `..` into another route (e.g. from /endpoint/ into /api).
      // Only the path: a query may carry `/./` or `/../` as plain data.
      const query = url.indexOf('?');
      if (DOT_SEGMENT.test(query === -1 ? url : url.slice(0, query))) {
        send(
          res,
          errorAnswer(404, 'ROUTE_NOT_FOUND', `no route for ${req.method} ${url}; see GET /api/openapi.json`),
          out,
        );
        // The Hono app answers its own errors; this catches what fails while its Response is written.
      } else fallback(req, res).catch((error: unknown) => lastResort(res, out, error));
      return;
    }
    if (declaresBody(req.rawHeaders)) {
      readBody(req, res, out, target, maxBytes);
      return;
    }
    const recorded = {
      method: req.method ?? 'GET',
      target,
      rawHeaders: req.rawHeaders,
      body: EMPTY,
      bodyTruncated: false,
    };
    answer(res, out, recorded);
  };

  return (req, res) => {
    // A pipelined request waits until the answers before it are sent (Node gives its
    // response the socket then), so add, replace and delete take effect in order.
    if (res.socket === null) res.once('socket', () => dispatch(req, res));
    else dispatch(req, res);
  };
}
