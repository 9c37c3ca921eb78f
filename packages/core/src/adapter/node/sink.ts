/**
 * The {@link AnswerSink} on `node:http`: every kind of answer written straight
 * to a `ServerResponse` (and its socket, for faults), without Fetch-API objects.
 *
 * @module
 */

import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { ServerHttp2Stream } from 'node:http2';
import {
  type EndpointAnswer,
  errorAnswer,
  type FaultAnswer,
  type RelayAnswer,
  type StreamAnswer,
} from '../../answer/endpoint-answer.js';
import { letGo } from '../../answer/match-answer.js';
import type { OpenStreams } from '../../answer/stream/open-streams.js';
import { nodeBuiltin } from '../../cache/node-builtin.js';
import { truncatedBody } from '../../codec/truncated-body.js';
import { type AnswerSink, sendDue } from '../../engine/sink.js';
import { relayedChunk } from '../../journal/answer-record.js';
import type { RecordedRequest } from '../../journal/journal-entry.js';

const EMPTY = new Uint8Array(0);
const LAST_RESORT_MESSAGE = 'internal error: the answer could not be sent; see the server log';

const RECORDED = Symbol('mockpoint.recorded');
type Tracked = ServerResponse & { [RECORDED]?: RecordedRequest };

/**
 * Has the journal's entry of `recorded` learn when its answer, sent on `res`,
 * began and ended (and a relayed answer's first bytes): a property, no closure
 * (the sink sets the times as it sends; see {@link firstByte} and {@link handedOver}).
 */
export function trackAnswer(res: ServerResponse, recorded: RecordedRequest): void {
  (res as Tracked)[RECORDED] = recorded;
}

/** The answer's last byte was handed to the connection. */
function answerFinished(this: Tracked): void {
  const recorded = this[RECORDED];
  if (recorded !== undefined) recorded.doneAt = performance.now();
}

/** The answer's first byte (its status line) is being handed to the connection; its last, when 'finish' comes. */
function firstByte(res: ServerResponse): void {
  const recorded = (res as Tracked)[RECORDED];
  if (recorded === undefined) return;
  recorded.firstByteAt = performance.now();
  res.on('finish', answerFinished);
}

/**
 * A whole answer given to `end()` with its head: Node sends both in one write,
 * so its first and last byte leave together. When the connection took it all
 * at once (`writableFinished`, the hot path), both times are now: one clock
 * read and no listener; otherwise the last byte's time comes with 'finish'.
 */
function handedOver(res: ServerResponse): void {
  const recorded = (res as Tracked)[RECORDED];
  if (recorded === undefined) return;
  const now = performance.now();
  recorded.firstByteAt = now;
  if (res.writableFinished) recorded.doneAt = now;
  else res.on('finish', answerFinished);
}

/** What the Node sink needs of its app. */
export interface NodeSinkOptions {
  /** The app's open streams, which play streamed answers. */
  readonly streams: OpenStreams;
  /** Reports a failure no answer accounts for; must not throw. */
  readonly report: (error: unknown, request: { method: string; url: string }) => void;
}

/**
 * The last resort for one request, whatever failed while answering it (the
 * handler, a head Node refuses to write, a timer, a promise): the failure is
 * reported, and this client alone gets 500 `INTERNAL` as JSON, or, once its
 * status line is out, a destroyed connection. Nothing here may throw: no
 * request can take the process down.
 */
export function lastResort(res: ServerResponse, report: NodeSinkOptions['report'], error: unknown): void {
  const req = res.req as IncomingMessage | undefined;
  report(error, { method: req?.method ?? 'GET', url: req?.url ?? '' });
  if (res.headersSent || res.writableEnded || res.destroyed) {
    res.destroy();
    return;
  }
  try {
    const failed = errorAnswer(500, 'INTERNAL', LAST_RESORT_MESSAGE, { head: req?.method === 'HEAD' });
    // Whatever a failed writeHead left set is dropped: the error answer's own headers only, and
    // its own reason phrase (Node keeps the one the failed call set: "500 Created").
    for (const name of res.getHeaderNames()) res.removeHeader(name);
    res.writeHead(failed.status, 'Internal Server Error', failed.headers as OutgoingHttpHeaders);
    res.end(failed.body ?? undefined);
    // The journal's entry learns when the 500 went out (its first and last byte), as any answer's.
    handedOver(res);
  } catch {
    res.destroy();
  }
}

/**
 * A reset of what `res` answers, nothing sent: the connection (TCP RST) over
 * HTTP/1.1; over HTTP/2 (the compat response of --https) its own stream only
 * (RST_STREAM), never the connection that other requests share.
 */
export function resetConnection(res: ServerResponse): void {
  const stream = (res as { stream?: ServerHttp2Stream }).stream;
  if (stream === undefined) res.socket?.resetAndDestroy();
  else stream.close(nodeBuiltin('node:http2').constants.NGHTTP2_INTERNAL_ERROR);
}

/**
 * A queued fault on the socket itself: `reset` resets the connection (TCP RST,
 * nothing sent); `close` sends the status line, the headers (with the whole
 * body's Content-Length) and half the body, then closes the connection.
 */
