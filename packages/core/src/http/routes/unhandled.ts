/**
 * `GET /api/requests/unhandled`: the recorded requests nothing answered — to a
 * name with neither a record nor routes (`NOT_FOUND`), or that no route of the
 * name matched (`NO_ROUTE_MATCHED`, whose message names the nearest misses) —
 * oldest first. A test session fails the test that made one
 * (`onUnhandledRequest`, docs/sessions.md).
 *
 * @module
 */
import type { Hono } from 'hono';
import { z } from 'zod';
import { jsonResponse } from '../../answer/read-response.js';
import type { JournalEntry } from '../../api/journal-json.js';
import type { UnhandledRequest } from '../../api/namespace-json.js';
import { onFirstUse } from '../../cache/on-first-use.js';
import { type Journal, readJournalPaged } from '../../journal/journal.js';
import type { AppContext } from '../context.js';
import { errorResponses, HOST_ERRORS, STORE_ERRORS } from './responses.js';

/** Requests listed at most (the oldest first). */
export const MAX_UNHANDLED = 100;

/** One request nothing answered, as the API lists it. */
export const unhandledSchema = onFirstUse(() =>
  z.object({
    id: z.number().int(),
    name: z.string(),
    method: z.string(),
    subpath: z.string(),
    receivedAt: z.string().meta({ description: 'ISO 8601.' }),
    statusCode: z.number().int(),
    message: z.string().meta({ description: 'What mockpoint answered: why nothing matched, and the nearest routes.' }),
  }),
);

/** The `error.message` of the answer the journal kept, or the status when it kept none. */
function answeredMessage(entry: JournalEntry): string {
  const body = entry.response?.body;
  if (body !== undefined && entry.response?.bodyEncoding === undefined) {
    try {
      const message = (JSON.parse(body) as { error?: { message?: unknown } }).error?.message;
      if (typeof message === 'string') return message;
    } catch {
      // not mockpoint's JSON error: the status says it
    }
  }
  return `answered ${entry.statusCode}`;
}

/**
 * The requests in `journal` that nothing answered, oldest first, at most {@link MAX_UNHANDLED}
 * (also read by a namespace's delete that reports them: routes/namespaces.ts).
 */
export async function readUnhandled(journal: Journal): Promise<UnhandledRequest[]> {
  const requests: UnhandledRequest[] = [];
  await readJournalPaged(journal, 0, undefined, (since) => {
    for (const { name, entry } of since.entries) {
      if (entry.answeredBy !== 'none' || entry.statusCode !== 404) continue;
      requests.push({
        id: entry.id,
        name,
        method: entry.method,
        subpath: entry.subpath,
        receivedAt: entry.receivedAt,
        statusCode: entry.statusCode,
        message: answeredMessage(entry),
      });
      if (requests.length >= MAX_UNHANDLED) return false;
    }
    return true;
  });
  return requests;
}

export function registerUnhandledRoutes(app: Hono, ctx: Pick<AppContext, 'describe' | 'journal' | 'schemas'>): void {
  const { journal, schemas } = ctx;

  app.get('/api/requests/unhandled', async () => jsonResponse({ requests: await readUnhandled(journal) }));

  ctx.describe?.push({
    method: 'get',
    path: '/api/requests/unhandled',
    summary: `The recorded requests nothing answered (a name with no record and no routes, or no route matched), oldest first, at most ${MAX_UNHANDLED}, each with the message it was answered (the nearest routes).`,
    tag: 'journal',
    responses: {
      200: {
        description: 'The requests, oldest first.',
        schema: z.object({ requests: z.array(unhandledSchema()) }),
      },
      ...errorResponses(schemas, HOST_ERRORS, STORE_ERRORS),
    },
  });
}
