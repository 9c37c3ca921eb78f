/**
 * The stream kind: a streamed answer (SSE, NDJSON, raw chunks) instead of a
 * body; a form of the plain answer (see docs/streams.md).
 *
 * @module
 */

import { z } from 'zod';
import type { RouteSchemaParts } from '../answer-kind.js';
import { answerKind } from '../answer-kind.js';
import { STREAM_ENDS, STREAM_FORMATS, streamFromJson } from '../answer-stream.js';

/** A streamed answer and its events. */
function createStreamSchema(parts: RouteSchemaParts) {
  const streamEvent = z
    .strictObject({
      delay: parts.delay
        .optional()
        .describe('Milliseconds after the previous event (after the headers, for the first); default 0.'),
      data: parts.data
        .optional()
        .describe(
          'sse and ndjson: the data. sse sends a string as text (one data: line per line), any other JSON value as its exact text.',
        ),
      event: z.string().optional().describe('sse: the event type (event: line).'),
      id: z
        .string()
        .optional()
        .describe('sse: the event id (id: line); a request with Last-Event-ID resumes after it.'),
      retry: z.number().int().min(0).optional().describe('sse: reconnection time in milliseconds (retry: line).'),
      body: z.string().optional().describe('raw: text, sent as UTF-8.'),
      bodyBase64: z.string().optional().describe('raw: bytes, in base64.'),
    })
    .meta({
      title: 'StreamEvent',
      description: 'One event: sse takes data, event, id, retry; ndjson takes data; raw takes body or bodyBase64.',
    });
  return z
    .strictObject({
      format: z
        .enum(STREAM_FORMATS as [string, ...string[]])
        .describe(
          'sse (text/event-stream), ndjson (application/x-ndjson, one JSON text per line) or raw (chunks as they are).',
        ),
      events: z.array(streamEvent).describe('Written and flushed one by one, each after its own delay.'),
      end: z
        .enum(STREAM_ENDS as [string, ...string[]])
        .optional()
        .describe(
          'After the last event: close (default) ends the response, hang keeps the connection open until the client leaves or the server stops, reset breaks the connection.',
        ),
    })
    .meta({ title: 'AnswerStream', description: 'A streamed answer instead of a body (see docs/streams.md).' });
}

/** One schema per parts: the RouteAnswer member and the schemas' `stream` are one instance. */
const streamSchemas = new WeakMap<RouteSchemaParts, z.ZodType>();

/** The stream schema built from these parts, built once. */
export function streamSchema(parts: RouteSchemaParts): z.ZodType {
  let schema = streamSchemas.get(parts);
  if (schema === undefined) {
    schema = createStreamSchema(parts);
    streamSchemas.set(parts, schema);
  }
  return schema;
}

export const streamKind = answerKind({
  key: 'stream',
  noun: 'a stream answer',
  code: 'INVALID_STREAM',
  schema: streamSchema,
  fromJson: streamFromJson,
  plain: true,
  forms: { wiremock: false, mockoon: false },
});
