/**
 * A Pact file (specification V2, V3 or V4: what consumer tests write) as a
 * mock file: one endpoint whose routes answer each HTTP interaction as the
 * contract says the provider does. A route matches the interaction's method,
 * path and query exactly, and its body when it has one (a JSON body as a JSON
 * subset, any other text exactly); it answers the status, headers and body
 * (JSON as exact `data`, text as `body`, bytes as `bodyBase64`). Request
 * headers are not matched. Matching rules match only the example they were
 * written with; provider states are not told apart: a second interaction with
 * the same request is left out, named. Message interactions are left out, and
 * whatever else cannot be carried over, each with why (docs/pact.md).
 *
 * @module
 */

import { literalPattern } from '../answer/proxy/recording.js';
import { BODILESS_STATUS } from '../answer/read-response.js';
import type { RequestFilter } from '../api/journal-json.js';
import { type AnswerHeaders, FORBIDDEN_HEADERS, type Route, type RouteAnswer } from '../api/route.js';
import { isBase64 } from '../codec/base64.js';
import { headerNameProblem, headerValueProblem } from '../codec/http-header.js';
import { JsonText, scanJsonInTurns, stringifyExact } from '../codec/json-text.js';
import { utf8Length } from '../codec/utf8-length.js';
import { parseQuery } from '../journal/journal-entry.js';
import { MockpointError } from '../registry/errors.js';
import { DEFAULT_MAX_BODY_BYTES } from '../registry/limits.js';
import { TurnBudget } from '../turns/turn-budget.js';
import { IdSet, slugOf } from './import-ids.js';
import type { LeftOut } from './left-out.js';

/** Options for {@link pactMockFile}. */
export interface PactImportOptions {
  /** The endpoint's name (default: the Pact file's provider, when it is a valid name). */
  name?: string;
  /** The file's name, for messages. @default 'pact.json' */
  file?: string;
  /** The largest body an interaction's answer may carry; one over it is left out. @default 5 MiB */
  maxBodyBytes?: number;
}

/** What {@link pactMockFile} made. */
export interface PactImport {
  /** The mock file, JSON. */
  text: string;
  /** The endpoint's name. */
  name: string;
  /** The Pact file's consumer and provider, as it names them. */
  consumer: string;
  provider: string;
  /** The Pact specification version the file says it is (`unknown` when it says none). */
  specification: string;
  /** Interactions read, and routes written. */
  interactions: number;
  routes: number;
  leftOut: LeftOut[];
}

/** A Pact body: V2/V3 any JSON; V4 `{ content, contentType, encoded }`. */
interface PactBody {
  content?: unknown;
  contentType?: unknown;
  encoded?: unknown;
}

interface PactInteraction {
  type?: unknown;
  description?: unknown;
  request?: { method?: unknown; path?: unknown; query?: unknown; headers?: unknown; body?: unknown };
  response?: { status?: unknown; headers?: unknown; body?: unknown };
  matchingRules?: unknown;
  requestMatchingRules?: unknown;
}

/** Routes one import writes at most (the daemon's default route limit). */
const MAX_ROUTES = 10_000;

function invalid(file: string, message: string): MockpointError {
  return new MockpointError('INVALID_PACT', `${file}: ${message}`);
}

/** A JSON string token or a JSON number token, outside strings. */
const TOKEN = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/**
 * `JSON.parse`, except that a number whose text a JavaScript number would not
 * give back (`12345678901234567890`, `1.50`, `-0`) is a {@link JsonText} of
 * that text: bodies keep their exact JSON, as the consumer test wrote it.
 */
function parseExact(text: string): unknown {
  const mark = `\\u0000pact-number:${Math.random().toString(36).slice(2)}:`;
  const marked = text.replace(TOKEN, (token) =>
    token.startsWith('"') || JSON.stringify(Number(token)) === token ? token : `"${mark}${token}"`,
  );
  const prefix = JSON.parse(`"${mark}"`) as string;
  return JSON.parse(marked, (_key, value: unknown) =>
    typeof value === 'string' && value.startsWith(prefix) ? new JsonText(value.slice(prefix.length)) : value,
  );
}

