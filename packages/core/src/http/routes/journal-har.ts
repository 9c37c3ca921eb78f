/**
 * `GET /api/requests.har[?name=]`: the journal (every name, or one) as a HAR 1.2
 * document ({@link harEntry}), oldest first. It is written a page of entries at
 * a time as the client reads it, so a full journal is never held twice in
 * memory, and it ends at the newest entry there was when the export began
 * (requests that arrive meanwhile are in the next export, not half in this one).
 *
 * @module
 */
import type { Hono } from 'hono';
import { z } from 'zod';
import { isValidName } from '../../api/schemas.js';
import { onFirstUse } from '../../cache/on-first-use.js';
import { harEntry, harFrame } from '../../journal/har.js';
import { JOURNAL_READ_PAGE } from '../../journal/journal.js';
import { VERSION } from '../../registry/version.js';
import type { AppContext } from '../context.js';
import { journalName } from './journal.js';
import { errorResponses, REQUEST_ERRORS, STORE_ERRORS } from './responses.js';

const harQuery = onFirstUse(() =>
  z.object({
    name: z.string().optional().describe('Only the requests to this name (default: every name).'),
  }),
);

const harDocument = onFirstUse(() =>
  z
    .object({
      log: z.object({
        version: z.literal('1.2'),
        creator: z.object({ name: z.literal('mockpoint'), version: z.string() }),
        pages: z.array(z.never()),
        entries: z.array(z.record(z.string(), z.unknown())),
      }),
    })
    .describe('A HAR 1.2 document (docs/har.md): one entry per recorded request, oldest first.'),
);

export function registerJournalHarRoutes(app: Hono, ctx: Pick<AppContext, 'describe' | 'journal' | 'schemas'>): void {
  const { journal, schemas } = ctx;

  app.get('/api/requests.har', (c) => {
    const given = c.req.query('name');
    const name = given === undefined ? undefined : journalName(given);
    const { head, tail } = harFrame(VERSION);
    const encoder = new TextEncoder();
    let cursor = 0;
    let newest: number | undefined;
    let first = true;
    let done = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(head));
      },
      async pull(controller) {
        if (done) return;
        const since = await journal.since(cursor, name, JOURNAL_READ_PAGE);
        newest ??= since.newest;
        let text = '';
        for (const named of since.entries) {
          if (named.entry.id > newest) {
            done = true;
            break;
          }
          text += `${first ? '' : ','}${JSON.stringify(harEntry(named))}`;
          first = false;
          cursor = named.entry.id;
        }
        if (since.entries.length < JOURNAL_READ_PAGE) done = true;
        if (done) text += tail;
        if (text !== '') controller.enqueue(encoder.encode(text));
        if (done) controller.close();
      },
    });
    const file = name !== undefined && isValidName(name) ? `mockpoint-${name}.har` : 'mockpoint.har';
    return new Response(c.req.method === 'HEAD' ? null : body, {
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'content-disposition': `attachment; filename="${file}"`,
        'cache-control': 'no-store',
      },
    });
  });

  ctx.describe?.push({
    method: 'get',
    path: '/api/requests.har',
    summary:
      'The request journal as HAR 1.2, for browsers’ devtools and other tools: every name (or one, with name), oldest first, up to the newest request when the export began. Each request is exact (bodies that are not UTF-8 as base64 with _encoding); the journal keeps no answers, so each response holds only the status sent.',
    tag: 'journal',
    query: harQuery(),
    responses: {
      200: { description: 'The HAR document (sent as an attachment).', schema: harDocument() },
      ...errorResponses(schemas, REQUEST_ERRORS, STORE_ERRORS),
    },
  });
}