function fault(res: ServerResponse, answer: FaultAnswer): void {
  if (res.destroyed) return;
  if (answer.fault === 'reset') {
    resetConnection(res);
    return;
  }
  // Over HTTP/2 (the compat response of --https) a fault breaks its own stream, never the
  // connection that other requests share: RST_STREAM is HTTP/2's reset.
  const stream = (res as { stream?: ServerHttp2Stream }).stream;
  firstByte(res);
  res.writeHead(answer.status, answer.headers as OutgoingHttpHeaders);
  const part = truncatedBody(answer.body);
  // Destroyed once the partial body is written out, so the client receives it.
  if (part.byteLength > 0) res.write(part, () => res.destroy());
  else if (stream !== undefined) {
    res.flushHeaders();
    stream.close(nodeBuiltin('node:http2').constants.NGHTTP2_INTERNAL_ERROR);
  } else {
    res.flushHeaders();
    res.socket?.end();
  }
}

/**
 * A proxy route's answer: the upstream's status and headers, then its body
 * chunk by chunk as it arrives, waiting for the client to take each one. A
 * client that leaves cancels the upstream body; an upstream that breaks off
 * breaks the client's connection (the status has been sent).
 */
function relay(res: ServerResponse, answer: RelayAnswer): void {
  if (res.destroyed) {
    answer.body?.cancel().catch(() => undefined);
    return;
  }
  firstByte(res);
  res.writeHead(answer.status, answer.headers as OutgoingHttpHeaders);
  if (answer.body === null) {
    res.end();
    return;
  }
  const recorded = (res as Tracked)[RECORDED];
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
          return;
        }
        if (recorded !== undefined) relayedChunk(recorded, value);
        if (res.write(value)) pump();
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

const TIMER = Symbol('mockpoint.delay');
const DELAYED = Symbol('mockpoint.delayed');
type DelayedResponse = ServerResponse & { [TIMER]?: ReturnType<typeof setTimeout>; [DELAYED]?: EndpointAnswer };

/** A delayed answer's timer, freed when the client leaves ('close' also fires after a normal end: harmless). */
function cancelDelay(this: DelayedResponse): void {
  clearTimeout(this[TIMER]);
  // An answer never sent (its client left during its delay) lets go of what it holds: a relay's upstream.
  const answer = this[DELAYED];
  if (answer !== undefined && !this.headersSent) letGo(answer);
}

/** Resolves `true` when `release` aborts, `false` when `res` closes first. */
function hold(res: ServerResponse, release: AbortSignal | undefined): Promise<boolean> {
  if (res.destroyed) return Promise.resolve(false);
  if (release?.aborted) return Promise.resolve(true);
  return new Promise((resolve) => {
    const onRelease = () => {
      res.off('close', onClose);
      resolve(true);
    };
    const onClose = () => {
      release?.removeEventListener('abort', onRelease);
      resolve(false);
    };
    release?.addEventListener('abort', onRelease, { once: true });
    res.once('close', onClose);
  });
}

/** Text bodies from this many UTF-16 units up are written as bytes (see {@link bodyToWrite}). */
const LARGE_TEXT = 64 * 1024;

/**
 * A body as `end()` takes it. Node joins a text body to the head's text and writes the two as one
 * string, which copies the whole body once more on V8's heap before encoding it (16 MB for a
 * 16 MB list); a large one is encoded once, here, and written beside the head as it is.
 */
function bodyToWrite(body: string | Uint8Array | null): string | Uint8Array | undefined {
  if (typeof body === 'string' && body.length >= LARGE_TEXT) return Buffer.from(body);
  return body ?? undefined;
}

/** The sink for one app's requests (one object: a request allocates nothing for it). */
export function createNodeSink(options: NodeSinkOptions): AnswerSink<ServerResponse, void> {
  const { streams, report } = options;
  const fail = (res: ServerResponse, error: unknown) => lastResort(res, report, error);
  const sink: AnswerSink<ServerResponse, void> = {
    respond(res, answer) {
      if (res.destroyed) return;
      res.writeHead(answer.status, answer.headers as OutgoingHttpHeaders);
      res.end(bodyToWrite(answer.body));
      handedOver(res);
    },
    /**
     * The headers at once, then each frame written as it is due (Node sends every
     * write as its own chunk, without waiting for more); a client that leaves
     * stops the stream.
     */
    stream(res, answer: StreamAnswer) {
      if (res.destroyed) return;
      firstByte(res);
      res.writeHead(answer.status, answer.headers as OutgoingHttpHeaders);
      res.flushHeaders();
      const playback = streams.play(answer, {
        // Frames are written from timers: a failure there goes to the last resort, not to the process.
        write: (bytes) => {
          try {
            res.write(bytes);
          } catch (error) {
            fail(res, error);
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
    },
    fault,
    relay,
    // A request listener alone never upgrades: serve() hands upgrade requests to adapter/node/upgrade.ts.
    upgrade(res) {
      sink.respond(
        res,
        errorAnswer(
          501,
          'WEBSOCKET_UNSUPPORTED',
          "this listener does not accept WebSocket upgrades; serve with serve() of @mockpoint/core/node, which listens for 'upgrade'",
        ),
      );
    },
    // One timer and one listener, no closure and no Promise: the delay benchmark's hot path.
    delay(res, ms, answer) {
      if (res.destroyed) return;
      (res as DelayedResponse)[TIMER] = setTimeout(sendDue, ms, sink, res, answer);
      (res as DelayedResponse)[DELAYED] = answer;
      res.once('close', cancelDelay);
    },
    hold,
    // The connection is gone: there is no one to answer.
    gone: () => undefined,
    fail,
  };
  return sink;
}
