/**
 * Chaos bandwidth: an answer's body sent at a set rate, as a stream of slices
 * of the body the answer already holds (views, not copies), each after its
 * share of time — played on timers by the sinks' stream path on every runtime.
 * At most {@link MAX_FRAMES} slices, so a slow rate over a large body holds no
 * more than the body and a thousand small objects.
 *
 * @module
 */

import type {
  EndpointAnswer,
  RelayAnswer,
  RespondAnswer,
  StreamAnswer,
  StreamFrame,
  UpgradeAnswer,
} from '../../answer/endpoint-answer.js';
import { answerCases, matchAnswer } from '../../answer/match-answer.js';
import type { PreparedFrame, SocketScript } from '../../answer/websocket/socket-script.js';

/** The most slices a body is cut into. */
const MAX_FRAMES = 1000;
/** Slices per second at most (a slice each 100 ms at a rate that allows it). */
const TICKS_PER_SECOND = 10;

const encoder = new TextEncoder();

/** Milliseconds `bytes` take at `bytesPerSecond`. */
function timeOf(bytes: number, bytesPerSecond: number): number {
  return Math.round((bytes * 1000) / bytesPerSecond);
}

/** A stream's frames (SSE, NDJSON, raw, an LLM's stream), each held for its own bytes at the rate besides its own delay. */
function pacedStream(answer: StreamAnswer, bytesPerSecond: number): StreamAnswer {
  const frames = answer.frames.map((frame) => ({
    ...frame,
    delay: frame.delay + timeOf(frame.bytes.byteLength, bytesPerSecond),
  }));
  return { ...answer, frames };
}

/** A WebSocket script whose every message is held for its bytes at the rate besides its own delay. */
function pacedScript(answer: UpgradeAnswer, bytesPerSecond: number): UpgradeAnswer {
  const paced = (frames: readonly PreparedFrame[]) =>
    frames.map((frame) => ({ ...frame, delay: frame.delay + timeOf(frame.bytes.byteLength, bytesPerSecond) }));
  const { script } = answer;
  const on = script.on.map((reply) => ({ ...reply, send: paced(reply.send) }));
  const next: SocketScript = { ...script, onOpen: paced(script.onOpen), on };
  return { ...answer, script: next };
}

/** A relayed body whose every chunk is passed on once its bytes would have arrived at the rate. */
function pacedRelay(answer: RelayAnswer, bytesPerSecond: number): RelayAnswer {
  if (answer.body === null) return answer;
  const pace = new TransformStream<Uint8Array, Uint8Array>({
    transform: (chunk, controller) =>
      new Promise((resolve) => {
        setTimeout(
          () => {
            controller.enqueue(chunk);
            resolve();
          },
          timeOf(chunk.byteLength, bytesPerSecond),
        );
      }),
  });
  return { ...answer, body: answer.body.pipeThrough(pace) };
}

/**
 * The answer with its bytes sent at `bytesPerSecond`: a body as timed slices; a stream's
 * frames, a WebSocket script's messages, a relayed body's chunks and a call's messages
 * each held for their bytes; anything without bytes (a fault) as it is.
 */
export function throttled(answer: EndpointAnswer, bytesPerSecond: number): EndpointAnswer {
  return matchAnswer(answer, PACED, bytesPerSecond, undefined);
}

/** A body as timed slices: a stream of frames, each held for its bytes. */
function pacedBody(answer: RespondAnswer, bytesPerSecond: number): EndpointAnswer {
  if (answer.body === null) return answer;
  const bytes = typeof answer.body === 'string' ? encoder.encode(answer.body) : answer.body;
  if (bytes.byteLength === 0) return answer;
  const size = Math.max(Math.ceil(bytesPerSecond / TICKS_PER_SECOND), Math.ceil(bytes.byteLength / MAX_FRAMES));
  const delay = Math.round((size * 1000) / bytesPerSecond);
  const frames: StreamFrame[] = [];
  for (let at = 0; at < bytes.byteLength; at += size) {
    frames.push({ bytes: bytes.subarray(at, at + size), delay: at === 0 ? 0 : delay });
  }
  // A stream is chunked: no Content-Length.
  const { 'content-length': _length, ...headers } = answer.headers;
  const stream: StreamAnswer = {
    kind: 'stream',
    status: answer.status,
    headers: Object.freeze(headers),
    frames,
    end: 'close',
    delay: answer.delay,
  };
  return stream;
}

/** How each kind is paced; a fault has no bytes to pace. */
const PACED = answerCases<EndpointAnswer, number>({
  respond: pacedBody,
  stream: pacedStream,
  upgrade: pacedScript,
  relay: pacedRelay,
  // A call's messages are encoded as its writer sends them (grpc/stream-answers.ts): each is held for its bytes.
  call: (answer, bytesPerSecond) => ({ ...answer, pace: (bytes: number) => timeOf(bytes, bytesPerSecond) }),
  fault: (answer) => answer,
});