/** True when `text` is plainly a Pact file (`{"consumer":…,"provider":…,"interactions":[…]}`). */
export function isPact(text: string): boolean {
  try {
    const parsed = JSON.parse(text) as { consumer?: unknown; provider?: unknown; interactions?: unknown };
    return (
      typeof parsed?.consumer === 'object' && typeof parsed.provider === 'object' && Array.isArray(parsed.interactions)
    );
  } catch {
    return false;
  }
}

function isJsonType(type: string | undefined): boolean {
  const bare = (type?.split(';')[0] ?? '').trim().toLowerCase();
  return bare === 'application/json' || bare.endsWith('+json');
}

/** Headers as lists of values: V4 lists, V2/V3 strings (one value each); `undefined` when not an object. */
function headerLists(headers: unknown): Map<string, string[]> {
  const lists = new Map<string, string[]>();
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) return lists;
  for (const [name, value] of Object.entries(headers)) {
    const values = Array.isArray(value) ? value.filter((one) => typeof one === 'string') : [value];
    if (values.every((one) => typeof one === 'string')) lists.set(name.toLowerCase(), values as string[]);
  }
  return lists;
}

/** The body's content and type, V4 (`{ content, contentType, encoded }`) or V2/V3 (the value itself). */
function bodyOf(
  body: unknown,
  v4: boolean,
  headerType: string | undefined,
): { kind: 'json' | 'text' | 'base64'; value: unknown; type: string | undefined } | string | undefined {
  if (body === undefined || body === null) return undefined;
  if (!v4) {
    const kind = typeof body === 'string' && !isJsonType(headerType) ? 'text' : 'json';
    return { kind, value: body, type: headerType };
  }
  const { content, contentType, encoded } = body as PactBody;
  if (content === undefined || content === null) return undefined;
  const type = typeof contentType === 'string' ? contentType : headerType;
  if (encoded === 'base64') {
    return typeof content === 'string' && isBase64(content)
      ? { kind: 'base64', value: content, type }
      : 'its base64 body is not base64';
  }
  if (encoded === 'json') {
    if (typeof content !== 'string') return 'its body is encoded "json" but holds no JSON text';
    try {
      return { kind: 'json', value: JSON.parse(content), type };
    } catch {
      return 'its body is encoded "json" but is not JSON';
    }
  }
  if (encoded !== false && encoded !== undefined) return `its body's encoding ${JSON.stringify(encoded)} is not base64`;
  return { kind: typeof content === 'string' && !isJsonType(type) ? 'text' : 'json', value: content, type };
}

/** The route's request filter, or why the interaction cannot be one. */
function matchOf(request: PactInteraction['request'], v4: boolean): RequestFilter | string {
  const method = typeof request?.method === 'string' ? request.method.toUpperCase() : '';
  if (!/^[A-Z]{1,16}$/.test(method)) return 'it has no HTTP method';
  const path = request?.path;
  if (typeof path !== 'string' || !path.startsWith('/')) return 'its path does not start with /';
  const match: RequestFilter = { method, path: literalPattern(path.split('?')[0] as string) };
  const query = request?.query;
  if (typeof query === 'string' && query !== '') match.query = parseQuery(new URLSearchParams(query));
  else if (typeof query === 'object' && query !== null && !Array.isArray(query)) {
    const pairs = new URLSearchParams();
    for (const [key, values] of Object.entries(query)) {
      for (const value of Array.isArray(values) ? values : [values]) {
        if (typeof value !== 'string') return `its query parameter ${JSON.stringify(key.slice(0, 64))} is not text`;
        pairs.append(key, value);
      }
    }
    if (pairs.size > 0) match.query = parseQuery(pairs);
  }
  const type = headerLists(request?.headers).get('content-type')?.[0];
  const body = bodyOf(request?.body, v4, type);
  if (typeof body === 'string') return body.replace('its body', 'its request body');
  if (body?.kind === 'base64') return 'its request body is bytes, which a route cannot match exactly';
  if (body !== undefined) match.body = body.value;
  return match;
}

