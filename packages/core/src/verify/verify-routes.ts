/**
 * Routes checked against an OpenAPI document (docs/verify.md): each route's
 * path and method an operation of it, each answer's status declared, its
 * headers and body fitting the response's schemas for its content type, with
 * the validator that checks requests (answer/routes/json-schema). Findings are
 * capped (the rest counted), and the work yields to the event loop every
 * {@link YIELD_EVERY} routes, so a daemon verifying thousands of routes still answers.
 *
 * @module
 */

import type { JournalEntry } from '../api/journal-json.js';
import type { Route, RouteAnswer } from '../api/route.js';
import { MAX_VERIFY_FINDINGS, type VerifyReport } from '../api/verify-json.js';
import { PathPatternError, parsePathPattern } from '../pattern/path-pattern.js';
import { TurnBudget } from '../turns/turn-budget.js';
import { AnswerCheck } from './answer-check.js';
import { JournalCheck } from './journal-requests.js';
import { LiveReplay, type LiveSetup } from './live-replay.js';
import type { HarRequest } from './live-request.js';
import { type DocumentPath, isObject, OPENAPI_METHODS, type OpenApiDocument, PARAM } from './openapi-document.js';
import { OperationIndex } from './operation-index.js';
import { type At, Collector } from './verify-collector.js';
import { type Extras, endpointExtras, operationOf } from './verify-extras.js';

type Json = Record<string, unknown>;

/** Routes checked between two turns of the event loop. */
export const YIELD_EVERY = 50;

/** Answer fields whose answers are made at run time: not checked. */
const RUN_TIME_KINDS = ['proxy', 'resource', 'websocket', 'llm', 'mcp'] as const;

/** One endpoint to verify: its name, its routes in order, and (for `journal` and `upstream`) its journal's pages. */
export interface VerifyEndpoint {
  name: string;
  routes: readonly Route[];
  journal?: () => AsyncIterable<JournalEntry[]>;
}

/** Options of {@link verifyRoutes}. */
export interface VerifyOptions {
  /** Findings (and notes) listed at most. @default MAX_VERIFY_FINDINGS */
  maxFindings?: number;
  /** Lets the event loop run (between endpoints and every {@link YIELD_EVERY} routes). @default a macrotask */
  pause?: () => Promise<void>;
  /** Check each endpoint's recorded requests against the document's request schemas (needs a document). */
  journal?: boolean;
  /** Replay each route upstream and compare shapes (verify/live-replay.ts). */
  live?: { setup: LiveSetup; har: readonly HarRequest[] };
}

/** The route's path as a shape (`/pets/\0`), or why it has none. */
function routeShape(path: string): string | { why: string } {
  let pattern: ReturnType<typeof parsePathPattern>;
  try {
    pattern = parsePathPattern(path);
  } catch (error) {
    if (error instanceof PathPatternError) return { why: `its path is not a pattern (${error.message})` };
    throw error;
  }
  if (pattern.wildcard) return { why: 'its path ends in * (any rest): which operation it answers is unknown' };
  const segments = pattern.segments.map((segment) => {
    const parts = 'parts' in segment ? segment.parts : [segment];
    return parts.map((part) => ('param' in part ? PARAM : part.literal)).join('');
  });
  return `/${segments.join('/')}`;
}

/** Each document's index of concrete paths, made when a route's path first needs it. */
const INDEXES = new WeakMap<OpenApiDocument, OperationIndex>();

/**
 * The document's paths of `shape`, also with one of its servers' base paths
 * taken off. A route path with a literal where the document has a parameter
 * (`/pets/404` for `/pets/{id}`: a route for one case of the operation) is an
 * instance of that template: found as a request's path is, each of the route's
 * own parameters matching only a parameter of the document.
 */
function pathsOf(doc: OpenApiDocument, shape: string): DocumentPath[] {
  const direct = directPaths(doc, shape);
  if (direct !== undefined) return direct;
  let index = INDEXES.get(doc);
  if (index === undefined) {
    index = new OperationIndex(doc);
    INDEXES.set(doc, index);
  }
  const instance = index.find(shape.split('/').map(encodeURIComponent).join('/'));
  return instance === undefined ? [] : [instance.path];
}

