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
import type { RecordedRequest } from '../journal/journal-entry.js';
import { isMockpointError } from '../wire/errors.js';
import { JOURNAL_NAME_LIMIT } from '../wire/limits.js';
import { isValidName } from '../wire/schemas.js';
import { type EndpointAnswer, emptyAnswer, errorAnswer } from './endpoint-answer.js';
import type { Taken } from './queue/answer-queue.js';
import { planQueuedAnswer, toQueuedAnswer } from './queue/queued-answer.js';
import { CORS_HEADERS } from './read-response.js';

/** Methods answered with the stored data at `/endpoint/{name}`. */
export const READ_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
/** Every method `/endpoint/{name}` answers (OPTIONS is the CORS preflight). */
const ALLOWED = [...READ_METHODS, 'OPTIONS'].join(', ');
const READ = new Set<string>(READ_METHODS);

/** Every target under this prefix is answered here, and nowhere else. */
export const ENDPOINT_PREFIX = '/endpoint/';

/** Options for {@link EndpointHandler}. */
export interface EndpointHandlerOptions {
  endpoints: EndpointService;
  journal: Journal;
  /** Called with a failure that is not a {@link MockpointError}; the answer is then 500 INTERNAL. */
  onUnexpectedError?: (error: unknown, request: { method: string; url: string }) => void;
}

/**
 * The name in a target under {@link ENDPOINT_PREFIX}, percent-decoded; `undefined`
 * when the target is not exactly one non-empty segment below the prefix (then
 * no route matches: `/endpoint/`, `/endpoint/a/b`, `/endpoint/%2e%2e/api/...`).
 */
export function endpointName(target: string): string | undefined {
  const q = target.indexOf('?');
  const end = q === -1 ? target.length : q;
  if (end <= ENDPOINT_PREFIX.length || !target.startsWith(ENDPOINT_PREFIX)) return undefined;
  const slash = target.indexOf('/', ENDPOINT_PREFIX.length);
  if (slash !== -1 && slash < end) return undefined;
  const raw = target.slice(ENDPOINT_PREFIX.length, end);
  let name = raw;
  if (raw.includes('%')) {
    try {
      name = decodeURIComponent(raw);
    } catch {
      // a malformed escape stays as it is (and can never be a valid name)
    }
  }
  // `.` and `..` are path steps, not names: a URL parser would leave the prefix with them.
  return name === '.' || name === '..' ? undefined : name;
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

export class EndpointHandler {
  readonly #endpoints: EndpointService;
  readonly #journal: Journal;
  readonly #onUnexpectedError: EndpointHandlerOptions['onUnexpectedError'];

  constructor(options: EndpointHandlerOptions) {
    this.#endpoints = options.endpoints;
    this.#journal = options.journal;
    this.#onUnexpectedError = options.onUnexpectedError;
  }

  /**
   * Records `request` and answers it: synchronously when the endpoint is cached
   * (or the request is not a read), otherwise once the store has been asked. Never
   * rejects: failures become error answers. The journal owns `request` afterwards.
   */
  handle(request: RecordedRequest): EndpointAnswer | Promise<EndpointAnswer> {
    const name = endpointName(request.target);
    if (name === undefined) {
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
    if (!isValidName(name)) return this.#answer(name, request, undefined);
    // One synchronous Map lookup when no queue is in use; the answer is taken before
    // anything is awaited, so queued answers go out in the order requests came in.
    if (this.#endpoints.queue.pending(name)) {
      return this.#endpoints.queue.take(name).then(
        (taken) => (taken === undefined ? this.#stored(name, request) : this.#queued(name, request, taken)),
        (error: unknown) => this.#failed(error, request),
      );
    }
    return this.#stored(name, request);
  }

  /** The stored record's answer (or 404): synchronous when it is cached. */
  #stored(name: string, request: RecordedRequest): EndpointAnswer | Promise<EndpointAnswer> {
    const cached = this.#endpoints.cache.get(name);
    if (cached !== undefined) return this.#answer(name, request, cached);
    return this.#endpoints.response(name).then(
      (entry) => this.#answer(name, request, entry),
      (error: unknown) => this.#failed(error, request),
    );
  }

  #answer(name: string, request: RecordedRequest, entry: CachedResponse | undefined): EndpointAnswer {
    if (name.length <= JOURNAL_NAME_LIMIT) this.#journal.record(name, request, entry?.statusCode ?? 404);
    return this.#recordAnswer(name, request, entry);
  }

  /** A queued answer, resolved against the record; journaled with `queued: true` and its fault. */
  async #queued(name: string, request: RecordedRequest, taken: Taken): Promise<EndpointAnswer> {
    try {
      const record = this.#endpoints.cache.get(name) ?? (await this.#endpoints.response(name));
      const planned = planQueuedAnswer(name, taken.answer, record);
      this.#journal.record(name, request, planned.statusCode, { fault: planned.fault });
      return toQueuedAnswer(planned, {
        head: request.method === 'HEAD',
        release: taken.release,
        // A released hang gets what the record answers then (not journaled again).
        next: () =>
          this.#endpoints.response(name).then(
            (entry) => this.#recordAnswer(name, request, entry),
            (error: unknown) => this.#failed(error, request),
          ),
      });
    } catch (error) {
      return this.#failed(error, request);
    }
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
    this.#onUnexpectedError?.(error, { method: request.method, url: request.target });
    return errorAnswer(500, 'INTERNAL', 'internal error; see the server log', { head });
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
