/**
 * The endpoint record and request schemas. They are the single source for both
 * request validation and the generated OpenAPI document.
 *
 * @module
 */
import { z } from 'zod';
import { FAULTS, MAX_ANSWER_TIMES, MAX_QUEUED_ANSWERS, type QueuedAnswer } from './answer-json.js';
import { streamFromJson } from './answer-stream.js';
import { type ErrorCode, MockpointError } from './errors.js';
import { createGraphqlSchemas } from './graphql-json.js';
import { JsonText, scanJson } from './json-text.js';
import { createMcpFilterSchema } from './mcp-json.js';
import { checkAnswer, checkMatchPath } from './route.js';
import { createRouteSchemas } from './route-schema.js';
import { routeValidationSchemas } from './route-validation.js';
import {
  DEFAULT_DELAY,
  DEFAULT_MAX_DELAY_MS,
  DEFAULT_STATUS_CODE,
  NAME_PATTERN,
  NAME_RULE,
  PREFIX_PATTERN,
  STATUS_CODE_RANGE,
} from './rules.js';
import { LIMIT_NAMES, type LimitName, SETTINGS } from './settings.js';
import { SIGNATURE_STATUSES, signatureSchemas } from './signature-settings.js';
import { createStateSchemas } from './state-json.js';
import { valueMatcherProblem } from './value-pattern.js';

const stateSchemas = createStateSchemas();
const graphqlSchemas = createGraphqlSchemas();
const mcpFilter = createMcpFilterSchema();

/**
 * A stored mock endpoint: exactly these four fields. On the wire `data` is the
 * JSON value itself; records made by the app and read from byte stores hold it
 * as that value's exact text ({@link JsonText}).
 */
export interface EndpointRecord {
  /** 1–64 characters of `A–Z a–z 0–9 _ -`. */
  name: string;
  /**
   * Any JSON value, answered as the body of `/endpoint/{name}`: a {@link JsonText}
   * (served exactly as its text) or a plain JavaScript value (served as
   * `JSON.stringify` gives it, e.g. from a record built in code).
   */
  data: unknown;
  /** HTTP status the endpoint answers with, 200–599. */
  statusCode: number;
  /** Milliseconds to wait before answering. */
  delay: number;
}

export { isValidName } from './rules.js';

/** Options that shape the schemas. */
export interface SchemaOptions {
  /** Upper bound for `delay` in milliseconds. @default 60000 */
  maxDelayMs?: number;
}

