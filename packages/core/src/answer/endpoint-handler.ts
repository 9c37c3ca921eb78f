/**
 * "A request to `/endpoint/{name}`", once for every runtime: given the method,
 * the target, the raw headers and the body's first bytes, it records the request
 * in the journal and returns the {@link EndpointAnswer} that an adapter sends.
 * A cached endpoint is answered synchronously, without allocating.
 *
 * @module
 */

import type { CachedResponse } from '../http/cache.js';
import type { EndpointService } from '../http/endpoints.js';
import type { Journal } from '../journal/journal.js';
import { type AnswerMark, BY_NONE, BY_RECORD, byQueue, type RecordedRequest } from '../journal/journal-entry.js';
import { filterPattern, subpathSegments } from '../journal/request-filter.js';
import { MemoryReplayGuard, type ReplayGuard } from '../webhook/replay-guard.js';
import type { SignatureCheck } from '../webhook/signature-check.js';
import { splitEndpointTarget } from '../wire/endpoint-target.js';
import { isMockpointError, MockpointError } from '../wire/errors.js';
import { DEFAULT_MAX_BODY_BYTES, JOURNAL_NAME_LIMIT } from '../wire/limits.js';
import { matchPathPattern } from '../wire/path-pattern.js';
import type { ValidationMark } from '../wire/route-validation.js';
import { isValidName } from '../wire/schemas.js';
import type { SignatureMark } from '../wire/signature-settings.js';
import { type ClientGone, type EndpointAnswer, emptyAnswer, errorAnswer } from './endpoint-answer.js';
import type { EndpointChanges } from './endpoint-changes.js';
import { proxyRouteAnswer } from './proxy/proxy-route.js';
import type { ProxySettings } from './proxy/proxy-settings.js';
import type { Taken } from './queue/answer-queue.js';
import { planQueuedAnswer, type QueueFallback, queuedStream, toQueuedAnswer } from './queue/queued-answer.js';
import { CORS_HEADERS } from './read-response.js';
import { RequestView } from './request-view.js';
import type { RouteHit, RouteTable } from './routes/route-table.js';
import { resumeAfter } from './stream/stream-frames.js';
import { BODY_NOT_READ, RenderBudget, type TemplateContext } from './template.js';

/** Methods answered with the stored data at `/endpoint/{name}`. */
export const READ_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
/** Every method `/endpoint/{name}` answers (OPTIONS is the CORS preflight). */
const ALLOWED = [...READ_METHODS, 'OPTIONS'].join(', ');
const READ = new Set<string>(READ_METHODS);

export { ENDPOINT_PREFIX } from '../wire/endpoint-target.js';

/** Options for {@link EndpointHandler}. */
export interface EndpointHandlerOptions {
  endpoints: EndpointService;
  journal: Journal;
  /**
   * Remembers the delivery ids of validly signed requests, to tell a replay.
   * @default new MemoryReplayGuard() (this process only)
   */
  replays?: ReplayGuard;
  /** Called with a failure that is not a {@link MockpointError}; the answer is then 500 INTERNAL. */
  onUnexpectedError?: (error: unknown, request: { method: string; url: string }) => void;
  /** How proxy routes reach their upstreams. @default proxying off (every host refused), over fetch */
  proxy?: ProxySettings;
  /**
   * The body limit: also the most bytes a templated answer renders for one request.
   * @default 5242880 (5 MiB)
   */
  maxBodyBytes?: number;
}

function pathOf(target: string): string {
  const q = target.indexOf('?');
  return q === -1 ? target : target.slice(0, q);
}

/** The value of header `name` (lower-case) in raw headers, or `undefined`. */
function rawHeader(rawHeaders: readonly string[], name: string): string | undefined {
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const key = rawHeaders[i] as string;
    if (key.length === name.length && key.toLowerCase() === name) return rawHeaders[i + 1];
  }
  return undefined;
}

/** The parameters of a queued answer's `match.path` for this request (`{}` without one). */
function queuedParams(taken: Taken, view: RequestView): Record<string, string> {
  const path = taken.answer.match?.path;
  if (path === undefined) return {};
  const pattern = filterPattern(path);
  return (pattern && matchPathPattern(pattern, subpathSegments(view.subpath))) || {};
}

