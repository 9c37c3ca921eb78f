/**
 * `GET /api/requests/unknown`: the mistyped-name inbox — names that received
 * requests (still in the journal) but have neither a record nor routes, newest
 * first, so a page can offer to create each with one click.
 *
 * @module
 */
import type { Hono } from 'hono';
import { z } from 'zod';
import { jsonResponse } from '../../answer/read-response.js';
import { isValidName } from '../../api/schemas.js';
import { readJournalPaged } from '../../journal/journal.js';
import type { AppContext } from '../context.js';
import { errorResponses, HOST_ERRORS, STORE_ERRORS } from './responses.js';

/** Names listed at most (the most recently requested). */
export const MAX_UNKNOWN_NAMES = 100;

/** One name of the inbox. */
export interface UnknownName {
  name: string;
  /** Requests to it the journal still holds. */
  requests: number;
  /** When the newest of them arrived (ISO 8601). */
  lastReceivedAt: string;
  /** The newest one's method. */
  lastMethod: string;
}

const unknownNameSchema = z.object({
  name: z.string(),
  requests: z.number().int().min(1).describe('Requests to this name the journal still holds.'),
  lastReceivedAt: z.string().describe('When the newest of them arrived (ISO 8601).'),
  lastMethod: z.string().describe("The newest one's method."),
});
const unknownNamesSchema = z.object({
  names: z.array(unknownNameSchema).describe(`Newest first, at most ${MAX_UNKNOWN_NAMES}.`),
});

export function registerUnknownNameRoutes(
  app: Hono,
  ctx: Pick<AppContext, 'describe' | 'endpoints' | 'journal' | 'schemas'>,
): void {
  const { journal, endpoints, schemas } = ctx;

  app.get('/api/requests/unknown', async () => {
    const routed = await endpoints.store.routeNames();
    const withRoutes = new Set(routed.map((entry) => entry.name));
    // Oldest first, a page at a time (the event loop runs between pages): a later entry of a name is newer.
    const byName = new Map<string, UnknownName & { newestId: number }>();
    await readJournalPaged(journal, 0, undefined, (since) => {
      for (const { name, entry } of since.entries) {
        const seen = byName.get(name);
        if (seen !== undefined) {
          seen.requests++;
          seen.newestId = entry.id;
          seen.lastReceivedAt = entry.receivedAt;
          seen.lastMethod = entry.method;
        } else if (isValidName(name) && !withRoutes.has(name)) {
          byName.set(name, {
            name,
            requests: 1,
            lastReceivedAt: entry.receivedAt,
            lastMethod: entry.method,
            newestId: entry.id,
          });
        }
      }
      return true;
    });
    const newestFirst = [...byName.values()].sort((a, b) => b.newestId - a.newestId);
    const names: UnknownName[] = [];
    for (const { newestId: _, ...candidate } of newestFirst) {
      if (names.length >= MAX_UNKNOWN_NAMES) break;
      // A name with only a GraphQL schema is no mistyped one: its schema answers.
      const [record, sdl] = await Promise.all([endpoints.get(candidate.name), endpoints.graphqlSchema(candidate.name)]);
      if (record === undefined && sdl === undefined) names.push(candidate);
    }
    return jsonResponse({ names });
  });

  ctx.describe?.push({
    method: 'get',
    path: '/api/requests/unknown',
    summary: `Names that received requests (still in the journal) but have no record and no routes: mistyped names, newest first (at most ${MAX_UNKNOWN_NAMES}).`,
    tag: 'journal',
    responses: {
      200: { description: 'The names, newest first.', schema: unknownNamesSchema },
      ...errorResponses(schemas, HOST_ERRORS, STORE_ERRORS),
    },
  });
}
