/**
 * The endpoint record and request schemas. They are the single source for both
 * request validation and the generated OpenAPI document.
 *
 * @module
 */
import { z } from 'zod';
import { JsonText, scanJson } from '../codec/json-text.js';
import { type ErrorCode, MockpointError } from '../registry/errors.js';
import { DEFAULT_MAX_DELAY_MS, NAME_RULE } from '../registry/rules.js';
import { FAULTS, MAX_ANSWER_TIMES, MAX_QUEUED_ANSWERS, type QueuedAnswer } from './answer-json.js';
import { streamFromJson } from './answer-stream.js';
import { createCollectionSchemas } from './collections-schema.js';
import { createEndpointSchemas } from './endpoint-schema.js';
import { createFilterSchemas, stateSchemas } from './filter-schema.js';
import { createJournalSchemas } from './journal-schema.js';
import { createQueueSchemas } from './queue-schema.js';
import { checkAnswer, checkMatchPath } from './route.js';
import { createRouteSchemas } from './route-schema.js';
import { createResetQuery, createServiceSchemas } from './service-schema.js';
import { createSocketSchemas } from './sockets-schema.js';

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

export { isValidName } from '../registry/rules.js';

/** Options that shape the schemas. */
export interface SchemaOptions {
  /** Upper bound for `delay` in milliseconds. @default 60000 */
  maxDelayMs?: number;
}

/** Builds the request and record schemas for the given limits. */
export function createSchemas(options: SchemaOptions = {}) {
  const maxDelayMs = options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;
  const endpoint = createEndpointSchemas(maxDelayMs);
  const { name, data, statusCode, delay } = endpoint;
  const { errorBody, health } = createServiceSchemas();
  const fault = z
    .enum(FAULTS as ['reset', 'close', 'hang'])
    .describe(
      'A network failure instead of an answer: reset (TCP reset, no answer), close (headers, then the connection closes partway through the body), hang (no answer until the client gives up or the queue is cleared).',
    );
  const { requestFilter } = createFilterSchemas();
  const journal = createJournalSchemas(fault);
  const routeSchemas = createRouteSchemas({ name, data, statusCode, delay, fault, requestFilter });
  const queue = createQueueSchemas({
    data,
    statusCode,
    delay,
    fault,
    requestFilter,
    routeAnswer: routeSchemas.routeAnswer,
  });
  const collections = createCollectionSchemas();
  const sockets = createSocketSchemas(routeSchemas);

  return {
    ...routeSchemas,
    socketSend: sockets.socketSend,
    socketCloseRequest: sockets.socketCloseRequest,
    socketsPage: sockets.socketsPage,
    socketCount: sockets.socketCount,
    name,
    collectionItems: collections.collectionItems,
    collectionName: collections.collectionName,
    collections: collections.collections,
    states: stateSchemas().states,
    resetQuery: createResetQuery(),
    requestFilter,
    queueRequest: queue.queueRequest,
    queuedAnswer: queue.queuedAnswer,
    queuePage: queue.queuePage,
    journalQuery: journal.journalQuery,
    journalEntry: journal.journalEntry,
    journalPage: journal.journalPage,
    streamQuery: journal.streamQuery,
    liveRequest: journal.liveRequest,
    record: endpoint.record,
    addRequest: endpoint.addRequest,
    replaceRequest: endpoint.replaceRequest,
    addResponse: endpoint.addResponse,
    listQuery: endpoint.listQuery,
    listResponse: endpoint.listResponse,
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

/** The names people give an endpoint's fields elsewhere (other mock tools, HTTP itself), and ours. */
const FIELD_SYNONYMS: Readonly<Record<string, string>> = {
  body: 'data',
  response: 'data',
  json: 'data',
  status: 'statusCode',
  code: 'statusCode',
  status_code: 'statusCode',
  statuscode: 'statusCode',
  latency: 'delay',
};

/** The most unknown fields a message names. */
const MAX_NAMED_FIELDS = 5;

/**
 * `; unknown field(s): body (write data), status (write statusCode)` for the members of `body` that
 * `schema` (an object schema) does not have, each with ours when it is a known synonym; '' when none.
 */
function unknownNamed(schema: z.ZodType, body: object): string {
  if (!(schema instanceof z.ZodObject)) return '';
  const known = new Set(Object.keys(schema.shape));
  const unknown = Object.keys(body).filter((key) => !known.has(key));
  if (unknown.length === 0) return '';
  const named = unknown.slice(0, MAX_NAMED_FIELDS).map((key) => {
    const ours = FIELD_SYNONYMS[key.toLowerCase()];
    const shown = JSON.stringify(key.length > 40 ? `${key.slice(0, 40)}…` : key);
    return ours !== undefined && known.has(ours) ? `${shown} (write ${ours})` : shown;
  });
  const more = unknown.length > MAX_NAMED_FIELDS ? ` and ${unknown.length - MAX_NAMED_FIELDS} more` : '';
  return `; unknown field(s): ${named.join(', ')}${more} (an endpoint has ${[...known].join(', ')})`;
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
    throw new MockpointError(
      'MISSING_DATA',
      `data is required (any JSON value; null is allowed)${unknownNamed(schema, body)}`,
    );
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
  'match, grpc, statusCode, headers, data, body, bodyBase64, stream, delay, fault, template, setState and times';

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