export class EndpointHandler {
  readonly #endpoints: EndpointService;
  readonly #journal: Journal;
  readonly #onUnexpectedError: EndpointHandlerOptions['onUnexpectedError'];
  readonly #replays: ReplayGuard;
  readonly #proxy: ProxySettings | undefined;
  readonly #maxBodyBytes: number;

  constructor(options: EndpointHandlerOptions) {
    this.#proxy = options.proxy;
    this.#maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.#endpoints = options.endpoints;
    this.#journal = options.journal;
    this.#replays = options.replays ?? new MemoryReplayGuard();
    this.#onUnexpectedError = options.onUnexpectedError;
  }

  /**
   * Records `request` and answers it: synchronously when the endpoint is cached
   * (or the request is not a read), otherwise once the store has been asked. Never
   * rejects: failures become error answers. The journal owns `request` afterwards.
   * `wholeBody`: the whole body when it is longer than `request.body` and the
   * adapter kept it (see {@link EndpointHandler.readsWholeBody}), for the
   * signature check and a proxy route's upstream; it is not kept. `gone`: makes
   * (when first needed) a signal that aborts once the client has left, so that
   * work done for it alone stops (a proxy route's upstream request).
   */
  handle(
    request: RecordedRequest,
    wholeBody?: Uint8Array,
    gone?: ClientGone,
  ): EndpointAnswer | Promise<EndpointAnswer> {
    const target = splitEndpointTarget(request.target);
    if (target === undefined) {
      const path = pathOf(request.target);
      return errorAnswer(404, 'ROUTE_NOT_FOUND', `no route for ${request.method} ${path}; see GET /api/openapi.json`);
    }
    if (!READ.has(request.method)) {
      if (request.method === 'OPTIONS') return this.#preflight(request.rawHeaders);
      return errorAnswer(
        405,
        'METHOD_NOT_ALLOWED',
        `${request.method} is not allowed on ${pathOf(request.target)}; use ${ALLOWED}`,
        { extra: { allow: ALLOWED } },
      );
    }
    const { name, subpath } = target;
    if (!isValidName(name)) return this.#answer(name, request, undefined);
    // One synchronous Map lookup when the name is known to check no signatures.
    const check = this.#endpoints.signatureChecks.get(name);
    if (check === null) return this.#unsigned(name, subpath, request, wholeBody, gone);
    if (check !== undefined) return this.#signed(name, subpath, request, check, wholeBody, gone);
    return this.#endpoints.signatureCheck(name).then(
      (loaded) =>
        loaded === null
          ? this.#unsigned(name, subpath, request, wholeBody, gone)
          : this.#signed(name, subpath, request, loaded, wholeBody, gone),
      (error: unknown) => this.#failed(error, request),
    );
  }

  /**
   * Whether an adapter should keep the whole of a body longer than the journal's
   * copy of a request to `name` (up to `maxBodyBytes`) and pass it to
   * {@link EndpointHandler.handle}: when the name checks signatures, has queued
   * answers (they may match or render the body) or a route that reads the body
   * (a proxy, validation, a body match, a `{{body…}}` template). Asked only once
   * a body outgrows the journal's copy; a name whose routes or signature check
   * are not known in this process yet is looked up (a Promise), so a plain
   * record answer never holds more than the journal's copy. The adapter reads no
   * further until it has the answer.
   */
  readsWholeBody(name: string): boolean | Promise<boolean> {
    if (!isValidName(name)) return false;
    if (this.#endpoints.queue.pending(name)) return true;
    const check = this.#endpoints.signatureChecks.get(name);
    if (check !== undefined && check !== null) return true;
    const table = this.#endpoints.routeTables.get(name);
    if (check === null && table !== undefined) return table?.readsWholeBody === true;
    return Promise.all([this.#endpoints.signatureCheck(name), this.#endpoints.routeTable(name)]).then(
      ([loaded, routes]) => loaded !== null || routes?.readsWholeBody === true,
      // The store failed: the request will be answered with that failure; keep nothing more.
      () => false,
    );
  }

  /**
   * A request to a name that checks signatures: judged over its exact bytes
   * before anyone answers it, so the journal entry, the routes' and the queue's
   * filters see the outcome. With `enforce`, anything but `valid` is answered 401
   * (and journaled). Synchronous when the check is (see {@link SignatureCheck.check}).
   */
  #signed(
    name: string,
    subpath: string,
    request: RecordedRequest,
    check: SignatureCheck,
    wholeBody: Uint8Array | undefined,
    gone: ClientGone | undefined,
  ): EndpointAnswer | Promise<EndpointAnswer> {
    let mark: SignatureMark | Promise<SignatureMark>;
    try {
      mark = check.check(name, request, this.#replays, wholeBody);
    } catch (error) {
      return this.#failed(error, request);
    }
    if (mark instanceof Promise) {
      return mark.then(
        (later) => this.#judged(name, subpath, request, check, later, wholeBody, gone),
        (error: unknown) => this.#failed(error, request),
      );
    }
    return this.#judged(name, subpath, request, check, mark, wholeBody, gone);
  }

  /** The answer once the signature is judged: 401 when enforced and not valid, else the normal one. */
  #judged(
    name: string,
    subpath: string,
    request: RecordedRequest,
    check: SignatureCheck,
    mark: SignatureMark,
    wholeBody: Uint8Array | undefined,
    gone: ClientGone | undefined,
  ): EndpointAnswer | Promise<EndpointAnswer> {
    request.signature = mark;
    if (check.enforce && mark.status !== 'valid') {
      this.#journal.record(name, request, 401, BY_NONE);
      return errorAnswer(
        401,
        'SIGNATURE_INVALID',
        `the ${mark.scheme} signature is ${mark.status}: ${mark.reason}. "${name}" enforces signatures (PUT /api/endpoints/${name}/signature); sign with one of its secrets, or set enforce: false to record without refusing`,
        { head: request.method === 'HEAD', cors: true, details: { ...mark } },
      );
    }
    return this.#unsigned(name, subpath, request, wholeBody, gone);
  }

  /** Who answers once any signature is judged: the queue, the routes, the record. */
  #unsigned(
    name: string,
    subpath: string,
    request: RecordedRequest,
    wholeBody: Uint8Array | undefined,
    gone: ClientGone | undefined,
  ): EndpointAnswer | Promise<EndpointAnswer> {
    // One synchronous Map lookup when no queue is in use; the answer is taken before
    // anything is awaited, so queued answers go out in the order requests came in.
    if (this.#endpoints.queue.pending(name)) {
      const view = this.#view(request, subpath, wholeBody);
      return this.#endpoints.queue.take(name, view).then(
        (taken) =>
          taken === undefined
            ? this.#routed(name, subpath, request, wholeBody, gone)
            : this.#queued(name, view, request, taken),
        (error: unknown) => this.#failed(error, request),
      );
    }
    return this.#routed(name, subpath, request, wholeBody, gone);
  }

  /**
   * Who answers without the queue: the first matching route, else the record
   * (bare URL only), else 404. Synchronous when the routes (or their absence)
   * and the record are cached.
   */
  #routed(
    name: string,
    subpath: string,
    request: RecordedRequest,
    wholeBody: Uint8Array | undefined,
    gone: ClientGone | undefined,
  ): EndpointAnswer | Promise<EndpointAnswer> {
    const table = this.#endpoints.routeTables.get(name);
    if (table === undefined) {
      return this.#endpoints.routeTable(name).then(
        (loaded) => this.#withRoutes(name, subpath, request, loaded, wholeBody, gone),
        (error: unknown) => this.#failed(error, request),
      );
    }
    return this.#withRoutes(name, subpath, request, table, wholeBody, gone);
  }

  #withRoutes(
    name: string,
    subpath: string,
    request: RecordedRequest,
    table: RouteTable | null,
    wholeBody: Uint8Array | undefined,
    gone: ClientGone | undefined,
  ): EndpointAnswer | Promise<EndpointAnswer> {
    let view: RequestView | undefined;
    if (table !== null) {
      view = this.#view(request, subpath, wholeBody);
      const hit = table.select(view);
      if (hit !== undefined) return this.#routeAnswer(name, request, view, hit, wholeBody, gone);
    }
    if (subpath === '/') return this.#stored(name, request, table, view);
    return this.#noRoute(name, request, table, view ?? this.#view(request, subpath, wholeBody));
  }

  /** A route's answer, journaled with the route's id and the pattern's parameters. */
  #routeAnswer(
    name: string,
    request: RecordedRequest,
    view: RequestView,
    hit: RouteHit,
    wholeBody: Uint8Array | undefined,
    gone: ClientGone | undefined,
  ): EndpointAnswer | Promise<EndpointAnswer> {
    const { route, params } = hit;
    let validation: ValidationMark | undefined;
    if (route.validator !== undefined) {
      validation = route.validator.check({
        query: view.query,
        headers: view.headers,
        params,
        body: request.bodyTruncated ? wholeBody : request.body,
      });
      if (validation.errors.length > 0 && route.validator.validation.mode === 'enforce') {
        return this.#invalid(name, request, route.id, params, validation);
      }
    }
    const { proxy } = route.route.answer;
    if (proxy !== undefined) {
      return proxyRouteAnswer({
        name,
        request,
        wholeBody,
        validation,
        subpath: view.subpath,
        gone,
        routeId: route.id,
        params,
        proxy,
        settings: this.#proxy,
        endpoints: this.#endpoints,
        journal: this.#journal,
        onUnexpectedError: (error) => this.#onUnexpectedError?.(error, { method: request.method, url: request.target }),
      });
    }
    const seq = ++route.seq;
    const head = request.method === 'HEAD';
    const mark: AnswerMark = { answeredBy: { route: route.id }, params };
    if (validation !== undefined) mark.validation = validation;
    let answer: EndpointAnswer;
    try {
      answer = route.answer.templated
        ? route.answer.answer(head, this.#context(params, view, seq))
        : route.answer.answer(head);
    } catch (error) {
      return this.#renderFailed(name, request, mark, `route ${route.id}`, error, { route: route.id });
    }
    // A reconnecting SSE client resumes after the last event it saw.
    if (answer.kind === 'stream') {
      answer = this.#held(name, resumeAfter(answer, rawHeader(request.rawHeaders, 'last-event-id')));
    }
    if (route.route.answer.fault !== undefined) mark.fault = route.route.answer.fault;
    this.#journal.record(name, request, answer.status, mark);
    return answer;
  }

  /** The request as routes, the queue and templates see it: the whole body where it was kept. */
  #view(request: RecordedRequest, subpath: string, wholeBody: Uint8Array | undefined): RequestView {
    return new RequestView(request, subpath, wholeBody, this.#maxBodyBytes);
  }

  /** What templates look up for one request, with a fresh render budget (the body limit). */
  #context(params: Record<string, string>, view: RequestView, seq: number): TemplateContext {
    const budget = new RenderBudget(this.#maxBodyBytes);
    // A body cut at the body limit is not rendered as if it were empty: {{body…}} fails on it.
    const json = view.bodyTruncated ? BODY_NOT_READ : view.json;
    return { params, query: view.query, headers: view.headers, json, seq, budget };
  }

  /**
   * A templated answer that could not be rendered for this request (a coded
   * error such as `TEMPLATE_TOO_LARGE`; anything else is `INTERNAL`), journaled
   * with its status; `what` names the answer in the message.
   */
  #renderFailed(
    name: string,
    request: RecordedRequest,
    mark: AnswerMark,
    what: string,
    error: unknown,
    details: Record<string, unknown>,
  ): EndpointAnswer {
    if (!isMockpointError(error)) {
      this.#journal.record(name, request, 500, mark);
      return this.#failed(error, request);
    }
    this.#journal.record(name, request, error.status, mark);
    return errorAnswer(error.status, error.code, `${what} of "${name}": ${error.message}`, {
      head: request.method === 'HEAD',
      cors: true,
      details: { ...error.details, ...details },
    });
  }

  /** `400 REQUEST_INVALID` from a route that enforces its schemas, the errors in `error.details.errors`. */
  #invalid(
    name: string,
    request: RecordedRequest,
    routeId: string,
    params: Record<string, string>,
    validation: ValidationMark,
  ): EndpointAnswer {
    this.#journal.record(name, request, 400, { answeredBy: { route: routeId }, params, validation });
    const [first] = validation.errors;
    const count = validation.total ?? validation.errors.length;
    const where = first === undefined ? '' : `${first.in}${first.path}: ${first.message}`;
    return errorAnswer(
      400,
      'REQUEST_INVALID',
      `the request does not fit the schemas of route ${routeId} of "${name}" (${count} error${count === 1 ? '' : 's'}; the first: ${where}); its validate.mode is enforce: send what they ask for, or set mode report to answer anyway`,
      { head: request.method === 'HEAD', cors: true, details: { ...validation } },
    );
  }

  /** `404 NO_ROUTE_MATCHED`, naming up to three near misses in `error.details`. */
  #noRoute(name: string, request: RecordedRequest, table: RouteTable | null, view: RequestView): EndpointAnswer {
    this.#journal.record(name, request, 404, BY_NONE);
    const where = `${request.method} ${view.subpath}`;
    const nearMisses = table === null ? [] : table.nearMisses(view);
    const message =
      table === null
        ? `no route of "${name}" matches ${where}: it has no routes; add some with PUT /api/endpoints/${name}/routes`
        : `no route of "${name}" matches ${where}; the nearest: ${nearMisses.map((miss) => `${miss.id} (${miss.reason})`).join('; ')}`;
    return errorAnswer(404, 'NO_ROUTE_MATCHED', message, {
      head: request.method === 'HEAD',
      cors: true,
      details: { subpath: view.subpath, nearMisses },
    });
  }

  /** The stored record's answer (or 404): synchronous when it is cached. */
  #stored(
    name: string,
    request: RecordedRequest,
    table: RouteTable | null = null,
    view?: RequestView,
  ): EndpointAnswer | Promise<EndpointAnswer> {
    const cached = this.#endpoints.cache.get(name);
    if (cached !== undefined) return this.#answer(name, request, cached);
    return this.#endpoints.response(name).then(
      (entry) =>
        entry === undefined && table !== null
          ? this.#noRoute(name, request, table, view ?? this.#view(request, '/', undefined))
          : this.#answer(name, request, entry),
      (error: unknown) => this.#failed(error, request),
    );
  }

  #answer(name: string, request: RecordedRequest, entry: CachedResponse | undefined): EndpointAnswer {
    if (name.length <= JOURNAL_NAME_LIMIT) {
      this.#journal.record(name, request, entry?.statusCode ?? 404, entry === undefined ? BY_NONE : BY_RECORD);
    }
    return this.#recordAnswer(name, request, entry);
  }

  /**
   * A queued answer, resolved against what would answer without the queue;
   * journaled as answered by the queue, with its fault and the parameters of its
   * `match.path`.
   */
  async #queued(name: string, view: RequestView, request: RecordedRequest, taken: Taken): Promise<EndpointAnswer> {
    try {
      const head = request.method === 'HEAD';
      const lastEventId = rawHeader(request.rawHeaders, 'last-event-id');
      const fallback = await this.#fallback(name, view, lastEventId);
      const params = queuedParams(taken, view);
      const context = this.#context(params, view, 1);
      const queuedMark = Object.keys(params).length > 0 ? { ...byQueue(), params } : byQueue();
      const { stream } = taken.answer;
      let planned: ReturnType<typeof planQueuedAnswer>;
      try {
        if (stream !== undefined) {
          const streamed = this.#held(
            name,
            resumeAfter(queuedStream({ ...taken.answer, stream }, fallback, head, context), lastEventId),
          );
          this.#journal.record(name, request, streamed.status, queuedMark);
          return streamed;
        }
        planned = planQueuedAnswer(name, taken.answer, fallback, taken.answer.template === true ? context : undefined);
      } catch (error) {
        return this.#renderFailed(name, request, queuedMark, 'the queued answer', error, {});
      }
      const mark = byQueue(planned.fault);
      this.#journal.record(
        name,
        request,
        planned.statusCode,
        Object.keys(params).length > 0 ? { ...mark, params } : mark,
      );
      const queued = toQueuedAnswer(planned, {
        head,
        release: taken.release,
        // A released hang gets what would answer then (not journaled again).
        next: () =>
          this.#fallback(name, view, lastEventId).then(
            (now) =>
              now === undefined
                ? this.#recordAnswer(name, request, undefined)
                : this.#held(
                    name,
                    toQueuedAnswer(planQueuedAnswer(name, {}, now), {
                      head,
                      release: taken.release,
                      next: () => this.#recordAnswer(name, request, undefined),
                    }),
                  ),
            (error: unknown) => this.#failed(error, request),
          ),
      });
      return queued.kind === 'stream' ? this.#held(name, queued) : queued;
    } catch (error) {
      return this.#failed(error, request);
    }
  }

  /**
   * What a queued answer's absent fields fall back to: what would answer without
   * the queue (the first matching route's answer, rendered for this request and
   * a stream resumed after `lastEventId`, else the record at the bare URL), or
   * `undefined` when nothing would (or a route would fail with a fault).
   */
  async #fallback(
    name: string,
    view: RequestView,
    lastEventId: string | undefined,
  ): Promise<QueueFallback | undefined> {
    const table = this.#endpoints.routeTables.get(name) ?? (await this.#endpoints.routeTable(name));
    const hit = table?.select(view);
    // A proxy route answers only over the network, so nothing stands in for the queue's absent fields.
    if (hit?.route.route.answer.proxy !== undefined) return undefined;
    if (hit !== undefined) {
      const { route, params } = hit;
      let answer: EndpointAnswer;
      try {
        answer = route.answer.templated
          ? route.answer.answer(false, this.#context(params, view, route.seq + 1))
          : route.answer.answer(false);
      } catch (error) {
        // Named here: the queued answer's message says whose template it was.
        if (!isMockpointError(error)) throw error;
        throw new MockpointError(
          error.code,
          `route ${route.id}, whose answer the queued answer falls back to: ${error.message}`,
          {
            details: { ...error.details, route: route.id },
          },
        );
      }
      if (answer.kind === 'stream') return resumeAfter(answer, lastEventId);
      return answer.kind === 'respond' ? answer : undefined;
    }
    if (view.subpath !== '/') return undefined;
    return (this.#endpoints.cache.get(name) ?? (await this.#endpoints.response(name)))?.answers.full;
  }

  /** A stream that ends with `hang` is let go at the next change of `name` (see {@link EndpointChanges}). */
  #held<A extends EndpointAnswer>(name: string, answer: A): A {
    if (answer.kind !== 'stream' || answer.end !== 'hang') return answer;
    return { ...answer, release: this.#endpoints.changes.signal(name) };
  }

  /** The answer for the record `entry` (or 404), without journaling. */
  #recordAnswer(name: string, request: RecordedRequest, entry: CachedResponse | undefined): EndpointAnswer {
    const head = request.method === 'HEAD';
    if (entry !== undefined) return head ? entry.answers.head : entry.answers.full;
    return errorAnswer(
      404,
      'NOT_FOUND',
      `no endpoint named "${name}"; create it with PUT /api/endpoint/add or list them at GET /api/endpoints`,
      { head, cors: true },
    );
  }

  #failed(error: unknown, request: RecordedRequest): EndpointAnswer {
    const head = request.method === 'HEAD';
    if (isMockpointError(error)) return errorAnswer(error.status, error.code, error.message, { head });
    this.reportUnexpected(error, { method: request.method, url: request.target });
    return errorAnswer(500, 'INTERNAL', 'internal error; see the server log', { head });
  }

  /**
   * Reports a failure no answer accounts for (e.g. one an adapter met while
   * sending an answer) to `onUnexpectedError`. A reporter that throws is
   * ignored: reporting must never be what takes a request, or the process, down.
   */
  reportUnexpected(error: unknown, request: { method: string; url: string }): void {
    try {
      this.#onUnexpectedError?.(error, request);
    } catch {
      // nothing more can be done for it here
    }
  }

  /** CORS preflight: open to every origin, method and header. Not journaled. */
  #preflight(rawHeaders: readonly string[]): EndpointAnswer {
    return emptyAnswer(204, {
      ...CORS_HEADERS,
      'access-control-allow-methods': READ_METHODS.join(', '),
      'access-control-allow-headers': rawHeader(rawHeaders, 'access-control-request-headers') ?? '*',
      'access-control-max-age': '86400',
    });
  }
}
