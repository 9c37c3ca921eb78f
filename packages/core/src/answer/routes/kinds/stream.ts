/**
 * The stream kind's compile: the stream's frames prepared once, its headers
 * defaulted (Content-Type, no buffering).
 *
 * @module
 */

import type { RouteAnswer } from '../../../api/route.js';
import type { AnswerHeaderMap, StreamAnswer } from '../../endpoint-answer.js';
import { compileStream, STREAM_HEADERS, STREAM_TYPES } from '../../stream/stream-frames.js';
import { type CompiledAnswer, compileHeaderTemplates, headerMap, lowerHeaders, templated } from '../compile-parts.js';

/** A streamed answer: the stream's Content-Type and no-buffering headers unless the answer sets them. */
export function compileStreamAnswer(answer: RouteAnswer): CompiledAnswer {
  const answerStream = answer.stream as NonNullable<RouteAnswer['stream']>;
  const statusCode = answer.statusCode ?? 200;
  const delay = answer.delay ?? 0;
  const end = answerStream.end ?? 'close';
  const template = answer.template === true;
  const headers = lowerHeaders(answer);
  if (!headers.has('content-type')) headers.set('content-type', [STREAM_TYPES[answerStream.format]]);
  for (const [name, value] of Object.entries(STREAM_HEADERS)) if (!headers.has(name)) headers.set(name, [value]);
  const stream = compileStream(answerStream, template);
  const bytes = stream.bytes + 256 + JSON.stringify(answer.headers ?? {}).length * 2;
  // HEAD: the headers alone, ended at once.
  const build = (map: AnswerHeaderMap, frames: StreamAnswer['frames'] | undefined): StreamAnswer =>
    Object.freeze({
      kind: 'stream',
      status: statusCode,
      headers: map,
      frames: frames ?? [],
      end: frames === undefined ? 'close' : end,
      delay,
    });
  if (!template) {
    const map = headerMap(headers);
    const full = build(map, stream.frames());
    const head = build(map, undefined);
    return { statusCode, templated: false, bytes, answer: (isHead) => (isHead ? head : full) };
  }
  const renderHeaders = compileHeaderTemplates(headers);
  return templated(statusCode, bytes, (head, context) =>
    build(headerMap(renderHeaders(context)), head ? undefined : stream.frames(context)),
  );
}
