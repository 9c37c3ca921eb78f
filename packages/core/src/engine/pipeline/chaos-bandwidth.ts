/**
 * Chaos bandwidth: an answer's body sent at a set rate, as a stream of slices
 * of the body the answer already holds (views, not copies), each after its
 * share of time — played on timers by the sinks' stream path on every runtime.
 * At most {@link MAX_FRAMES} slices, so a slow rate over a large body holds no
 * more than the body and a thousand small objects.
 *
 * @module
 */

import type { EndpointAnswer, StreamAnswer, StreamFrame } from '../../answer/endpoint-answer.js';

/** The most slices a body is cut into. */
const MAX_FRAMES = 1000;
/** Slices per second at most (a slice each 100 ms at a rate that allows it). */
const TICKS_PER_SECOND = 10;

const encoder = new TextEncoder();

/** The answer with its body sent at `bytesPerSecond`; anything without a body as it is. */
export function throttled(answer: EndpointAnswer, bytesPerSecond: number): EndpointAnswer {
  if (answer.kind !== 'respond' || answer.body === null) return answer;
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
