/**
 * The schemas of routes and answers (validation and the OpenAPI document from
 * one source), and the parse of a routes request body into checked routes.
 *
 * @module
 */

import { z } from 'zod';
import {
  HEADER_NAME_PATTERN,
  HEADER_VALUE_PATTERN,
  headerNameProblem,
  headerValueProblem,
} from '../codec/http-header.js';
import { latencySchema } from '../random/latency.js';
import { type ErrorCode, MockpointError } from '../registry/errors.js';
import { nextTurn, SLICED_ROUTES_CHARS, TurnBudget } from '../turns/turn-budget.js';
import type { RouteSchemaParts } from './answer-kind.js';
import { ANSWER_KINDS, OWN_KINDS } from './answer-kinds.js';
import { llmSchema } from './kinds/llm.js';
import { streamSchema } from './kinds/stream.js';
import { webSocketSchemas } from './kinds/websocket.js';
import { rateLimitSchema } from './rate-limit.js';
import {
  type AnswerLimits,
  checkRoutes,
  type Route,
  type RouteInput,
  routeChecker,
  routesFromJson,
  routesFromJsonInTurns,
} from './route.js';
import { routeValidationSchemas } from './route-validation.js';
import { createStateSchemas } from './state-json.js';

/** Builds the route schemas from the record's parts. */
export function createRouteSchemas(parts: RouteSchemaParts) {
  const headers = createHeadersSchema();
  const stream = streamSchema(parts);
  const { socketFrame, socketClose, websocket } = webSocketSchemas(parts);
  const llm = llmSchema(parts);
  const routeAnswer = z
    .strictObject({
      statusCode: parts.statusCode.optional().describe('HTTP status, 200-599; default 200.'),
      headers: headers.optional(),
      data: parts.data.optional().describe('A JSON value, sent as the exact text given (application/json).'),
      body: z.string().optional().describe('Text sent as is (text/plain; charset=utf-8 unless headers say otherwise).'),
      bodyBase64: z.string().optional().describe('Bytes in base64 (application/octet-stream unless headers say).'),
      stream: stream.optional(),
      delay: parts.delay.optional().describe('Milliseconds before answering; default 0.'),
      latency: latencySchema(parts.delay).optional(),
      fault: parts.fault.optional(),
      template: z
        .boolean()
        .optional()
        .describe(
          'Render {{params.x}}, {{query.x}}, {{headers.x}}, {{body.a.b}}, {{uuid}}, {{now}}, {{seq}} in data strings, body and header values.',
        ),
      ...ownKindMembers(parts),
      setState: createStateSchemas()
        .setState.optional()
        .describe(
          'Move the endpoint\'s state when this route answers, in one atomic step with the match: "paid" (the "default" scenario) or { checkout: "paid" }; or later, by the app\'s clock: { after: "30s", to: "shipped" }.',
        ),
    })
    .meta({
      title: 'RouteAnswer',
      description:
        'What a route sends; complete on its own (200, no body, no delay). At most one of data, body, bodyBase64, stream.',
    });
  const route = z
    .strictObject({
      id: parts.name.optional().describe('Unique within the endpoint (same rule as names); generated when absent.'),
      match: parts.requestFilter.optional().describe('Which requests it answers; absent: every request.'),
      validate: routeValidationSchemas().validate.optional(),
      rateLimit: rateLimitSchema().optional(),
      answer: routeAnswer,
    })
    .meta({ title: 'Route', description: 'One route: the first in list order whose match holds answers.' });
  const storedRoute = z
    .object({
      id: parts.name,
      match: parts.requestFilter.optional(),
      validate: routeValidationSchemas().validate.optional(),
      rateLimit: rateLimitSchema().optional(),
      answer: routeAnswer,
    })
    .meta({ title: 'StoredRoute' });
  const routesRequest = z.strictObject({ routes: z.array(route) }).meta({ title: 'RoutesRequest' });
  const routesPage = z.object({ routes: z.array(storedRoute) }).meta({ title: 'Routes' });
  return { stream, socketFrame, socketClose, websocket, llm, routeAnswer, route, routesRequest, routesPage };
}

/** The members of the kinds that own their answer (answer-kinds.ts), in their order. */
function ownKindMembers(parts: RouteSchemaParts): Record<string, z.ZodType> {
  return Object.fromEntries(
    OWN_KINDS.map((kind) => {
      const member = kind.schema(parts).optional();
      return [kind.key, kind.describe === undefined ? member : member.describe(kind.describe)];
    }),
  );
}

/** Answer headers: the one header rule (http-header.ts). */
function createHeadersSchema() {
  // The one header rule (http-header.ts), so every answer (route, queue, stream, mock file) refuses alike.
  const headerName = z
    .string()
    .regex(HEADER_NAME_PATTERN, { error: (issue) => headerNameProblem(String(issue.input)) })
    .refine((name) => headerNameProblem(name) === undefined, {
      error: (issue) => headerNameProblem(String(issue.input)),
    });
  const headerValue = z.string().regex(HEADER_VALUE_PATTERN, {
    error: (issue) => headerValueProblem(String(issue.input)) ?? 'is not a valid header value',
  });
  return z
    .record(headerName, z.union([headerValue, z.array(headerValue)]))
    .describe(
      'Response headers; an array sends the header once per value (Set-Cookie). Connection, Content-Length, Keep-Alive, Transfer-Encoding, Upgrade, TE, Trailer and Proxy-Connection are refused. A value holds tab, space and visible ASCII only (percent-encode other text).',
    );
}