/** The route's answer, or why the interaction's response cannot be one. */
function answerOf(response: PactInteraction['response'], v4: boolean, bound: number): RouteAnswer | string {
  const status = response?.status;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 200 || status > 599) {
    return `its status ${JSON.stringify(status ?? null)} is not an answer of 200-599`;
  }
  const answer: RouteAnswer = { statusCode: status };
  const headers: AnswerHeaders = {};
  for (const [name, values] of headerLists(response?.headers)) {
    if (FORBIDDEN_HEADERS.has(name) || values.length === 0) continue;
    const problem = headerNameProblem(name) ?? values.map(headerValueProblem).find(Boolean);
    if (problem !== undefined) return `its answer's header ${JSON.stringify(name.slice(0, 64))}: ${problem}`;
    headers[name] = values.length === 1 ? (values[0] as string) : values;
  }
  const body = BODILESS_STATUS.has(status) ? undefined : bodyOf(response?.body, v4, undefined);
  if (typeof body === 'string') return body;
  if (body !== undefined) {
    const size = utf8Length(body.kind === 'json' ? JSON.stringify(body.value) : (body.value as string));
    if (size > bound) return `its body is about ${size} bytes, over the ${bound}-byte body limit`;
    if (headers['content-type'] === undefined && body.type !== undefined) headers['content-type'] = body.type;
    if (body.kind === 'base64') answer.bodyBase64 = body.value as string;
    else if (body.kind === 'text') answer.body = body.value as string;
    else answer.data = body.value;
  }
  if (Object.keys(headers).length > 0) answer.headers = headers;
  return answer;
}

/** The specification version the file says it is: `metadata.pactSpecification.version` (or V2's older keys). */
function specificationOf(metadata: unknown): string {
  const meta = metadata as Record<string, { version?: unknown } | undefined> | undefined;
  const version =
    meta?.pactSpecification?.version ?? meta?.['pact-specification']?.version ?? meta?.pactSpecificationVersion;
  return typeof version === 'string' ? version : 'unknown';
}

/** A Pact file as read: its members, interactions unchecked. */
interface PactDocument {
  consumer?: { name?: unknown };
  provider?: { name?: unknown };
  interactions?: unknown;
  messages?: unknown;
  metadata?: unknown;
}

/** Interactions made into routes between two yields of {@link pactSteps}. */
const STEP_INTERACTIONS = 50;

/**
 * The mock file of a Pact file's text. Throws `INVALID_PACT` when it is not
 * JSON, has no `interactions` list, or makes more routes than a name holds.
 */
export function pactMockFile(text: string, options: PactImportOptions = {}): PactImport {
  const file = options.file ?? 'pact.json';
  let pact: PactDocument;
  try {
    pact = parseExact(text) as PactDocument;
  } catch (error) {
    throw invalid(file, `not JSON: ${(error as Error).message}`);
  }
  const steps = pactSteps(pact, options);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * {@link pactMockFile} a slice per event-loop turn: the file is split
 * at its interactions in turns, each read on its own, and the routes made a few
 * at a time, so a daemon importing 10,000 interactions (the MCP tool) still answers.
 */
export async function pactMockFileInTurns(text: string, options: PactImportOptions = {}): Promise<PactImport> {
  const budget = new TurnBudget();
  let pact: PactDocument | undefined;
  try {
    const members = (await scanJsonInTurns(text, budget)).members;
    if (members !== undefined) {
      const read: Record<string, unknown> = {};
      for (const [key, member] of members) {
        if (key === '__proto__') continue;
        const elements = key === 'interactions' ? (await scanJsonInTurns(member, budget, true)).elements : undefined;
        if (elements === undefined) read[key] = parseExact(member);
        else {
          const interactions: unknown[] = [];
          for (const element of elements) {
            await budget.pause();
            interactions.push(parseExact(element));
          }
          read[key] = interactions;
        }
      }
      pact = read;
    }
  } catch {
    pact = undefined;
  }
  // Not a JSON object: the whole parse says why, as pactMockFile does.
  if (pact === undefined) return pactMockFile(text, options);
  const steps = pactSteps(pact, options);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await budget.pause();
  }
}