/** Builds the request and record schemas for the given limits. */
export function createSchemas(options: SchemaOptions = {}) {
  const maxDelayMs = options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;
  const name = z.string().regex(NAME_PATTERN, NAME_RULE).describe('Endpoint name, the last segment of its URL.');
  // `data` accepts every JSON value; presence is checked separately because a
  // missing key and an explicit `null` must be told apart.
  const data = z.unknown().describe('Any JSON value, answered as the response body.');
  const statusCode = z
    .number()
    .int('statusCode must be an integer')
    .min(STATUS_CODE_RANGE.min, 'statusCode must be an integer from 200 to 599')
    .max(STATUS_CODE_RANGE.max, 'statusCode must be an integer from 200 to 599')
    .describe('HTTP status the endpoint answers with.');
  const delay = z
    .number()
    .int('delay must be a whole number of milliseconds')
    .min(0, `delay must be from 0 to ${maxDelayMs} milliseconds`)
    .max(maxDelayMs, `delay must be from 0 to ${maxDelayMs} milliseconds`)
    .describe('Milliseconds to wait before answering.');

  const record = z
    .object({ name, data, statusCode, delay })
    .meta({ title: 'EndpointRecord', description: 'A stored mock endpoint.' });
  const definition = z.strictObject({
    data,
    statusCode: statusCode.default(DEFAULT_STATUS_CODE),
    delay: delay.default(DEFAULT_DELAY),
  });
  const addRequest = z
    .strictObject({
      name,
      data,
      statusCode: statusCode.default(DEFAULT_STATUS_CODE),
      delay: delay.default(DEFAULT_DELAY),
    })
    .meta({ title: 'AddEndpointRequest' });
  const replaceRequest = definition.meta({ title: 'EndpointDefinition' });
  const addResponse = z
    .object({ success: z.literal(true), name, data, statusCode, delay })
    .meta({ title: 'AddEndpointResponse' });
  const listQuery = z.object({
    limit: z.coerce.number().int().min(1).max(1000).default(100).describe('Page size, 1–1000.'),
    after: z.string().optional().describe('Return names after this one (the `next` of the previous page).'),
    prefix: z
      .string()
      .regex(PREFIX_PATTERN)
      .optional()
      .describe('Only names starting with this (case-sensitive); `total` counts them too.'),
    contains: z
      .string()
      .max(200)
      .optional()
      .describe(
        'Only endpoints whose name or stored data (its JSON text) contains this, ignoring case; `total` counts them. Reads every record.',
      ),
    summary: z
      .enum(['true', 'false'])
      .default('false')
      .describe('With `true`, records come without `data` (name, statusCode and delay only).'),
    requests: z
      .enum(['true', 'false'])
      .default('false')
      .describe(
        'With `true`, each listed name has `requests`: how many requests its journal holds (at most `MOCKPOINT_JOURNAL_SIZE`).',
      ),
  });
  const listedRequests = z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('With `requests=true`: how many requests the journal holds for the name (the newest, up to its size).');
  const listResponse = z
    .object({
      endpoints: z
        .array(
          z.union([
            record.partial({ data: true }).extend({
              routes: z.number().int().min(1).optional().describe('How many routes it has, when it has any.'),
              requests: listedRequests,
            }),
            z
              .object({
                name,
                routes: z.number().int().min(1).describe('How many routes it has.'),
                requests: listedRequests,
              })
              .describe('A name with routes and no record.'),
            z
              .object({
                name,
                graphql: z.literal(true).describe('It holds a GraphQL schema (docs/graphql.md).'),
                requests: listedRequests,
              })
              .describe('A name with a GraphQL schema and neither a record nor routes.'),
          ]),
        )
        .describe(
          'Records (with `routes`, their route count, when they have routes) and names with routes and no record (`{ name, routes }`), in name order.',
        ),
      next: z
        .string()
        .nullable()
        .describe('Pass as `after` for the next page; null on the last. A page also ends early past 8 MiB.'),
      total: z
        .number()
        .int()
        .describe('How many names there are, with a record or routes (with `prefix`: how many start with it).'),
    })
    .meta({ title: 'EndpointList' });
  const errorBody = z
    .object({
      success: z.literal(false),
      error: z.object({
        code: z.string(),
        message: z.string(),
        details: z
          .record(z.string(), z.unknown())
          .optional()
          .describe(
            'Specifics: `index` of the route at fault; for NO_ROUTE_MATCHED, `nearMisses` (up to three routes, each with the first thing that did not match).',
          ),
      }),
    })
    .meta({ title: 'Error' });
  const health = z
    .object({
      status: z.enum(['ok', 'degraded', 'unavailable']),
      reason: z.string().optional().describe('Why the status is not `ok`.'),
      version: z.string(),
      store: z.string(),
      longPolls: z
        .number()
        .int()
        .describe('Journal long-polls this process holds now (per replica; e.g. to see that a wait has begun).'),
      limits: z
        .object(
          Object.fromEntries(
            LIMIT_NAMES.map((name) => [
              name,
              z.number().int().describe(`${SETTINGS[name].help} (${SETTINGS[name].env})`),
            ]),
          ) as Record<LimitName, z.ZodNumber>,
        )
        .describe("This server's limits (see docs/settings.md), e.g. for a client to check its input against."),
    })
    .meta({ title: 'Health' });

  const fault = z
    .enum(FAULTS as ['reset', 'close', 'hang'])
    .describe(
      'A network failure instead of an answer: reset (TCP reset, no answer), close (headers, then the connection closes partway through the body), hang (no answer until the client gives up or the queue is cleared).',
    );
  const journalQuery = z.object({
    wait: z.coerce
      .number()
      .int()
      .min(0)
      .default(0)
      .describe(
        'Long-poll: hold the answer up to this many milliseconds (capped at 60000) until `count` requests exist.',
      ),
    count: z.coerce.number().int().min(1).default(1).describe('How many requests to wait for.'),
    after: z.coerce
      .number()
      .int()
      .min(0)
      .default(0)
      .describe('Only requests whose id is greater (pass the last id seen to wait for new ones).'),
    match: z
      .string()
      .optional()
      .describe(
        'A RequestFilter as JSON, e.g. {"method":"POST","body":{"type":"order.paid"}}: only matching requests are listed and counted.',
      ),
  });
  const valueMatcher = z
    .union([
      z.strictObject({
        matches: z.string().describe('A regular expression the whole value must match (RE2, Java syntax).'),
      }),
      z.strictObject({ doesNotMatch: z.string().describe('A regular expression the whole value must not match.') }),
    ])
    .superRefine((matcher, context) => {
      const problem = valueMatcherProblem(matcher);
      if (problem !== undefined) {
        // INVALID_MATCH wherever in the filter the pattern is (a header's, a query parameter's).
        context.addIssue({ code: 'custom', message: `pattern refused: ${problem}`, params: { regex: true } });
      }
    })
    .meta({
      title: 'ValueMatcher',
      description:
        'A regular expression over a whole value, run in linear time (RE2): lookaround, backreferences, atomic groups and possessive quantifiers are refused.',
    });
  const requestFilter = z
    .strictObject({
      method: z.string().optional().describe('HTTP method, case-insensitive.'),
      path: z
        .union([z.string(), valueMatcher])
        .optional()
        .describe(
          'A pattern over the subpath (the path below /endpoint/{name}): literal segments, :param segments and a trailing *, e.g. /repos/:owner/:repo/issues; or { matches } / { doesNotMatch }, a regular expression over the whole subpath (its named groups, (?<id>…), are the params).',
        ),
      url: valueMatcher
        .optional()
        .describe(
          'A regular expression ({ matches } / { doesNotMatch }) over the whole subpath and its query string as sent (/users?page=2).',
        ),
      query: z
        .record(z.string(), z.union([z.string(), z.array(z.string()), valueMatcher]))
        .optional()
        .describe(
          'Query parameters with exactly these values (a repeated key is an array), or { matches } / { doesNotMatch } over the first value.',
        ),
      headers: z
        .record(z.string(), z.union([z.string(), valueMatcher]))
        .optional()
        .describe(
          'Headers with exactly these values, or { matches } / { doesNotMatch } over the whole value; names are case-insensitive.',
        ),
      body: z
        .unknown()
        .optional()
        .describe('A JSON subset of the body (arrays match element by element); a string also matches the raw text.'),
      bodyPatterns: z
        .array(valueMatcher)
        .min(1)
        .max(16)
        .optional()
        .describe('Regular expressions ({ matches } / { doesNotMatch }) over the whole body text; all must hold.'),
      signature: z
        .enum(SIGNATURE_STATUSES)
        .optional()
        .describe(
          "The outcome of the name's signature check (valid, invalid, missing, stale, replayed); requests to a name without a check never match.",
        ),
      state: stateSchemas.input
        .optional()
        .describe(
          'The endpoint\'s state: a value of the "default" scenario, or scenario → value (never moved: "started"). Routes match the state as the request finds it; journal reads the state an entry saw before its answer.',
        ),
      websocket: z
        .strictObject({
          direction: z.enum(['in', 'out']).optional().describe('in: from the client; out: from mockpoint.'),
          connection: z.string().optional().describe("The connection's id."),
        })
        .optional()
        .describe('WebSocket messages only (journal entries MESSAGE and CLOSE): their direction and connection.'),
      graphql: graphqlSchemas.filter.optional(),
      mcp: mcpFilter.optional(),
    })
    .meta({ title: 'RequestFilter', description: 'Which recorded requests count; all given fields must match.' });
  const journalEntry = z
    .object({
      id: z.number().int(),
      method: z.string(),
      path: z.string(),
      subpath: z.string().describe('The path below /endpoint/{name}; / for the bare URL.'),
      params: z.record(z.string(), z.string()).describe('Parameters of the route pattern that matched.'),
      answeredBy: z
        .union([
          z.object({ queue: z.literal(true) }),
          z.object({ route: z.string() }),
          z.enum(['record', 'graphql', 'none']),
        ])
        .describe(
          "Who answered: a queued answer, the route with this id, the record, the endpoint's GraphQL schema, or nobody (an error).",
        ),
      query: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
      headers: z.record(z.string(), z.string()),
      body: z.string(),
      bodyEncoding: z
        .literal('base64')
        .optional()
        .describe('Present when the body is not UTF-8 text: `body` is then its bytes in base64.'),
      bodyTruncated: z.boolean(),
      json: z.unknown().optional(),
      receivedAt: z.string(),
      statusCode: z.number().int().describe('The status answered; 0 when a queued reset or hang sent none.'),
      queued: z.literal(true).optional().describe('Present when a queued one-shot answer answered.'),
      fault: fault.optional().describe('The network fault the queued answer gave, if any.'),
      signature: signatureSchemas.mark.optional(),
      upstream: z
        .object({
          url: z.string().describe('Where the request was forwarded.'),
          statusCode: z.number().int().optional().describe("The upstream's status."),
          headers: z.record(z.string(), z.union([z.string(), z.array(z.string())])).optional(),
          error: z.string().optional().describe('The error code when the upstream gave no answer.'),
        })
        .optional()
        .describe('Present when a proxy route answered: the upstream and its answer.'),
      validation: routeValidationSchemas.mark.optional(),
      state: stateSchemas.mark
        .optional()
        .describe(
          'Present when the state was read for the request (its routes or queued answers use it): the scenarios the answering route looked at or moved, before and after; every scenario, unmoved, when it looked at none.',
        ),
      websocket: z
        .object({
          direction: z.enum(['in', 'out']),
          connection: z.string(),
          code: z.number().int().optional().describe('CLOSE only: the close code.'),
        })
        .optional()
        .describe(
          'Present on a WebSocket message (method MESSAGE: body is its exact text, or its bytes in base64 for a binary frame) or close (method CLOSE: body is the reason).',
        ),
      graphql: graphqlSchemas.mark.optional(),
      host: z
        .string()
        .optional()
        .describe(
          'Present when the request came through a host mapping, an absolute-form target or a CONNECT tunnel: the host it was sent to.',
        ),
      response: z
        .object({
          headers: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
          body: z.string().describe('Its text when UTF-8, else its bytes in base64 (bodyEncoding); at most 64 KiB.'),
          bodyEncoding: z.literal('base64').optional(),
          bodySize: z.number().int().describe("The whole body's size in bytes."),
          bodyTruncated: z.boolean(),
        })
        .optional()
        .describe('What was sent back (absent when nothing was: a reset, a hang, a WebSocket message).'),
      timings: z
        .object({
          wait: z.number().describe('Milliseconds until the first byte of the answer was sent (a delay is in it).'),
          total: z.number().optional().describe('Milliseconds until its last byte was sent.'),
        })
        .optional()
        .describe('Measured from when the request had arrived (its body read).'),
    })
    .meta({ title: 'RecordedRequest' });
  const streamQuery = z.object({
    after: z.coerce
      .number()
      .int()
      .min(0)
      .optional()
      .describe(
        'Start after this request id (a Last-Event-ID header wins over it); 0 replays everything kept. Without either, only requests from now on.',
      ),
    match: journalQuery.shape.match.describe(
      'A RequestFilter as JSON, e.g. {"method":"POST"}: only matching requests are sent.',
    ),
    journal: z
      .string()
      .optional()
      .describe(
        'The journalId the cursor was read from: when the journal has started anew since, the stream starts from its beginning (and says so with reset: true).',
      ),
  });
  const liveRequest = journalEntry.extend({ name: z.string().describe('The name the request was sent to.') }).meta({
    title: 'LiveRequest',
    description:
      'The data of a `request` event: a journal entry and its name. The event id is the entry id. Other events: `journal` ({ journalId, reset, after }: first on every stream, and again with reset true when the journal starts anew, ids starting again at 1; `after` is the id after which the stream sends) and `end` ({ reason: slow-reader | shutdown, message }: the last event before the server closes the stream). Comment lines are heartbeats.',
  });
  const journalPage = z
    .object({
      requests: z.array(journalEntry),
      complete: z.boolean(),
      journalId: z
        .string()
        .describe('Names the journal; a new value means it started anew and request ids start again at 1.'),
    })
    .meta({ title: 'RecordedRequests' });

  const times = z
    .number()
    .int()
    .min(1)
    .max(MAX_ANSWER_TIMES)
    .describe(`How many requests this answer serves, 1-${MAX_ANSWER_TIMES}.`);
  const routeSchemas = createRouteSchemas({ name, data, statusCode, delay, fault, requestFilter });
  const { headers, body, bodyBase64, stream, template, setState } = routeSchemas.routeAnswer.shape;
  /** The one answer shape's fields, as a queued answer has them (absent ones fall back). */
  const queuedFields = {
    match: requestFilter
      .optional()
      .describe(
        'Which requests take this answer; a request that does not match leaves it queued. Default: every request.',
      ),
    statusCode: statusCode.optional(),
    headers,
    data: data.optional(),
    body,
    bodyBase64,
    stream,
    delay: delay.optional(),
    fault: fault.optional(),
    template,
    setState,
  };
  const queuedAnswerInput = z.strictObject({ ...queuedFields, times: times.default(1) }).meta({
    title: 'QueuedAnswerInput',
    description:
      'One queued answer (the one answer shape, plus match and times); absent fields fall back to what would answer without the queue: the first matching route, else the record at the bare URL. At most one of data, body, bodyBase64, stream.',
  });
  const queueRequest = z
    .strictObject({ answers: z.array(queuedAnswerInput).min(1).max(MAX_QUEUED_ANSWERS) })
    .meta({ title: 'QueueRequest' });
  const queuedAnswer = z
    .object({ ...queuedFields, times: times.describe('How many more requests this answer serves.') })
    .meta({ title: 'QueuedAnswer' });
  const queuePage = z
    .object({ answers: z.array(queuedAnswer).describe('What remains, first answer first.') })
    .meta({ title: 'QueuedAnswers' });

  const collectionItems = z
    .array(z.record(z.string(), z.unknown()).describe('An item: a JSON object, kept as its exact text.'))
    .meta({ title: 'CollectionItems', description: 'The items of one collection, in order.' });
  const collectionName = z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'a collection name is 1-64 of A-Z a-z 0-9 _ -')
    .describe('A collection name: 1-64 of A-Z a-z 0-9 _ -.');
  const collections = z.record(collectionName, collectionItems).meta({
    title: 'Collections',
    description: "An endpoint's collections by name (1-64 of A-Z a-z 0-9 _ -), in name order.",
  });

  const { socketFrame, socketClose } = routeSchemas;
  const socketFrameSend = z
    .strictObject({
      connection: z.string().optional().describe("One connection's id; absent: every open connection of the name."),
      ...socketFrame.omit({ delay: true }).shape,
    })
    .meta({ title: 'SocketFrameSend', description: 'One message to send now: exactly one of text, json and bytes.' });
  const graphqlPush = z
    .strictObject({
      connection: z.string().optional().describe("One connection's id; absent: every open connection of the name."),
      next: z
        .record(z.string(), z.unknown())
        .optional()
        .describe(
          'A GraphQL result { data?, errors? }: the payload of a graphql-ws next message, kept as its exact text.',
        ),
      complete: z
        .literal(true)
        .optional()
        .describe('End the subscriptions with a complete message (after next, if given).'),
      operationName: z.string().optional().describe('Only the subscriptions of this operation.'),
      subscription: z.string().optional().describe("Only the subscription of this id (the subscribe message's id)."),
    })
    .meta({
      title: 'GraphqlPush',
      description:
        'An event for the active graphql-ws subscriptions (docs/graphql.md): next, complete, or both; count is the subscriptions reached.',
    });
  const socketSend = z.union([socketFrameSend, graphqlPush]).meta({ title: 'SocketSend' });
  const socketCloseRequest = z
    .strictObject({
      connection: z.string().optional().describe("One connection's id; absent: every open connection of the name."),
      ...socketClose.omit({ delay: true }).shape,
    })
    .meta({ title: 'SocketCloseRequest', description: 'Close now: a close frame (code default 1000), or drop.' });
  const socketInfo = z
    .object({
      id: z.string().describe("The connection's id, as its journal entries name it."),
      route: z
        .string()
        .describe("The route whose script plays on it; 'graphql' for a graphql-ws connection answered by the schema."),
      subpath: z.string().describe('The path below /endpoint/{name} it was opened at.'),
      protocol: z.string().nullable().describe('The subprotocol chosen, or null.'),
      openedAt: z.string().describe('ISO 8601 time it opened.'),
      received: z.number().int().describe('Messages received from the client.'),
      sent: z.number().int().describe('Messages sent to it.'),
    })
    .meta({ title: 'SocketInfo' });
  const socketsPage = z
    .object({ sockets: z.array(socketInfo).describe('Open on this server, oldest first.') })
    .meta({ title: 'Sockets' });
  const socketCount = z
    .object({ count: z.number().int().describe('How many connections it reached.') })
    .meta({ title: 'SocketCount' });

  const resetQuery = z.object({
    journal: z
      .enum(['true', 'false'])
      .optional()
      .describe('true: also forget the requests recorded for this name (default false).'),
  });

  return {
    ...routeSchemas,
    socketSend,
    socketCloseRequest,
    socketsPage,
    socketCount,
    name,
    collectionItems,
    collectionName,
    collections,
    states: stateSchemas.states,
    resetQuery,
    requestFilter,
    queueRequest,
    queuedAnswer,
    queuePage,
    journalQuery,
    journalEntry,
    journalPage,
    streamQuery,
    liveRequest,
    record,
    addRequest,
    replaceRequest,
    addResponse,
    listQuery,
    listResponse,
    errorBody,
    health,
  };
}

