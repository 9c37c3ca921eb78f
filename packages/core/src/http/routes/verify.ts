/**
 * `POST /api/verify`: the endpoints' routes checked against an OpenAPI 3.0 or
 * 3.1 document (docs/verify.md). It changes nothing; a POST because the
 * document goes in the body (bounded by the body limit). The answer is the
 * report, `200` whether or not the routes drifted (`ok` says which).
 *
 * @module
 */
import type { Hono } from 'hono';
import { z } from 'zod';
import { jsonResponse } from '../../answer/read-response.js';
import type { JournalEntry } from '../../api/journal-json.js';
import { isValidName } from '../../api/schemas.js';
import {
  MAX_VERIFY_CONCURRENCY,
  MAX_VERIFY_FINDINGS,
  MAX_VERIFY_TIMEOUT_MS,
  MAX_VERIFY_TOTAL_MS,
  VERIFY_FINDING_CODES,
} from '../../api/verify-json.js';
import { onFirstUse } from '../../cache/on-first-use.js';
import { readJsonObjectBody } from '../../codec/body.js';
import { parseJsonInTurns } from '../../codec/json-text.js';
import { quoted } from '../../codec/quoted.js';
import { JOURNAL_READ_PAGE } from '../../journal/journal.js';
import { MockpointError } from '../../registry/errors.js';
import { SLICED_ROUTES_CHARS, TurnBudget } from '../../turns/turn-budget.js';
import type { VerifyEndpoint } from '../../verify/verify-routes.js';
import type { AppContext } from '../context.js';
import { ADMIN_ERRORS, BODY_ERRORS, errorResponses, REQUEST_ERRORS, STORE_ERRORS } from './responses.js';

/** The schemas of this module, built on their first use: a start that never uses them does not build them (docs/performance.md, "Ready"). */
const verifySchemas = onFirstUse(() => {
  const routeRef = z.object({ id: z.string(), index: z.number().int().min(0) });
  const entryRef = z
    .object({ id: z.number().int(), receivedAt: z.string(), method: z.string(), path: z.string() })
    .describe("A journal finding's recorded request.");

  const reportSchema = z.object({
    ok: z.boolean().describe('No finding: the routes fit the document.'),
    document: z.object({ title: z.string(), version: z.string(), openapi: z.string() }).optional(),
    upstream: z.string().optional().describe('The live API replayed against.'),
    checked: z.object({
      endpoints: z.number().int(),
      routes: z.number().int(),
      requests: z.number().int().optional().describe('journal: recorded requests checked.'),
      replayed: z.number().int().optional().describe('upstream: routes replayed.'),
      unreached: z.number().int().optional().describe('upstream: routes whose request failed or was not sent in time.'),
    }),
    findings: z
      .array(
        z.object({
          code: z.enum(VERIFY_FINDING_CODES),
          endpoint: z.string(),
          route: routeRef.optional(),
          entry: entryRef.optional(),
          operation: z.string().describe('`METHOD /path` as the route matches (a journal finding: as sent).'),
          path: z.string().describe('Where: `body/items/0/id`, `headers/x-rate-limit`, `status`, `path`, `method`.'),
          expected: z.string(),
          found: z.string(),
          message: z.string(),
        }),
      )
      .describe(`At most ${MAX_VERIFY_FINDINGS}; moreFindings counts the rest.`),
    moreFindings: z.number().int().min(0),
    notes: z.array(
      z.object({ endpoint: z.string(), route: routeRef.optional(), entry: entryRef.optional(), note: z.string() }),
    ),
    moreNotes: z.number().int().min(0),
    endpoints: z.array(
      z.object({
        name: z.string(),
        routes: z.array(z.object({ id: z.string(), index: z.number().int(), operation: z.string() })),
      }),
    ),
  });

  const requestSchema = z.object({
    openapi: z
      .union([z.string(), z.record(z.string(), z.unknown())])
      .optional()
      .describe('The OpenAPI 3.0 or 3.1 document: the object, or its JSON or YAML text (openapi, upstream or both).'),
    names: z.array(z.string()).optional().describe('Only these endpoints (default: every endpoint with routes).'),
    journal: z
      .boolean()
      .optional()
      .describe(
        "Also check each endpoint's recorded requests against the operation's request schemas (needs openapi).",
      ),
    upstream: z
      .object({
        url: z
          .string()
          .describe("The live API's base URL; only hosts MOCKPOINT_PROXY_ALLOW_HOSTS allows, with its SSRF rules."),
        ignore: z.array(z.string()).optional().describe('Shape paths not compared: body.updatedAt, body.items.*.id.'),
        headers: z
          .record(z.string(), z.string())
          .optional()
          .describe('Headers sent with every replayed request (recorded secrets never are).'),
        unsafe: z
          .boolean()
          .optional()
          .describe('Also replay POST, PUT, PATCH, DELETE, …: they may change the live API.'),
        har: z
          .record(z.string(), z.unknown())
          .optional()
          .describe("A HAR document whose requests are routes' examples."),
        concurrency: z.number().int().min(1).max(MAX_VERIFY_CONCURRENCY).optional(),
        timeoutMs: z.number().int().min(1).max(MAX_VERIFY_TIMEOUT_MS).optional(),
        totalMs: z.number().int().min(1).max(MAX_VERIFY_TOTAL_MS).optional(),
      })
      .optional()
      .describe("Replay each route's example request against the live API and compare the answers' shapes."),
  });
  return { reportSchema, requestSchema };
});