/** The error code of an invalid field, by the field's name. */
const FIELD_CODES: Record<string, ErrorCode> = {
  statusCode: 'INVALID_STATUS_CODE',
  delay: 'INVALID_DELAY',
  latency: 'INVALID_LATENCY',
  id: 'INVALID_ROUTE_ID',
  match: 'INVALID_MATCH',
  headers: 'INVALID_HEADER',
  validate: 'INVALID_VALIDATION',
  rateLimit: 'INVALID_RATE_LIMIT',
  setState: 'INVALID_STATE',
  ...Object.fromEntries(ANSWER_KINDS.flatMap((kind) => (kind.code === undefined ? [] : [[kind.key, kind.code]]))),
};

/** Options for {@link parseRoutesBody}. */
export interface ParseRoutesOptions extends AnswerLimits {
  /** Ids already in use (appending). */
  existingIds?: ReadonlySet<string>;
}

/**
 * The routes of a `{ "routes": [...] }` body (its top-level members as scanned
 * text), checked in full: the first bad route is refused with a specific code,
 * its index in the message (`routes[2]: …`) and in `error.details.index`.
 * A list of {@link SLICED_ROUTES_CHARS} or more is read and checked a slice
 * at a time, the event loop running between slices (#49 S7).
 */
export async function parseRoutesBody(
  members: ReadonlyMap<string, string>,
  schema: z.ZodType,
  options: ParseRoutesOptions,
): Promise<Route[]> {
  const unknown = [...members.keys()].filter((key) => key !== 'routes');
  if (unknown.length > 0) {
    throw new MockpointError(
      'UNKNOWN_FIELD',
      `unknown field(s): ${unknown.join(', ')}; the body is { "routes": [ ... ] }`,
    );
  }
  const text = members.get('routes');
  if (text === undefined || !text.startsWith('[')) {
    throw new MockpointError(
      'INVALID_BODY',
      'routes must be an array of routes: { "routes": [ { "match": …, "answer": … } ] }',
    );
  }
  if (text.length >= SLICED_ROUTES_CHARS) return routesInTurns(text, schema, options);
  const routes = routesFromJson(text);
  for (const [index, item] of routes.entries()) checkRouteShape(item, index, schema);
  // The parsed items themselves, not zod's copies: zod drops keys such as `__proto__`.
  return checkRoutes(routes as RouteInput[], options);
}

/** {@link parseRoutesBody} of a long list: the same checks and results, a slice per event-loop turn. */
async function routesInTurns(text: string, schema: z.ZodType, options: ParseRoutesOptions): Promise<Route[]> {
  // Reading and scanning the body took this turn.
  await nextTurn();
  const budget = new TurnBudget();
  const routes = await routesFromJsonInTurns(text, budget, true);
  for (const [index, item] of routes.entries()) {
    await budget.pause();
    checkRouteShape(item, index, schema);
  }
  const check = routeChecker(options);
  const checked: Route[] = [];
  for (const [index, item] of routes.entries()) {
    await budget.pause();
    checked.push(check(item as RouteInput, index));
  }
  return checked;
}

/** Refuses a route that is not an object with an answer, or that its schema refuses (the first issue, with a specific code). */
function checkRouteShape(item: unknown, index: number, schema: z.ZodType): void {
  const at = `routes[${index}]`;
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    throw new MockpointError(
      'INVALID_ROUTE',
      `${at} must be an object { id?, match?, validate?, rateLimit?, answer }`,
      {
        details: { index },
      },
    );
  }
  if (!Object.hasOwn(item, 'answer')) {
    throw new MockpointError('INVALID_ROUTE', `${at}: answer is required (use {} for an empty 200)`, {
      details: { index },
    });
  }
  const result = schema.safeParse(item);
  if (result.success) return;
  const issue = result.error.issues[0];
  const where = issue?.path.map(String).join('.') ?? '';
  if (issue?.code === 'unrecognized_keys') {
    throw new MockpointError(
      'UNKNOWN_FIELD',
      `${at}${where ? `.${where}` : ''}: unknown field(s): ${issue.keys.join(', ')}`,
      { details: { index } },
    );
  }
  const field = [...(issue?.path ?? [])].reverse().find((key) => typeof key === 'string' && key in FIELD_CODES);
  const top = String(issue?.path[0] ?? '');
  const matchState = top === 'match' && issue?.path[1] === 'state';
  const regex = issue?.code === 'custom' && issue.params?.regex === true;
  const code = matchState
    ? 'INVALID_STATE'
    : regex
      ? 'INVALID_MATCH'
      : (FIELD_CODES[String(field)] ?? FIELD_CODES[top] ?? 'INVALID_ROUTE');
  throw new MockpointError(code, `${at}.${where}: ${issue?.message ?? 'is invalid'}`, { details: { index } });
}