export type Schemas = ReturnType<typeof createSchemas>;

/** The rule stated when a field is invalid. */
const FIELD_RULES: Record<string, (maxDelayMs: number) => string> = {
  name: () => NAME_RULE,
  statusCode: () => 'statusCode must be an integer from 200 to 599',
  delay: (max) => `delay must be a whole number of milliseconds from 0 to ${max}`,
  fault: () => `fault must be one of ${FAULTS.join(', ')}`,
  times: () => `times must be an integer from 1 to ${MAX_ANSWER_TIMES}`,
};

/** Maps a field to the error code reported when it is invalid. */
const FIELD_CODES: Record<string, ErrorCode> = {
  name: 'INVALID_NAME',
  statusCode: 'INVALID_STATUS_CODE',
  delay: 'INVALID_DELAY',
  fault: 'INVALID_FAULT',
  times: 'INVALID_TIMES',
  match: 'INVALID_MATCH',
  headers: 'INVALID_HEADER',
  stream: 'INVALID_STREAM',
  setState: 'INVALID_STATE',
};

/**
 * Validates a body scanned into its top-level members (see `readJsonObjectBody`):
 * `data` stays text ({@link JsonText}), the other fields are parsed.
 */
export function parseMembers<S extends z.ZodType>(
  schema: S,
  members: ReadonlyMap<string, string>,
  maxDelayMs: number = DEFAULT_MAX_DELAY_MS,
): z.output<S> {
  return parseBody(schema, withDataText(members), maxDelayMs);
}

