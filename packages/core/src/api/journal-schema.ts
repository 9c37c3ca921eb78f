/**
 * The journal's schemas, a part of `createSchemas` (schemas.ts): the journal
 * read's query and page, a recorded request, and the live stream's query and event.
 *
 * @module
 */

import { z } from 'zod';
import { onFirstUse } from '../cache/on-first-use.js';
import { signatureSchemas } from '../signing/signature-settings.js';
import { CHAOS_FAULTS, type ChaosFault } from './chaos.js';
import { graphqlSchemas, stateSchemas } from './filter-schema.js';
import { createGrpcSchemas } from './grpc-json.js';
import { routeValidationSchemas } from './route-validation.js';

const grpcSchemas = onFirstUse(createGrpcSchemas);

/** A journal read's query, a recorded request, its page, and the live stream's query and event. */
export function createJournalSchemas<Fault extends z.ZodType>(fault: Fault) {
  const journalQuery = z.object({
    wait: z.coerce
      .number()
      .int()
      .min(0)
      .default(0)
      .describe(
        'Long-poll: hold the answer up to this many milliseconds (capped at 60000) until `count` requests exist.',
      ),
    count: z.coerce.number().int().min(1).default(1).describe('How many requests to wait for.'),
    after: z.coerce
      .number()
      .int()
      .min(0)
      .default(0)
      .describe('Only requests whose id is greater (pass the last id seen to wait for new ones).'),
    match: z
      .string()
      .optional()
      .describe(
        'A RequestFilter as JSON, e.g. {"method":"POST","body":{"type":"order.paid"}}: only matching requests are listed and counted.',
      ),
    journal: z
      .string()
      .optional()
      .describe(
        'The journalId the `after` cursor was read from: when the journal has started anew since (the daemon restarted), `after` counts as 0, so a wait ends as soon as the new journal holds `count` requests.',
      ),
  });
  const journalEntry = createJournalEntry(fault);
  const streamQuery = z.object({
    after: z.coerce
      .number()
      .int()
      .min(0)
      .optional()
      .describe(
        'Start after this request id (a Last-Event-ID header wins over it); 0 replays everything kept. Without either, only requests from now on.',
      ),
    match: journalQuery.shape.match.describe(
      'A RequestFilter as JSON, e.g. {"method":"POST"}: only matching requests are sent.',
    ),
    journal: z
      .string()
      .optional()
      .describe(
        'The journalId the cursor was read from: when the journal has started anew since, the stream starts from its beginning (and says so with reset: true).',
      ),
  });
  const liveRequest = journalEntry.extend({ name: z.string().describe('The name the request was sent to.') }).meta({
    title: 'LiveRequest',
    description:
      'The data of a `request` event: a journal entry and its name. The event id is the entry id. Other events: `journal` ({ journalId, reset, after }: first on every stream, and again with reset true when the journal starts anew, ids starting again at 1; `after` is the id after which the stream sends) and `end` ({ reason: slow-reader | shutdown, message }: the last event before the server closes the stream). Comment lines are heartbeats.',
  });
  const journalPage = z
    .object({
      requests: z.array(journalEntry),
      complete: z.boolean(),
      journalId: z
        .string()
        .describe('Names the journal; a new value means it started anew and request ids start again at 1.'),
    })
    .meta({ title: 'RecordedRequests' });
  return { journalQuery, journalEntry, streamQuery, liveRequest, journalPage };
}

/** A recorded request: what `fault` a queued answer gave among the rest. */
function createJournalEntry<Fault extends z.ZodType>(fault: Fault) {
  return z
    .object({
      id: z.number().int(),
      method: z.string(),
      path: z.string(),
      subpath: z.string().describe('The path below /endpoint/{name}; / for the bare URL.'),
      params: z.record(z.string(), z.string()).describe('Parameters of the route pattern that matched.'),
      answeredBy: z
        .union([
          z.object({ queue: z.literal(true) }),
          z.object({ route: z.string() }),
          z.object({
            chaos: z.enum(CHAOS_FAULTS as [ChaosFault, ...ChaosFault[]]),
            namespace: z
              .literal(true)
              .optional()
              .describe("The namespace's chaos (/api/chaos) injected it: the endpoint had none of its own."),
          }),
          z.enum(['record', 'graphql', 'grpc', 'twin', 'none']),
        ])
        .describe(
          "Who answered: a queued answer, the route with this id, a fault chaos injected (the endpoint's, or with namespace: true the namespace's), the record, the endpoint's GraphQL schema, its protobuf definitions (gRPC), or nobody (an error).",
        ),
      query: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
      headers: z.record(z.string(), z.string()),
      body: z.string(),
      bodyEncoding: z
        .literal('base64')
        .optional()
        .describe('Present when the body is not UTF-8 text: `body` is then its bytes in base64.'),
      bodyTruncated: z.boolean(),
      json: z.unknown().optional(),
      receivedAt: z.string(),
      statusCode: z.number().int().describe('The status answered; 0 when a queued reset or hang sent none.'),
      queued: z.literal(true).optional().describe('Present when a queued one-shot answer answered.'),
      fault: fault.optional().describe('The network fault the queued answer gave, if any.'),
      signature: signatureSchemas().mark.optional(),
      upstream: z
        .object({
          url: z.string().describe('Where the request was forwarded.'),
          statusCode: z.number().int().optional().describe("The upstream's status."),
          headers: z.record(z.string(), z.union([z.string(), z.array(z.string())])).optional(),
          error: z.string().optional().describe('The error code when the upstream gave no answer.'),
        })
        .optional()
        .describe('Present when a proxy route answered: the upstream and its answer.'),
      validation: routeValidationSchemas().mark.optional(),
      rateLimited: z
        .literal(true)
        .optional()
        .describe("Present when the route's rate limit refused the request with 429 (docs/rate-limits.md)."),
      state: stateSchemas()
        .mark.optional()
        .describe(
          'Present when the state was read for the request (its routes or queued answers use it): the scenarios the answering route looked at or moved, before and after; every scenario, unmoved, when it looked at none.',
        ),
      websocket: z
        .object({
          direction: z.enum(['in', 'out']),
          connection: z.string(),
          code: z.number().int().optional().describe('CLOSE only: the close code.'),
        })
        .optional()
        .describe(
          'Present on a WebSocket message (method MESSAGE: body is its exact text, or its bytes in base64 for a binary frame) or close (method CLOSE: body is the reason).',
        ),
      graphql: graphqlSchemas().mark.optional(),
      grpc: grpcSchemas().mark.optional(),
      host: z
        .string()
        .optional()
        .describe(
          'Present when the request came through a host mapping, an absolute-form target or a CONNECT tunnel: the host it was sent to.',
        ),
      response: z
        .object({
          headers: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
          body: z.string().describe('Its text when UTF-8, else its bytes in base64 (bodyEncoding); at most 64 KiB.'),
          bodyEncoding: z.literal('base64').optional(),
          bodySize: z.number().int().describe("The whole body's size in bytes."),
          bodyTruncated: z.boolean(),
        })
        .optional()
        .describe('What was sent back (absent when nothing was: a reset, a hang, a WebSocket message).'),
      timings: z
        .object({
          wait: z.number().describe('Milliseconds until the first byte of the answer was sent (a delay is in it).'),
          total: z.number().optional().describe('Milliseconds until its last byte was sent.'),
        })
        .optional()
        .describe('Measured from when the request had arrived (its body read).'),
    })
    .meta({ title: 'RecordedRequest' });
}
