/**
 * The schemas of routes and answers (validation and the OpenAPI document from
 * one source), and the parse of a routes request body into checked routes.
 *
 * @module
 */

import { z } from 'zod';
import {
  LLM_APIS,
  LLM_ERROR_TYPES,
  LLM_PROVIDERS,
  MAX_LLM_ERROR_MESSAGE_LENGTH,
  MAX_LLM_MODEL_LENGTH,
  MAX_LLM_RETRY_AFTER,
  MAX_LLM_TOOL_CALLS,
  MAX_LLM_TOOL_NAME_LENGTH,
} from './answer-llm.js';
import { STREAM_ENDS, STREAM_FORMATS } from './answer-stream.js';
import { MAX_CLOSE_REASON_BYTES } from './answer-websocket.js';
import { type ErrorCode, MockpointError } from './errors.js';
import { HEADER_NAME_PATTERN, HEADER_VALUE_PATTERN, headerNameProblem, headerValueProblem } from './http-header.js';
import { createMcpSchemas } from './mcp-json.js';
import { MAX_PROXY_TIMEOUT_MS } from './proxy-answer.js';
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
import { nextTurn, SLICED_ROUTES_CHARS, TurnBudget } from './turn-budget.js';

/** The record schemas a route reuses. */
export interface RouteSchemaParts {
  name: z.ZodString;
  data: z.ZodUnknown;
  statusCode: z.ZodNumber;
  delay: z.ZodNumber;
  fault: z.ZodType;
  requestFilter: z.ZodType;
}