/** An object from scanned members: `data` (and each stream event's) as {@link JsonText}, the rest parsed. */
function withDataText(members: ReadonlyMap<string, string>): Record<string, unknown> {
  // fromEntries makes own properties, so even a `__proto__` key is just a key.
  return Object.fromEntries(
    [...members].map(([key, text]) => [
      key,
      key === 'data' ? new JsonText(text) : key === 'stream' ? streamFromJson(text) : JSON.parse(text),
    ]),
  );
}

/**
 * The body of `POST /api/endpoints/{name}/queue` from its scanned top-level
 * members (see `readJsonObjectBody`), each answer's `data` kept as its exact
 * text ({@link JsonText}); validate it with {@link parseQueueBody}.
 */
export function queueBodyFromMembers(members: ReadonlyMap<string, string>): Record<string, unknown> {
  // fromEntries makes own properties, so a `__proto__` key is reported as unknown, not swallowed.
  return Object.fromEntries(
    [...members].map(([key, text]) => {
      if (key !== 'answers' || !text.startsWith('[')) return [key, JSON.parse(text)];
      // Already checked by the body scan: this scan only splits the array and each answer.
      const answers = (scanJson(text).elements ?? []).map((element) =>
        element.startsWith('{') ? withDataText(scanJson(element).members ?? new Map()) : JSON.parse(element),
      );
      return [key, answers];
    }),
  );
}