function invalidBody(message: string): MockpointError {
  return new MockpointError('INVALID_BODY', message);
}

/** The names asked for, checked; `undefined` for every endpoint with routes. */
function namesOf(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  const names: unknown = JSON.parse(text);
  if (!Array.isArray(names) || names.some((name) => typeof name !== 'string')) {
    throw invalidBody('names is a list of endpoint names');
  }
  for (const name of names as string[]) {
    if (!isValidName(name)) {
      throw new MockpointError('INVALID_NAME', `names: ${quoted(name, 100)} is not a name (1–64 of A-Z a-z 0-9 _ -)`);
    }
  }
  return [...new Set(names as string[])];
}

/** The fields `POST /api/verify` takes. */
const FIELDS = ['openapi', 'names', 'journal', 'upstream'];

/** The journal of `name`, a page at a time. */
async function* journalPages(ctx: AppContext, name: string): AsyncGenerator<JournalEntry[]> {
  let cursor = 0;
  for (;;) {
    const since = await ctx.journal.since(cursor, name, JOURNAL_READ_PAGE);
    const last = since.entries.at(-1);
    if (last !== undefined) yield since.entries.map(({ entry }) => entry);
    if (since.entries.length < JOURNAL_READ_PAGE || last === undefined) return;
    cursor = last.entry.id;
  }
}

export function registerVerifyRoutes(app: Hono, ctx: AppContext): void {
  const { endpoints, options, schemas } = ctx;

  app.post('/api/verify', async (c) => {
    // A large document is scanned, parsed and indexed a slice per event-loop turn, as a long routes list is:
    // body → openapi → paths → each path item.
    const members = await readJsonObjectBody(c.req.raw, options.maxBodyBytes, {
      inTurnsFrom: SLICED_ROUTES_CHARS,
      deepInTurns: 3,
    });
    for (const key of members.keys()) {
      if (!FIELDS.includes(key)) {
        throw new MockpointError(
          'UNKNOWN_FIELD',
          `unknown field ${quoted(key, 100)}; give openapi, names, journal and upstream`,
        );
      }
    }
    const openapi = members.get('openapi');
    const upstream = members.get('upstream');
    if (openapi === undefined && upstream === undefined) {
      throw invalidBody('give openapi (the OpenAPI document, or its JSON or YAML text), upstream ({ url }), or both');
    }
    const journalText = members.get('journal');
    const journal = journalText === undefined ? false : JSON.parse(journalText);
    if (typeof journal !== 'boolean') throw invalidBody('journal is true or false');
    if (journal && openapi === undefined) {
      throw new MockpointError(
        'INVALID_VERIFY_UPSTREAM',
        'journal: the recorded requests are checked against openapi; give it',
      );
    }
    const names = namesOf(members.get('names'));
    // Loaded on the first verify: YAML, the document reader and the checks stay out of a plain start.
    const [{ readOpenApiInTurns }, { verifyRoutes }, { readLiveOptions }] = await Promise.all([
      import('../../verify/openapi-document.js'),
      import('../../verify/verify-routes.js'),
      import('../../verify/live-options.js'),
    ]);
    const budget = new TurnBudget();
    const doc =
      openapi === undefined ? undefined : await readOpenApiInTurns(await parseJsonInTurns(openapi, budget), budget);
    const live =
      upstream === undefined
        ? undefined
        : readLiveOptions(JSON.parse(upstream), {
            upstream: ctx.proxy.upstream,
            allowHosts: ctx.proxy.allowHosts,
            maxBodyBytes: options.maxBodyBytes,
          });
    const wanted = names ?? (await endpoints.store.routeNames()).map((entry) => entry.name);
    const reads = journal || live !== undefined;
    async function* each(): AsyncGenerator<VerifyEndpoint> {
      for (const name of wanted) {
        const routes = await endpoints.routes(name);
        yield reads ? { name, routes, journal: () => journalPages(ctx, name) } : { name, routes };
      }
    }
    return jsonResponse(await verifyRoutes(doc, each(), live === undefined ? { journal } : { journal, live }));
  });

  ctx.describe?.push({
    method: 'post',
    path: '/api/verify',
    summary:
      "Check the endpoints' routes against an OpenAPI 3.0 or 3.1 document: each route's path and method an operation, each answer's status declared and its headers and body valid against the response's schema; with journal, each recorded request against the request schemas; with upstream, each route replayed against the live API and the answers' shapes compared. Changes nothing; ok is false when they drifted.",
    tag: 'routes',
    body: verifySchemas().requestSchema,
    admin: true,
    responses: {
      200: { description: 'The report (findings capped, the rest counted).', schema: verifySchemas().reportSchema },
      ...errorResponses(schemas, REQUEST_ERRORS, BODY_ERRORS, STORE_ERRORS, ADMIN_ERRORS, [
        'INVALID_JSON',
        'INVALID_BODY',
        'UNKNOWN_FIELD',
        'INVALID_NAME',
        'INVALID_OPENAPI',
        'INVALID_VERIFY_UPSTREAM',
        'PROXY_HOST_NOT_ALLOWED',
      ]),
    },
  });
}
