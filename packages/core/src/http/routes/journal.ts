/**
 * `/api/endpoints/{name}/requests`: the request journal, with long-poll.
 *
 * @module
 */
import type { Hono } from 'hono';
import { z } from 'zod';
import { jsonResponse } from '../../answer/read-response.js';
import type { JournalEntry, RequestFilter } from '../../api/journal-json.js';
import type { Schemas } from '../../api/schemas.js';
import { onFirstUse } from '../../cache/on-first-use.js';
import { matchesRequest } from '../../journal/graphql-filter.js';
import { MockpointError } from '../../registry/errors.js';
import { JOURNAL_NAME_LIMIT, MAX_WAIT_MS } from '../../registry/limits.js';
import type { AppContext } from '../context.js';
import { clearDoc, errorResponses, REQUEST_ERRORS, STORE_ERRORS } from './responses.js';

const NAME_RULE = `name must be 1-${JOURNAL_NAME_LIMIT} characters`;
// Requests to unknown (even invalid) names are recorded, so any recorded name is readable.
const journalNameSchema = onFirstUse(() => z.string().min(1, NAME_RULE).max(JOURNAL_NAME_LIMIT, NAME_RULE));

/** `name` when it can be a journal's name; `INVALID_NAME` otherwise. */
export function journalName(name: string): string {
  if (!journalNameSchema().safeParse(name).success) throw new MockpointError('INVALID_NAME', NAME_RULE);
  return name;
}

/** The documented `{name}` of every journal route, made on its first use. */
export const journalParams = onFirstUse(() => ({
  name: {
    description: 'Endpoint name (need not exist: requests to unknown names are recorded too).',
    schema: journalNameSchema(),
  },
}));

const FILTER_RULE =
  'match must be JSON of { method?, path?, query?, headers?, body?, signature? } (query and headers map names to strings; body is a JSON subset; signature is valid, invalid, missing, stale or replayed)';

/** The `match` query parameter as a predicate, or `undefined` when absent. */
export function requestMatcher(
  schemas: Schemas,
  text: string | undefined,
): ((entry: JournalEntry) => boolean) | undefined {
  if (text === undefined) return undefined;
  let filter: unknown;
  try {
    filter = JSON.parse(text);
  } catch {
    throw new MockpointError('INVALID_QUERY', `${FILTER_RULE}; it is not valid JSON`);
  }
  if (!schemas.requestFilter.safeParse(filter).success) throw new MockpointError('INVALID_QUERY', FILTER_RULE);
  // The parsed JSON itself, not zod's copy: zod drops keys such as `__proto__`.
  return (entry) => matchesRequest(entry, filter as RequestFilter);
}

export function registerJournalRoutes(
  app: Hono,
  ctx: Pick<AppContext, 'describe' | 'journal' | 'options' | 'schemas'>,
): void {
  const { schemas, journal, options } = ctx;

  app.get('/api/endpoints/:name/requests', async (c) => {
    const name = journalName(c.req.param('name'));
    const parsed = schemas.journalQuery.safeParse(c.req.query());
    if (!parsed.success) {
      throw new MockpointError(
        'INVALID_QUERY',
        'wait must be a whole number of milliseconds >= 0, count an integer >= 1 and after a request id >= 0',
      );
    }
    const { wait, count } = parsed.data;
    // A cursor from another journal (the daemon restarted: ids start again at 1) covers nothing of this one.
    const after = parsed.data.journal !== undefined && parsed.data.journal !== journal.id ? 0 : parsed.data.after;
    const match = requestMatcher(schemas, parsed.data.match);
    if (count > options.journalSize) {
      throw new MockpointError(
        'INVALID_QUERY',
        `count must be at most ${options.journalSize}: the journal keeps only the last ${options.journalSize} requests per name (MOCKPOINT_JOURNAL_SIZE)`,
      );
    }
    const page = await journal.wait(name, count, Math.min(wait, MAX_WAIT_MS), c.req.raw.signal, after, match);
    return jsonResponse({ ...page, journalId: journal.id });
  });

  app.delete('/api/endpoints/:name/requests', async (c) => {
    await journal.clear(journalName(c.req.param('name')));
    return c.body(null, 204);
  });

  const params = journalParams();
  ctx.describe?.push(
    {
      method: 'get',
      path: '/api/endpoints/{name}/requests',
      summary:
        'Requests received at /endpoint/{name}, oldest first. With wait, holds the answer until count requests exist or wait ms pass. With match, only requests matching that filter are listed and counted.',
      tag: 'journal',
      params,
      // The real upper bound of `count` is this server's MOCKPOINT_JOURNAL_SIZE.
      query: schemas.journalQuery.extend({
        count: z.coerce
          .number()
          .int()
          .min(1)
          .max(Math.max(1, options.journalSize))
          .default(1)
          .describe(`How many requests to wait for, at most MOCKPOINT_JOURNAL_SIZE (${options.journalSize} here).`),
      }),
      responses: {
        200: {
          description:
            '`complete` tells whether `count` requests had arrived. `journalId` changes when the journal starts anew (e.g. the daemon restarted): request ids start again at 1, so an `after` cursor from another journal is stale.',
          schema: schemas.journalPage,
        },
        ...errorResponses(schemas, REQUEST_ERRORS, 'TOO_MANY_WAITERS', STORE_ERRORS),
      },
    },
    clearDoc(
      schemas,
      {
        path: '/api/endpoints/{name}/requests',
        summary: 'Forget the requests recorded for this name.',
        tag: 'journal',
        params,
      },
      'Cleared.',
    ),
  );
}