/**
 * Validates an already-parsed JSON body against `schema`, returning the parsed
 * value or throwing a {@link MockpointError} with the most specific code.
 */
export function parseBody<S extends z.ZodType>(
  schema: S,
  body: unknown,
  maxDelayMs: number = DEFAULT_MAX_DELAY_MS,
): z.output<S> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new MockpointError('INVALID_BODY', 'request body must be a JSON object');
  }
  if (!Object.hasOwn(body, 'data')) {
    // Checked first: `data` is required, and `null` is a value while a missing key is not.
    throw new MockpointError('MISSING_DATA', 'data is required (any JSON value; null is allowed)');
  }
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (!issue) throw new MockpointError('INVALID_BODY', 'request body is invalid');
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.join(', ');
    throw new MockpointError(
      'UNKNOWN_FIELD',
      `unknown field(s): ${keys}; an endpoint has only name, data, statusCode and delay`,
    );
  }
  const field = String(issue.path[0] ?? '');
  const code = FIELD_CODES[field];
  if (code === undefined) throw new MockpointError('INVALID_BODY', issue.message);
  // One fixed, complete rule per field, whatever zod's issue says.
  throw new MockpointError(code, FIELD_RULES[field]?.(maxDelayMs) ?? issue.message);
}

/**
 * Validates the body of `POST /api/endpoints/{name}/queue`, returning its answers
 * (with `times` defaulted) or throwing a {@link MockpointError} whose message names
 * the answer at fault, e.g. `answers[1]: statusCode must be ...`.
 */
