/**
 * The {@link AnswerSink} on the Fetch API (Bun, Deno, workerd, and Node's Hono
 * path): every kind of answer as a `Response`. The request's handle is the
 * request itself ({@link FetchTo}): its abort signal, which aborts when its client
 * goes away, is asked for only by the answers that wait (a delay, a hang, a
 * stream), so that a whole answer sent at once never makes one (on Bun, a server
 * request's signal is made when first asked for).
 *
 * @module
 */
import {
  type EndpointAnswer,
  errorAnswer,
  type FaultAnswer,
  type RelayAnswer,
  type RespondAnswer,
  responseHeaders,
  type StreamAnswer,
  type UpgradeAnswer,
} from '../answer/endpoint-answer.js';
import { letGo } from '../answer/match-answer.js';
import type { OpenStreams, StreamPlayback } from '../answer/stream/open-streams.js';
import { truncatedBody } from '../codec/truncated-body.js';
import { type AnswerSink, sendDue } from './sink.js';

/** What the Fetch sink answers: a request (only its abort signal is read, when an answer waits). */
export interface FetchTo {
  readonly signal: AbortSignal;
}

/** Resolves `true` when `release` aborts (a queued hang is cleared), `false` when the client goes away first. */
function hold(signal: AbortSignal, release: AbortSignal | undefined): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  if (release?.aborted) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (released: boolean) => () => {
      signal.removeEventListener('abort', gone);
      release?.removeEventListener('abort', freed);
      resolve(released);
    };
    const gone = done(false);
    const freed = done(true);
    signal.addEventListener('abort', gone, { once: true });
    release?.addEventListener('abort', freed, { once: true });
  });
}

function respond(_to: FetchTo, answer: RespondAnswer): Response {
  return new Response(answer.body as ConstructorParameters<typeof Response>[0], {
    status: answer.status,
    headers: responseHeaders(answer.headers),
  });
}

function relay(_to: FetchTo, answer: RelayAnswer): Response {
  return new Response(answer.body, { status: answer.status, headers: responseHeaders(answer.headers) });
}

/**
 * The Fetch API's stand-in for `reset` and `close`: the headers, then part of
 * the body (none for `reset`), then a stream error, which runtimes that stream
 * bodies (Bun, Deno, workerd) turn into an aborted connection. A Fetch handler
 * cannot refuse to send a status line, so `reset` arrives as a 200 whose body
 * breaks before its first byte. (The Node sink resets or closes the socket itself.)
 */
/**
 * The Responses that stand for a `reset`: a runtime that can reset the connection
 * itself (Node's Hono path, `adapter/node/fetch-fallback.ts`) does that instead of
 * sending one (Node's Fetch layer would answer a body that breaks before its first
 * byte with a 500).
 */
const RESETS = new WeakSet<Response>();

/** Whether `response` stands for a reset of its connection ({@link resetResponse}, a `reset` fault). */
export function isResetResponse(response: Response): boolean {
  return RESETS.has(response);
}

const RESET: FaultAnswer = Object.freeze({
  kind: 'fault',
  fault: 'reset',
  status: 0,
  headers: {},
  body: null,
  delay: 0,
});

/** A reset of the request's connection (or HTTP/2 stream), as the Fetch API can say it: see {@link fault}. */
export function resetResponse(): Response {
  return fault(undefined, RESET);
}

function fault(_to: FetchTo | undefined, answer: FaultAnswer): Response {
  const sent = answer.fault === 'close' ? truncatedBody(answer.body) : new Uint8Array(0);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (sent.byteLength > 0) controller.enqueue(sent);
    },
    pull(controller) {
      const error = new Error(`mockpoint: queued fault ${answer.fault}`);
      // One turn of the event loop later when part of the body went out: Bun writes a chunk it has taken only then.
      if (sent.byteLength === 0) controller.error(error);
      else setTimeout(() => controller.error(error), 0);
    },
  });
  const response = new Response(body, {
    status: answer.fault === 'close' ? answer.status : 200,
    headers: responseHeaders(answer.headers),
  });
  if (answer.fault === 'reset') RESETS.add(response);
  return response;
}

/**
 * workerd's `FixedLengthStream` (an identity stream that must carry exactly
 * `length` bytes), where the runtime has it: `undefined` on Bun, Deno and Node.
 */
type FixedLengthStreamClass = new (length: number) => TransformStream<Uint8Array, Uint8Array>;
const FixedLength = (globalThis as { FixedLengthStream?: FixedLengthStreamClass }).FixedLengthStream;

