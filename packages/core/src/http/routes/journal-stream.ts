/**
 * `GET /api/endpoints/{name}/requests/stream` and `GET /api/requests/stream`:
 * the journal as server-sent events, live (see {@link JournalFeed}).
 *
 * @module
 */
import type { Context, Hono } from 'hono';
import { MockpointError } from '../../registry/errors.js';
import type { AppContext } from '../context.js';
import { journalName, journalParams, requestMatcher } from './journal.js';
import { errorResponses, REQUEST_ERRORS, STORE_ERRORS } from './responses.js';

/**
 * No cache and no transformation anywhere on the way (`no-transform` also keeps
 * compression middleware off it), and no buffering in nginx.
 */
const STREAM_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
} as const;

/** A `Last-Event-ID` that is an entry id, else `INVALID_QUERY`. */
function lastEventId(header: string | undefined): number | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  const value = header.trim();
  if (!/^\d{1,15}$/.test(value)) {
    throw new MockpointError(
      'INVALID_QUERY',
      `Last-Event-ID must be a request id (a whole number), not "${value.slice(0, 40)}"`,
    );
  }
  return Number(value);
}

export function registerJournalStreamRoutes(app: Hono, ctx: Pick<AppContext, 'describe' | 'feed' | 'schemas'>): void {
  const { schemas, feed } = ctx;

  async function stream(c: Context, name: string | undefined): Promise<Response> {
    const parsed = schemas.streamQuery.safeParse(c.req.query());
    if (!parsed.success) {
      throw new MockpointError('INVALID_QUERY', 'after must be a request id >= 0, match a RequestFilter as JSON');
    }
    const match = requestMatcher(schemas, parsed.data.match);
    // EventSource reconnects to the same URL with Last-Event-ID: the header is the newer cursor.
    const after = lastEventId(c.req.header('last-event-id')) ?? parsed.data.after;
    // HEAD: the headers a GET would have, without opening a stream nobody reads.
    if (c.req.method === 'HEAD') return new Response(null, { headers: STREAM_HEADERS });
    const body = await feed.open({ name, match, after, journalId: parsed.data.journal }, c.req.raw.signal);
    return new Response(body, { headers: STREAM_HEADERS });
  }

  app.get('/api/requests/stream', (c) => stream(c, undefined));
  app.get('/api/endpoints/:name/requests/stream', (c) => stream(c, journalName(c.req.param('name'))));

  const responses = {
    200: {
      description:
        'A text/event-stream that stays open: a `journal` event first, then a `request` event per request as it is recorded (id: the request id), heartbeat comments while idle, and an `end` event when the server drops the stream.',
      schema: schemas.liveRequest,
      contentType: 'text/event-stream' as const,
    },
    ...errorResponses(schemas, REQUEST_ERRORS, 'TOO_MANY_STREAMS', STORE_ERRORS),
  };
  ctx.describe?.push(
    {
      method: 'get',
      path: '/api/endpoints/{name}/requests/stream',
      summary:
        'Requests to /endpoint/{name} as server-sent events, as they are recorded. Resumes after Last-Event-ID (or after) without a gap or a duplicate; with match, only matching requests are sent.',
      tag: 'journal',
      params: journalParams(),
      query: schemas.streamQuery,
      responses,
    },
    {
      method: 'get',
      path: '/api/requests/stream',
      summary:
        'Requests to every name as server-sent events, as they are recorded (each with its name). Resumes like the per-name stream.',
      tag: 'journal',
      query: schemas.streamQuery,
      responses,
    },
  );
}