/** The document's paths of `shape` itself, or with a server's base path taken off; `undefined` when none. */
function directPaths(doc: OpenApiDocument, shape: string): DocumentPath[] | undefined {
  const direct = doc.paths.get(shape);
  if (direct !== undefined) return direct;
  for (const base of doc.basePaths) {
    if (shape.startsWith(`${base}/`)) {
      const found = doc.paths.get(shape.slice(base.length));
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/**
 * Builds the document's index a slice per turn when `route` will need it (its path is an instance of a
 * template, not one of the document's own): made at once, a large document's would hold the loop.
 */
async function indexFor(doc: OpenApiDocument, route: Route): Promise<void> {
  const path = route.match?.path;
  if (INDEXES.has(doc) || typeof path !== 'string') return;
  const shape = routeShape(path);
  if (typeof shape !== 'string' || directPaths(doc, shape) !== undefined) return;
  INDEXES.set(doc, await OperationIndex.inTurns(doc, new TurnBudget()));
}

/** The operations of the route's method (every one of the path's, for a route of any method). */
function operationsOf(item: Json, method: string | undefined): [string, Json][] {
  const methods = method === undefined ? OPENAPI_METHODS : [method.toLowerCase()];
  const out: [string, Json][] = [];
  for (const name of methods) {
    const operation = item[name];
    if (isObject(operation)) out.push([name.toUpperCase(), operation]);
  }
  return out;
}

/** The runtime-made kind of an answer (`proxy`, …), if it is one. */
function runTimeKind(answer: RouteAnswer): string | undefined {
  return RUN_TIME_KINDS.find((kind) => (answer as Record<string, unknown>)[kind] !== undefined);
}

/** The checks beyond the routes' answers that `options` asks for. */
function extrasOf(doc: OpenApiDocument | undefined, out: Collector, options: VerifyOptions): Extras {
  const extras: Extras = {};
  if (options.journal === true && doc !== undefined) extras.journal = new JournalCheck(doc, out);
  if (options.live !== undefined) {
    const { setup, har } = options.live;
    extras.live = {
      replay: new LiveReplay(setup, out),
      har,
      basePath: setup.url.pathname.replace(/\/+$/, ''),
      unsafe: setup.unsafe,
    };
  }
  return extras;
}

/**
 * The routes of `endpoints` checked against `doc` (when given), and, as
 * `options` asks, their recorded requests against it and their answers against
 * the live API.
 */
export async function verifyRoutes(
  doc: OpenApiDocument | undefined,
  endpoints: AsyncIterable<VerifyEndpoint> | Iterable<VerifyEndpoint>,
  options: VerifyOptions = {},
): Promise<VerifyReport> {
  const out = new Collector(options.maxFindings ?? MAX_VERIFY_FINDINGS);
  const pause = options.pause ?? (() => new Promise<void>((done) => setTimeout(done, 0)));
  const answers = doc === undefined ? undefined : new AnswerCheck(doc, out);
  const extras = extrasOf(doc, out, options);
  const listed: VerifyReport['endpoints'] = [];
  let routes = 0;
  for await (const endpoint of endpoints) {
    const entry: VerifyReport['endpoints'][number] = { name: endpoint.name, routes: [] };
    listed.push(entry);
    for (const [index, route] of endpoint.routes.entries()) {
      if (++routes % YIELD_EVERY === 0) await pause();
      const operation = operationOf(route);
      const at: At = { endpoint: endpoint.name, route: { id: route.id, index }, operation };
      entry.routes.push({ id: route.id, index, operation });
      if (doc !== undefined && answers !== undefined) {
        await indexFor(doc, route);
        checkRoute(doc, out, answers, at, route, route.match?.method?.toUpperCase(), route.match?.path);
      }
    }
    await endpointExtras(extras, out, endpoint, pause);
    await pause();
  }
  await extras.live?.replay.run();
  const checked: VerifyReport['checked'] = { endpoints: listed.length, routes };
  if (extras.journal !== undefined) checked.requests = extras.journal.checked;
  if (extras.live !== undefined) {
    checked.replayed = extras.live.replay.replayed;
    checked.unreached = extras.live.replay.unreached;
  }
  return {
    ok: out.ok,
    ...(doc === undefined ? {} : { document: { title: doc.title, version: doc.version, openapi: doc.openapi } }),
    ...(options.live === undefined ? {} : { upstream: options.live.setup.url.href }),
    checked,
    findings: out.findings,
    moreFindings: out.moreFindings,
    notes: out.notes,
    moreNotes: out.moreNotes,
    endpoints: listed,
  };
}

function checkRoute(
  doc: OpenApiDocument,
  out: Collector,
  answers: AnswerCheck,
  at: At,
  route: Route,
  method: string | undefined,
  path: unknown,
): void {
  if (typeof path !== 'string') {
    const what = path === undefined ? 'it matches any path' : 'its path is a regular expression';
    out.note(at, `${what}: which operation it answers is unknown; not checked`);
    return;
  }
  const shape = routeShape(path);
  if (typeof shape !== 'string') {
    out.note(at, `${shape.why}; not checked`);
    return;
  }
  const items = pathsOf(doc, shape);
  if (items.length === 0) {
    out.finding(at, 'MISSING_OPERATION', 'path', 'a path of the document', path);
    return;
  }
  const operations = items.flatMap(({ item }) => operationsOf(item() ?? {}, method));
  const [first] = operations;
  if (first === undefined) {
    const has = items.flatMap(({ item }) => operationsOf(item() ?? {}, undefined).map(([name]) => name));
    out.finding(
      at,
      'MISSING_OPERATION',
      'method',
      has.length === 0 ? 'an operation (the path has none)' : `one of ${has.join(', ')}`,
      method ?? '*',
    );
    return;
  }
  const kind = runTimeKind(route.answer);
  if (kind !== undefined) {
    out.note(at, `a ${kind} answer is made at run time; only its path and method were checked`);
    return;
  }
  if (method === undefined && operations.length > 1) {
    out.note(at, `it answers any method and the path has ${operations.length} operations; only its path was checked`);
    return;
  }
  answers.check(at, first[1], route.answer, first[0]);
}