/**
 * A streamed answer as a `ReadableStream`: each frame enqueued as it is due
 * (runtimes that stream bodies send each chunk at once). A client that leaves
 * cancels it (or aborts the request): the stream stops and frees its timer.
 *
 * `reset` errors the stream, which Bun and Deno turn into a broken connection
 * (Bun a TCP reset, Deno a close without the last chunk). An error drops the
 * frames still queued in the stream, so it waits until the runtime has taken
 * the last one (its next pull). workerd ends an errored chunked body normally,
 * so there the body is sent with a Content-Length one byte past its frames
 * (`FixedLengthStream`): the error then closes the connection short of it, and
 * the client sees a truncated body.
 */
function streamResponse(answer: StreamAnswer, streams: OpenStreams, signal: AbortSignal): Response {
  let playback: StreamPlayback | undefined;
  let resetting = false;
  const onAbort = () => playback?.cancel();
  let failing = false;
  // One turn of the event loop later: Bun writes a frame it has taken out only then.
  const fail = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    if (failing) return;
    failing = true;
    setTimeout(() => controller.error(new Error('mockpoint: the streamed answer ends with reset')), 0);
  };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      signal.addEventListener('abort', onAbort, { once: true });
      playback = streams.play(answer, {
        write: (bytes) => controller.enqueue(bytes),
        end: () => {
          signal.removeEventListener('abort', onAbort);
          controller.close();
        },
        reset: () => {
          signal.removeEventListener('abort', onAbort);
          resetting = true;
          // Nothing queued: the runtime has taken every frame.
          if ((controller.desiredSize ?? 0) > 0) fail(controller);
        },
      });
    },
    pull(controller) {
      if (resetting) fail(controller);
    },
    cancel() {
      signal.removeEventListener('abort', onAbort);
      playback?.cancel();
    },
  });
  const headers = responseHeaders(answer.headers);
  if (answer.end !== 'reset' || FixedLength === undefined || answer.frames.length === 0) {
    return new Response(body, { status: answer.status, headers });
  }
  const length = answer.frames.reduce((sum, frame) => sum + frame.bytes.byteLength, 0) + 1;
  const fixed = new FixedLength(length);
  body.pipeTo(fixed.writable).catch(() => undefined);
  return new Response(fixed.readable, { status: answer.status, headers });
}

/** The client left before its answer: 499, as nginx logs it (nobody receives it). */
function gone(): Response {
  return new Response(null, { status: 499 });
}

/** `answer` sent through `sink` after `ms`, or 499 as soon as `signal` aborts (the timer freed). */
function delay(
  sink: AnswerSink<FetchTo, Response>,
  to: FetchTo,
  ms: number,
  answer: EndpointAnswer,
): Promise<Response> {
  const signal = to.signal;
  if (signal.aborted) return Promise.resolve(gone());
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      // A relayed answer held by the chaos latency: its upstream is let go with its client.
      letGo(answer);
      resolve(gone());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      // The Fetch sink's last resort throws (the runtime answers 500): a rejection here, not from a timer.
      try {
        resolve(sendDue(sink, to, answer));
      } catch (error) {
        reject(error);
      }
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * The sink for one app's requests on a Fetch runtime. A failure is thrown on,
 * to the app's error handler (500 `INTERNAL`).
 */
export function createFetchSink(
  streams: OpenStreams,
  /** Accepts a WebSocket upgrade for `request`; absent, or `undefined` from it: 501. */
  upgradeOf?: (request: FetchTo, answer: UpgradeAnswer) => Response | undefined,
): AnswerSink<FetchTo, Response> {
  const sink: AnswerSink<FetchTo, Response> = {
    respond,
    stream: (to, answer) => streamResponse(answer, streams, to.signal),
    fault,
    relay,
    // Each runtime's own upgrade (Bun.serve, Deno.upgradeWebSocket, WebSocketPair), set by its serve().
    upgrade: (to, answer) =>
      upgradeOf?.(to, answer) ??
      respond(
        to,
        errorAnswer(
          501,
          'WEBSOCKET_UNSUPPORTED',
          "this server does not accept WebSocket upgrades: serve the app with a runtime entry's serve() (Node, Bun, Deno) or the Workers entry",
        ),
      ),
    delay: (to, ms, answer) => delay(sink, to, ms, answer),
    hold: (to, release) => hold(to.signal, release),
    gone,
    fail: (_to, error) => {
      throw error;
    },
  };
  return sink;
}