export function parseQueueBody(schemas: Schemas, body: unknown, limits: QueueLimits = {}): QueuedAnswer[] {
  const maxDelayMs = limits.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new MockpointError('INVALID_BODY', 'request body must be a JSON object: { "answers": [ ... ] }');
  }
  const unknown = Object.keys(body).filter((key) => key !== 'answers');
  if (unknown.length > 0) {
    throw new MockpointError(
      'UNKNOWN_FIELD',
      `unknown field(s): ${unknown.join(', ')}; a queue request has only answers`,
    );
  }
  const { answers } = body as { answers?: unknown };
  if (!Array.isArray(answers) || answers.length === 0) {
    throw new MockpointError('INVALID_BODY', 'answers must be a non-empty array of answers');
  }
  if (answers.length > MAX_QUEUED_ANSWERS) {
    throw new MockpointError(
      'QUEUE_FULL',
      `at most ${MAX_QUEUED_ANSWERS} answers may be queued per name, received ${answers.length} (use times to repeat one)`,
    );
  }
  const itemSchema = schemas.queueRequest.shape.answers.element;
  return answers.map((answer: unknown, index) => {
    const at = `answers[${index}]`;
    if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) {
      throw new MockpointError('INVALID_BODY', `${at} must be a JSON object`);
    }
    const result = itemSchema.safeParse(answer);
    if (!result.success) {
      const issue = result.error.issues[0];
      if (issue?.code === 'unrecognized_keys') {
        const where = issue.path.length > 0 ? `.${issue.path.map(String).join('.')}` : '';
        throw new MockpointError(
          'UNKNOWN_FIELD',
          `${at}${where}: unknown field(s): ${issue.keys.join(', ')}; an answer has only ${QUEUED_FIELDS}`,
        );
      }
      const field = String(issue?.path[0] ?? '');
      // Inside a stream the deepest known field names the code (an event's delay is
      // INVALID_DELAY); a match's state is INVALID_STATE, as setState.
      const deepest =
        field === 'stream' && issue?.path.includes('delay')
          ? 'delay'
          : field === 'match' && issue?.path[1] === 'state'
            ? 'setState'
            : issue?.code === 'custom' && issue.params?.regex === true
              ? 'match'
              : field;
      const rule =
        (field === 'stream' ? undefined : FIELD_RULES[field]?.(maxDelayMs)) ??
        `${issue?.path.map(String).join('.')}: ${issue?.message ?? 'is invalid'}`;
      throw new MockpointError(FIELD_CODES[deepest] ?? 'INVALID_BODY', `${at}: ${rule}`);
    }
    // The item itself (zod drops keys such as `__proto__` from its copy), with `times` defaulted.
    const parsed = { ...(answer as QueuedAnswer), times: result.data.times } as QueuedAnswer;
    if (
      (parsed.fault === 'reset' || parsed.fault === 'hang') &&
      (Object.hasOwn(parsed, 'data') ||
        parsed.body !== undefined ||
        parsed.bodyBase64 !== undefined ||
        parsed.stream !== undefined ||
        parsed.statusCode !== undefined)
    ) {
      throw new MockpointError(
        'INVALID_BODY',
        `${at}: fault ${parsed.fault} sends no answer, so statusCode and a body do not apply (only delay and times)`,
      );
    }
    const place = { list: 'answers', index } as const;
    checkMatchPath(parsed.match?.path, place);
    if (limits.maxBodyBytes !== undefined) checkAnswer(parsed, place, { ...limits, maxBodyBytes: limits.maxBodyBytes });
    return parsed;
  });
}

/** The fields of a queued answer, for messages. */
const QUEUED_FIELDS =
  'match, statusCode, headers, data, body, bodyBase64, stream, delay, fault, template, setState and times';

/** Limits {@link parseQueueBody} checks against. */
export interface QueueLimits {
  /** @default DEFAULT_MAX_DELAY_MS */
  maxDelayMs?: number;
  /** Largest body of one answer (a stream's events in all). @default unchecked */
  maxBodyBytes?: number;
  /** Most events of a streamed answer. @default 10000 */
  maxStreamEvents?: number;
  /** Largest sum of a streamed answer's delays. @default 600000 */
  maxStreamMs?: number;
}

/** One page of records in name order. */
export interface ListPage {
  endpoints: EndpointRecord[];
  /** The cursor for the next page, or `null` when this is the last one. */
  next: string | null;
}
