/**
 * `GET /api/requests/unknown`: the mistyped-name inbox — names that received
 * requests (still in the journal) but hold nothing (no record, no routes, no
 * per-name setting such as a twin or a GraphQL schema, no collections, state or
 * queued answers: the endpoint list shows those), newest first, so a page can
 * offer to create each with one click.
 *
 * @module
 */
import type { Hono } from 'hono';
import { z } from 'zod';
import { jsonResponse } from '../../answer/read-response.js';
import { isValidName } from '../../api/schemas.js';
import { onFirstUse } from '../../cache/on-first-use.js';
import { readJournalPaged } from '../../journal/journal.js';
import type { AppContext } from '../context.js';
import { partNames } from './manage.js';
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

const unknownNameSchema = onFirstUse(() =>
  z.object({
    name: z.string(),
    requests: z.number().int().min(1).describe('Requests to this name the journal still holds.'),
    lastReceivedAt: z.string().describe('When the newest of them arrived (ISO 8601).'),
    lastMethod: z.string().describe("The newest one's method."),
  }),
);
const unknownNamesSchema = onFirstUse(() =>
  z.object({
    names: z.array(unknownNameSchema()).describe(`Newest first, at most ${MAX_UNKNOWN_NAMES}.`),
  }),
);

export function registerUnknownNameRoutes(
  app: Hono,
  ctx: Pick<AppContext, 'backend' | 'describe' | 'endpoints' | 'journal' | 'schemas'>,
): void {
  const { journal, endpoints, schemas } = ctx;

  app.get('/api/requests/unknown', async () => {
    const [routed, parts] = await Promise.all([
      endpoints.store.routeNames(),
      partNames(endpoints, ctx.backend.states, undefined),
    ]);
    // A name with routes, or only a twin, a schema, chaos, collections…, is listed as an endpoint: no mistyped one.
    const held = new Set([...routed.map((entry) => entry.name), ...parts.map(([name]) => name)]);
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
        } else if (isValidName(name) && !held.has(name)) {
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
      if ((await endpoints.get(candidate.name)) === undefined) names.push(candidate);
    }
    return jsonResponse({ names });
  });

  ctx.describe?.push({
    method: 'get',
    path: '/api/requests/unknown',
    summary: `Names that received requests (still in the journal) but hold nothing (no record, routes, per-name setting such as a twin, collections, state or queued answers): mistyped names, newest first (at most ${MAX_UNKNOWN_NAMES}).`,
    tag: 'journal',
    responses: {
      200: { description: 'The names, newest first.', schema: unknownNamesSchema() },
      ...errorResponses(schemas, HOST_ERRORS, STORE_ERRORS),
    },
  });
}