/** What {@link pactMockFile} does with the file read, yielding where a caller may let the event loop run. */
function* pactSteps(pact: PactDocument, options: PactImportOptions): Generator<void, PactImport> {
  const file = options.file ?? 'pact.json';
  if (!Array.isArray(pact?.interactions)) {
    throw invalid(
      file,
      Array.isArray(pact?.messages)
        ? 'a message pact (messages); mockpoint imports HTTP interactions'
        : 'a Pact file is {"consumer":…,"provider":…,"interactions":[…]}; it has no interactions list',
    );
  }
  const consumer = typeof pact.consumer?.name === 'string' ? pact.consumer.name : '';
  const provider = typeof pact.provider?.name === 'string' ? pact.provider.name : '';
  const name = options.name ?? provider;
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(name)) {
    throw invalid(
      file,
      `the provider's name ${JSON.stringify(provider.slice(0, 64))} is no endpoint name: give one with --name`,
    );
  }
  const specification = specificationOf(pact.metadata);
  const v4 = specification.startsWith('4');
  const bound = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const ids = new IdSet();
  const routes: Route[] = [];
  const taken = new Map<string, string>();
  const leftOut: LeftOut[] = [];
  for (const [index, raw] of (pact.interactions as PactInteraction[]).entries()) {
    if (index > 0 && index % STEP_INTERACTIONS === 0) yield;
    const made = routeOf(raw ?? {}, index, { v4, bound, taken, leftOut });
    if (made !== undefined) routes.push({ id: ids.take(slugOf(made.description, 'interaction')), ...made.route });
  }
  if (routes.length > MAX_ROUTES) {
    throw invalid(file, `${routes.length} routes, more than a name holds by default (${MAX_ROUTES})`);
  }
  yield;
  const body = stringifyExact({ version: 1, endpoints: [{ name, routes }] }, 2);
  return {
    text: `${body}\n`,
    name,
    consumer,
    provider,
    specification,
    interactions: pact.interactions.length,
    routes: routes.length,
    leftOut,
  };
}

/** What one interaction's route is made with, and what it records. */
interface RouteContext {
  v4: boolean;
  bound: number;
  /** Requests already answered, by their match's exact text: the interaction that did. */
  taken: Map<string, string>;
  leftOut: LeftOut[];
}

/** The route of interaction `index` (its id still to take), or `undefined` when it is left out (said in `leftOut`). */
function routeOf(
  interaction: PactInteraction,
  index: number,
  { v4, bound, taken, leftOut }: RouteContext,
): { description: string; route: Omit<Route, 'id'> } | undefined {
  const description =
    typeof interaction.description === 'string' && interaction.description !== ''
      ? interaction.description
      : `interaction ${index + 1}`;
  const what = `interaction ${JSON.stringify(description.slice(0, 200))}`;
  if (interaction.type !== undefined && interaction.type !== 'Synchronous/HTTP') {
    leftOut.push({ what, why: `a ${String(interaction.type).slice(0, 64)} interaction, not HTTP` });
    return undefined;
  }
  const match = matchOf(interaction.request, v4);
  if (typeof match === 'string') {
    leftOut.push({ what, why: match });
    return undefined;
  }
  const answer = answerOf(interaction.response, v4, bound);
  if (typeof answer === 'string') {
    leftOut.push({ what, why: answer });
    return undefined;
  }
  const key = stringifyExact(match);
  const first = taken.get(key);
  if (first !== undefined) {
    leftOut.push({ what, why: `the same request as ${first}: a route answers it in every provider state` });
    return undefined;
  }
  taken.set(key, what);
  const rules =
    (interaction.request as { matchingRules?: unknown } | undefined)?.matchingRules ?? interaction.requestMatchingRules;
  if (rules !== undefined && rules !== null && Object.keys(rules).length > 0) {
    leftOut.push({ what: `${what}'s request matching rules`, why: 'the route matches the example values exactly' });
  }
  return { description, route: { match, answer } };
}
