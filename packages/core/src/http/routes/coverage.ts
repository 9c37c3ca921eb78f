/**
 * `GET /api/coverage[?names=a,b&since=ISO&until=ISO]`: per endpoint, each
 * route's hits, the routes never hit (dead mocks) and the requests that hit no
 * route, over the requests the journal kept in the window (docs/coverage.md).
 * Under `/ns/{ns}/api/coverage`, a namespace's (a test session's).
 *
 * @module
 */
import type { Hono } from 'hono';
import { z } from 'zod';
import { jsonResponse } from '../../answer/read-response.js';
import { type CoverageQuery, MAX_COVERAGE_SAMPLE } from '../../api/coverage-json.js';
import { isValidName } from '../../api/schemas.js';
import { onFirstUse } from '../../cache/on-first-use.js';
import { isoTimeMs } from '../../codec/iso-time.js';
import { quoted } from '../../codec/quoted.js';
import { readJournalPaged } from '../../journal/journal.js';
import { MockpointError } from '../../registry/errors.js';
import { CoverageCount, type CoverageWindow } from '../../verify/coverage.js';
import type { AppContext } from '../context.js';
import { errorResponses, HOST_ERRORS, STORE_ERRORS } from './responses.js';

/** Endpoints whose routes are read between two event-loop turns. */
const YIELD_EVERY = 50;

function badQuery(message: string): MockpointError {
  return new MockpointError('INVALID_COVERAGE_QUERY', message);
}

/** An ISO 8601 time as epoch ms, or `undefined` when absent. */
function timeOf(key: 'since' | 'until', text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const at = isoTimeMs(text, 'required');
  if (at === undefined) {
    throw badQuery(
      `${key} must be an ISO 8601 time with its zone, e.g. 2030-01-01T00:00:00Z; got ${quoted(text, 100)}`,
    );
  }
  return at;
}

/** The query checked: the names (none: every endpoint), the window as given and as epoch ms. */
function parseCoverageQuery(query: Record<string, string>): { asked: CoverageQuery; window: CoverageWindow } {
  for (const key of Object.keys(query)) {
    if (key !== 'names' && key !== 'since' && key !== 'until') {
      throw badQuery(`unknown parameter ${quoted(key, 100)}; give names, since and until`);
    }
  }
  const asked: CoverageQuery = {};
  if (query.names !== undefined) {
    const names = [...new Set(query.names.split(',').filter((name) => name !== ''))];
    const bad = names.find((name) => !isValidName(name));
    if (bad !== undefined) throw badQuery(`names: ${quoted(bad, 100)} is not a name (1–64 of A-Z a-z 0-9 _ -)`);
    asked.names = names;
  }
  const window = { since: timeOf('since', query.since), until: timeOf('until', query.until) };
  if (window.since !== undefined && window.until !== undefined && window.since >= window.until) {
    throw badQuery(`since (${query.since}) must be before until (${query.until})`);
  }
  if (query.since !== undefined) asked.since = query.since;
  if (query.until !== undefined) asked.until = query.until;
  return { asked, window };
}

/** The schemas of this module, built on their first use: a start that never uses them does not build them (docs/performance.md, "Ready"). */
const coverageSchemas = onFirstUse(() => {
  const routeSchema = z.object({ id: z.string(), index: z.number().int(), match: z.string() });

  const reportSchema = z.object({
    window: z.object({ since: z.string().optional(), until: z.string().optional() }),
    requests: z.number().int().describe('Requests in the window that were counted.'),
    endpoints: z.array(
      z.object({
        name: z.string(),
        routes: z.array(routeSchema.extend({ hits: z.number().int() })),
        dead: z.array(routeSchema).describe('The routes no request of the window hit.'),
        unmatched: z.object({
          count: z.number().int(),
          byRecord: z.number().int(),
          unhandled: z.number().int(),
          sample: z
            .array(
              z.object({
                method: z.string(),
                subpath: z.string(),
                statusCode: z.number().int(),
                answeredBy: z.enum(['record', 'none']),
                receivedAt: z.string(),
              }),
            )
            .describe(`The oldest, at most ${MAX_COVERAGE_SAMPLE}.`),
        }),
        other: z.number().int().describe('Answered by a queued answer, chaos, or a GraphQL or gRPC schema.'),
        goneRouteHits: z.number().int().describe('Answered by a route the endpoint no longer has.'),
      }),
    ),
    totals: z.object({ routes: z.number().int(), dead: z.number().int(), unmatched: z.number().int() }),
  });
  return { reportSchema };
});

export function registerCoverageRoutes(
  app: Hono,
  ctx: Pick<AppContext, 'describe' | 'endpoints' | 'journal' | 'schemas'>,
): void {
  const { endpoints, journal, schemas } = ctx;

  app.get('/api/coverage', async (c) => {
    const { asked, window } = parseCoverageQuery(c.req.query());
    const count = new CoverageCount(window);
    const names = asked.names ?? (await endpoints.store.routeNames()).map((entry) => entry.name);
    for (const [i, name] of names.entries()) {
      count.addEndpoint(name, await endpoints.routes(name));
      // A macrotask turn every few endpoints: many names never hold up the requests being served.
      if (i % YIELD_EVERY === YIELD_EVERY - 1) await new Promise((resolve) => setTimeout(resolve, 0));
    }
    const reads = asked.names === undefined ? [undefined] : asked.names;
    for (const name of reads) {
      await readJournalPaged(journal, 0, name, (since) => {
        for (const { name: sentTo, entry } of since.entries) count.addEntry(sentTo, entry);
        return true;
      });
    }
    const { since, until } = asked;
    return jsonResponse(
      count.report({ ...(since === undefined ? {} : { since }), ...(until === undefined ? {} : { until }) }),
    );
  });

  ctx.describe?.push({
    method: 'get',
    path: '/api/coverage',
    summary:
      "Coverage of the mocks by the requests the journal kept (of names, in the since/until window): each route's hits, the routes never hit (dead mocks) and the requests that hit no route (answered by the record or by nobody), per endpoint.",
    tag: 'journal',
    query: z.object({
      names: z
        .string()
        .optional()
        .describe('Comma-separated endpoint names (default: every endpoint with routes or requests).'),
      since: z.string().optional().describe('Only requests received at or after this ISO 8601 time.'),
      until: z.string().optional().describe('Only requests received before this ISO 8601 time.'),
    }),
    responses: {
      200: { description: 'The coverage, endpoints by name.', schema: coverageSchemas().reportSchema },
      ...errorResponses(schemas, HOST_ERRORS, STORE_ERRORS, ['INVALID_COVERAGE_QUERY']),
    },
  });
}
