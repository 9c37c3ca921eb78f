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
import { readOpenApi } from '../../verify/openapi-document.js';
import { type VerifyEndpoint, verifyRoutes } from '../../verify/verify-routes.js';
import { readJsonObjectBody } from '../../wire/body.js';
import { MockpointError } from '../../wire/errors.js';
import { quoted } from '../../wire/quoted.js';
import { isValidName } from '../../wire/schemas.js';
import { SLICED_ROUTES_CHARS } from '../../wire/turn-budget.js';
import { MAX_VERIFY_FINDINGS, VERIFY_FINDING_CODES } from '../../wire/verify-json.js';
import type { AppContext } from '../context.js';
import { ADMIN_ERRORS, BODY_ERRORS, errorResponses, REQUEST_ERRORS, STORE_ERRORS } from './responses.js';

const routeRef = z.object({ id: z.string(), index: z.number().int().min(0) });

const reportSchema = z.object({
  ok: z.boolean().describe('No finding: the routes fit the document.'),
  document: z.object({ title: z.string(), version: z.string(), openapi: z.string() }),
  checked: z.object({ endpoints: z.number().int(), routes: z.number().int() }),
  findings: z
    .array(
      z.object({
        code: z.enum(VERIFY_FINDING_CODES),
        endpoint: z.string(),
        route: routeRef,
        operation: z.string().describe('`METHOD /path` as the route matches.'),
        path: z.string().describe('Where: `body/items/0/id`, `headers/x-rate-limit`, `status`, `path`, `method`.'),
        expected: z.string(),
        found: z.string(),
        message: z.string(),
      }),
    )
    .describe(`At most ${MAX_VERIFY_FINDINGS}; moreFindings counts the rest.`),
  moreFindings: z.number().int().min(0),
  notes: z.array(z.object({ endpoint: z.string(), route: routeRef, note: z.string() })),
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
    .describe('The OpenAPI 3.0 or 3.1 document: the object, or its JSON or YAML text.'),
  names: z.array(z.string()).optional().describe('Only these endpoints (default: every endpoint with routes).'),
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

export function registerVerifyRoutes(app: Hono, ctx: AppContext): void {
  const { endpoints, options, schemas } = ctx;

  app.post('/api/verify', async (c) => {
    // A large document is scanned a slice per event-loop turn, as a long routes list is.
    const members = await readJsonObjectBody(c.req.raw, options.maxBodyBytes, { inTurnsFrom: SLICED_ROUTES_CHARS });
    for (const key of members.keys()) {
      if (key !== 'openapi' && key !== 'names') {
        throw new MockpointError('UNKNOWN_FIELD', `unknown field ${quoted(key, 100)}; give openapi and names`);
      }
    }
    const openapi = members.get('openapi');
    if (openapi === undefined) throw invalidBody('openapi is required: the OpenAPI document, or its JSON or YAML text');
    const names = namesOf(members.get('names'));
    const doc = readOpenApi(JSON.parse(openapi));
    const wanted = names ?? (await endpoints.store.routeNames()).map((entry) => entry.name);
    async function* each(): AsyncGenerator<VerifyEndpoint> {
      for (const name of wanted) yield { name, routes: await endpoints.routes(name) };
    }
    return jsonResponse(await verifyRoutes(doc, each()));
  });

  ctx.docs.push({
    method: 'post',
    path: '/api/verify',
    summary:
      "Check the endpoints' routes against an OpenAPI 3.0 or 3.1 document: each route's path and method an operation, each answer's status declared and its headers and body valid against the response's schema. Changes nothing; ok is false when they drifted.",
    tag: 'routes',
    body: requestSchema,
    admin: true,
    responses: {
      200: { description: 'The report (findings capped, the rest counted).', schema: reportSchema },
      ...errorResponses(schemas, REQUEST_ERRORS, BODY_ERRORS, STORE_ERRORS, ADMIN_ERRORS, [
        'INVALID_JSON',
        'INVALID_BODY',
        'UNKNOWN_FIELD',
        'INVALID_NAME',
        'INVALID_OPENAPI',
      ]),
    },
  });
}