/** Builds the route schemas from the record's parts. */
export function createRouteSchemas(parts: RouteSchemaParts) {
  const headers = createHeadersSchema();
  const stream = createStreamSchema(parts);
  const { socketFrame, socketClose, websocket } = createWebSocketSchemas(parts);
  const llm = createLlmSchema(parts);
  const proxy = createProxySchema();
  const resource = createResourceSchema();
  const routeAnswer = z
    .strictObject({
      statusCode: parts.statusCode.optional().describe('HTTP status, 200-599; default 200.'),
      headers: headers.optional(),
      data: parts.data.optional().describe('A JSON value, sent as the exact text given (application/json).'),
      body: z.string().optional().describe('Text sent as is (text/plain; charset=utf-8 unless headers say otherwise).'),
      bodyBase64: z.string().optional().describe('Bytes in base64 (application/octet-stream unless headers say).'),
      stream: stream.optional(),
      delay: parts.delay.optional().describe('Milliseconds before answering; default 0.'),
      fault: parts.fault.optional(),
      template: z
        .boolean()
        .optional()
        .describe(
          'Render {{params.x}}, {{query.x}}, {{headers.x}}, {{body.a.b}}, {{uuid}}, {{now}}, {{seq}} in data strings, body and header values.',
        ),
      proxy: proxy.optional().describe('Forward to an upstream instead (the whole answer: no other field beside it).'),
      resource: resource
        .optional()
        .describe(
          'Serve a collection as REST below the route\'s path: "users" or { collection, idField }. Beside it only setState, and headers added to its successful answers (with template: true, rendered with {{item.field}}, the item answered).',
        ),
      websocket: websocket
        .optional()
        .describe(
          "Accept a WebSocket upgrade (a GET with Upgrade: websocket) and play a script; beside it only delay (the handshake's), headers (of the 101) and setState. A request without the upgrade gets 426 WEBSOCKET_REQUIRED.",
        ),
      llm: llm
        .optional()
        .describe(
          "Answer as OpenAI's or Anthropic's API does (JSON or SSE, tool calls, errors); beside it only delay, headers, template (renders text) and setState.",
        ),
      mcp: createMcpSchemas(parts.data)
        .answer.optional()
        .describe(
          'A fake MCP server over Streamable HTTP (POST JSON-RPC): initialize, tools/list and tools/call (results templated over {{arguments.x}}), resources, prompts, ping (routes only; beside it only setState). See docs/mcp.md.',
        ),
      setState: createStateSchemas()
        .input.optional()
        .describe(
          'Move the endpoint\'s state when this route answers, in one atomic step with the match: "paid" (the "default" scenario) or { checkout: "paid" }.',
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
      validate: routeValidationSchemas.validate.optional(),
      answer: routeAnswer,
    })
    .meta({ title: 'Route', description: 'One route: the first in list order whose match holds answers.' });
  const storedRoute = z
    .object({
      id: parts.name,
      match: parts.requestFilter.optional(),
      validate: routeValidationSchemas.validate.optional(),
      answer: routeAnswer,
    })
    .meta({ title: 'StoredRoute' });
  const routesRequest = z.strictObject({ routes: z.array(route) }).meta({ title: 'RoutesRequest' });
  const routesPage = z.object({ routes: z.array(storedRoute) }).meta({ title: 'Routes' });
  return { stream, socketFrame, socketClose, websocket, llm, routeAnswer, route, routesRequest, routesPage };
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

/** A streamed answer and its events. */
function createStreamSchema(parts: RouteSchemaParts) {
  const streamEvent = z
    .strictObject({
      delay: parts.delay
        .optional()
        .describe('Milliseconds after the previous event (after the headers, for the first); default 0.'),
      data: parts.data
        .optional()
        .describe(
          'sse and ndjson: the data. sse sends a string as text (one data: line per line), any other JSON value as its exact text.',
        ),
      event: z.string().optional().describe('sse: the event type (event: line).'),
      id: z
        .string()
        .optional()
        .describe('sse: the event id (id: line); a request with Last-Event-ID resumes after it.'),
      retry: z.number().int().min(0).optional().describe('sse: reconnection time in milliseconds (retry: line).'),
      body: z.string().optional().describe('raw: text, sent as UTF-8.'),
      bodyBase64: z.string().optional().describe('raw: bytes, in base64.'),
    })
    .meta({
      title: 'StreamEvent',
      description: 'One event: sse takes data, event, id, retry; ndjson takes data; raw takes body or bodyBase64.',
    });
  return z
    .strictObject({
      format: z
        .enum(STREAM_FORMATS as [string, ...string[]])
        .describe(
          'sse (text/event-stream), ndjson (application/x-ndjson, one JSON text per line) or raw (chunks as they are).',
        ),
      events: z.array(streamEvent).describe('Written and flushed one by one, each after its own delay.'),
      end: z
        .enum(STREAM_ENDS as [string, ...string[]])
        .optional()
        .describe(
          'After the last event: close (default) ends the response, hang keeps the connection open until the client leaves or the server stops, reset breaks the connection.',
        ),
    })
    .meta({ title: 'AnswerStream', description: 'A streamed answer instead of a body (see docs/streams.md).' });
}

/** A WebSocket answer's script, its frames and its close. */
function createWebSocketSchemas(parts: RouteSchemaParts) {
  const socketFrame = z
    .strictObject({
      delay: parts.delay
        .optional()
        .describe(
          'Milliseconds after the previous frame (after the handshake, or the message answered, for the first); default 0.',
        ),
      text: z.string().optional().describe('A text frame.'),
      json: parts.data.optional().describe("A text frame holding this JSON value's exact text."),
      bytes: z.string().optional().describe('A binary frame: bytes in base64.'),
    })
    .meta({ title: 'SocketFrame', description: 'One message: exactly one of text, json and bytes.' });
  const socketClose = z
    .strictObject({
      delay: parts.delay.optional().describe('Milliseconds after the frames before it; default 0.'),
      code: z.number().int().optional().describe('1000–1003, 1007–1014 or 3000–4999 (RFC 6455 §7.4); default 1000.'),
      reason: z.string().optional().describe(`At most ${MAX_CLOSE_REASON_BYTES} bytes of UTF-8.`),
      drop: z.boolean().optional().describe('Cut the TCP connection without a close frame (no code or reason then).'),
    })
    .meta({ title: 'SocketClose', description: 'Close the connection: a close frame, or a dropped connection.' });
  const websocket = z
    .strictObject({
      protocols: z
        .array(z.string())
        .optional()
        .describe(
          'Subprotocols spoken: the first one the client offers (Sec-WebSocket-Protocol) that is listed is chosen.',
        ),
      onOpen: z.array(socketFrame).optional().describe('Sent once the connection is open, each after its delay.'),
      on: z
        .array(
          z.strictObject({
            match: parts.requestFilter
              .optional()
              .describe(
                "The one filter over an incoming message: body is a JSON subset of it (a string matches its exact text); path, query and headers are the upgrade request's. Absent: every message.",
              ),
            send: z.array(socketFrame).optional().describe('Frames sent in reply, each after its delay.'),
            close: socketClose.optional(),
          }),
        )
        .optional()
        .describe('For each incoming message, the first entry whose match holds is played.'),
      close: socketClose.optional().describe('Close once onOpen is sent; absent: stay open.'),
    })
    .meta({
      title: 'WebSocketAnswer',
      description: 'Accept the WebSocket upgrade and play this script (routes only; see docs/websocket.md).',
    });
  return { socketFrame, socketClose, websocket };
}

/** An answer in an LLM provider's wire format. */
function createLlmSchema(parts: RouteSchemaParts) {
  const llmErrorType = z
    .enum(LLM_ERROR_TYPES as [string, ...string[]])
    .describe(
      "rate_limit (429 with retry-after and the provider's rate-limit headers), overloaded (Anthropic 529, OpenAI 503), server (500), context_length (400).",
    );
  return z
    .strictObject({
      provider: z.enum(LLM_PROVIDERS as [string, ...string[]]).describe('Whose wire format: openai or anthropic.'),
      api: z
        .enum(LLM_APIS as [string, ...string[]])
        .describe('openai: chat.completions or responses; anthropic: messages.'),
      text: z
        .string()
        .optional()
        .describe(
          "The assistant's text (with template: true, rendered per request), streamed a token-like chunk at a time.",
        ),
      toolCalls: z
        .array(
          z.strictObject({
            name: z.string().max(MAX_LLM_TOOL_NAME_LENGTH).describe('The tool (function) name: A-Z a-z 0-9 _ -.'),
            arguments: parts.data.optional().describe('A JSON object, sent as its exact text; default {}.'),
            id: z
              .string()
              .max(MAX_LLM_TOOL_NAME_LENGTH)
              .optional()
              .describe('The call id; default a fresh call_… (OpenAI) or toolu_… (Anthropic).'),
          }),
        )
        .max(MAX_LLM_TOOL_CALLS)
        .optional()
        .describe('Tool calls after the text (finish_reason tool_calls, stop_reason tool_use).'),
      stream: z.boolean().optional().describe("Stream (SSE) or not; absent: as the request's stream field asks."),
      chunkDelayMs: parts.delay.optional().describe('Milliseconds between streamed chunks; default 0.'),
      usage: z
        .strictObject({
          inputTokens: z
            .number()
            .int()
            .min(0)
            .max(1e9)
            .optional()
            .describe("Default: the request's messages in characters / 4."),
          outputTokens: z.number().int().min(0).max(1e9).optional().describe('Default: the number of chunks.'),
        })
        .optional()
        .describe('The token counts reported.'),
      error: z
        .union([
          llmErrorType,
          z.strictObject({
            type: llmErrorType,
            message: z
              .string()
              .max(MAX_LLM_ERROR_MESSAGE_LENGTH)
              .optional()
              .describe("Default: the provider's wording."),
            retryAfter: z
              .number()
              .int()
              .min(0)
              .max(MAX_LLM_RETRY_AFTER)
              .optional()
              .describe('Seconds in retry-after (rate_limit, overloaded); default 1.'),
          }),
        ])
        .optional()
        .describe("Answer with this error, in the provider's error shape and headers."),
      end: z
        .enum(['close', 'reset'])
        .optional()
        .describe('close (default), or reset: the connection breaks halfway through the stream (or the body).'),
      model: z
        .string()
        .min(1)
        .max(MAX_LLM_MODEL_LENGTH)
        .optional()
        .describe("The model the answer names; default the request's model, else a current model of the provider."),
    })
    .meta({
      title: 'LlmAnswer',
      description: "Answer in an LLM provider's exact wire format, JSON or streamed (routes only; see docs/llm.md).",
    });
}

/** A proxy answer. */
function createProxySchema() {
  const headerNames = z.array(z.string());
  return z
    .strictObject({
      url: z
        .string()
        .describe(
          'The upstream, an absolute http(s) URL (no query, user or fragment); the subpath is appended and the query kept. Its host must be in MOCKPOINT_PROXY_ALLOW_HOSTS.',
        ),
      record: z
        .boolean()
        .optional()
        .describe('Keep each distinct request and its answer as a route before this one; default false.'),
      redact: headerNames
        .optional()
        .describe(
          'Headers left out of a recording (never written, never replayed), besides Authorization, Cookie, Set-Cookie and X-Api-Key.',
        ),
      matchHeaders: headerNames
        .optional()
        .describe("Request headers whose values join each recorded route's match; default none."),
      timeoutMs: z
        .number()
        .int()
        .min(1)
        .max(MAX_PROXY_TIMEOUT_MS)
        .optional()
        .describe('Milliseconds to wait for the upstream status and headers (504 UPSTREAM_TIMEOUT); default 30000.'),
    })
    .meta({
      title: 'ProxyAnswer',
      description: "Forward the request to an upstream and answer with the upstream's answer (routes only).",
    });
}

/** A resource answer (a collection served as REST). */
function createResourceSchema() {
  return z
    .union([
      z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
      z.strictObject({
        collection: z
          .string()
          .regex(/^[A-Za-z0-9_-]{1,64}$/)
          .describe('The collection served.'),
        idField: z.string().min(1).max(64).optional().describe('The field that holds each item\'s id; default "id".'),
      }),
    ])
    .meta({ title: 'ResourceAnswer', description: RESOURCE_DESCRIPTION });
}

/** What a resource answer is, in the OpenAPI document and the mock-file schema. */
const RESOURCE_DESCRIPTION =
  "Serve REST over one of the endpoint's collections below the route's path, in json-server's conventions (routes only; see docs/state.md).";

/** The error code of an invalid field, by the field's name. */
const FIELD_CODES: Record<string, ErrorCode> = {
  statusCode: 'INVALID_STATUS_CODE',
  delay: 'INVALID_DELAY',
  fault: 'INVALID_FAULT',
  id: 'INVALID_ROUTE_ID',
  match: 'INVALID_MATCH',
  headers: 'INVALID_HEADER',
  stream: 'INVALID_STREAM',
  proxy: 'INVALID_PROXY',
  validate: 'INVALID_VALIDATION',
  setState: 'INVALID_STATE',
  websocket: 'INVALID_WEBSOCKET',
  llm: 'INVALID_LLM',
  mcp: 'INVALID_MCP',
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
    throw new MockpointError('INVALID_ROUTE', `${at} must be an object { id?, match?, validate?, answer }`, {
      details: { index },
    });
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
