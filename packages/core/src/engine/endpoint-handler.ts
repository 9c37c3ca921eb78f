/**
 * "A request to `/endpoint/{name}`", once for every runtime: given the method,
 * the target, the raw headers and the body's first bytes, it runs the answer
 * pipeline (body limit → signature check → state → queue → validation → routes → twin → GraphQL schema → record → no route;
 * see `pipeline/`), records the request in the journal with the verdict and
 * returns the {@link EndpointAnswer} that an adapter sends through its sink
 * (`sink.ts`). A cached endpoint is answered synchronously. A gRPC-family
 * call walks the same steps ({@link EndpointHandler.walkCall}; its edge,
 * engine/grpc-edge.ts, says the verdict in the call's form).
 *
 * @module
 */

import { type ClientGone, type EndpointAnswer, emptyAnswer, errorAnswer } from '../answer/endpoint-answer.js';
import type { ProxySettings } from '../answer/proxy/proxy-settings.js';
import { CORS_HEADERS } from '../answer/read-response.js';
import { type EndpointTarget, splitEndpointTarget } from '../api/endpoint-target.js';
import { isValidName } from '../api/schemas.js';
import { Clock } from '../clock/clock.js';
import { rawHeader } from '../codec/raw-headers.js';
import type { CollectionLimits } from '../collections/collection-input.js';
import type { Journal } from '../journal/journal.js';
import { BY_RECORD, type RecordedRequest } from '../journal/journal-entry.js';
import { DEFAULT_LIMITS, DEFAULT_MAX_BODY_BYTES } from '../registry/limits.js';
import { MAX_TIMED_MOVES, StateTimers } from '../state/state-timers.js';
import type { WorkBudget } from '../turns/work-budget.js';
import type { TwinTable } from '../twin/twin-table.js';
import type { ReplayGuard } from '../webhook/replay-guard.js';
import type { EndpointService } from './endpoint-service.js';
import { mcpForm } from './mcp-edge.js';
import { bodyLimitStep } from './pipeline/body-limit-step.js';
import { chaosStep } from './pipeline/chaos-step.js';
import { Exchange, type PipelineParts } from './pipeline/exchange.js';
import { graphqlStep } from './pipeline/graphql-step.js';
import { callAnswer } from './pipeline/grpc-answer.js';
import { journalAnswer, journaled, journalStep } from './pipeline/journal-step.js';
import { queueStep } from './pipeline/queue-step.js';
import { rateLimitedRouteStep } from './pipeline/rate-limit-step.js';
import { noRouteStep, recordStep, recordVerdict } from './pipeline/record-step.js';
import { signatureStep } from './pipeline/signature-step.js';
import { stateStep } from './pipeline/state-step.js';
import { FIRST_BYTES, type Maybe, readsWholeBody, runSteps, type Step, type Verdict } from './pipeline/step.js';
import { twinStep } from './pipeline/twin-step.js';
import { validationStep } from './pipeline/validation-step.js';
import { failedAnswer } from './pipeline/verdicts.js';
import { type RateBucketStore, RateBuckets } from './rate-buckets.js';

/** Methods answered with the stored data at `/endpoint/{name}`. */
export const READ_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
/** Every method `/endpoint/{name}` answers (OPTIONS is the CORS preflight). */
const ALLOWED = [...READ_METHODS, 'OPTIONS'].join(', ');
const READ = new Set<string>(READ_METHODS);

/**
 * The answer pipeline, in order: each step passes or gives the verdict. A new
 * kind of answer is one step (a file in `pipeline/`) and one entry here. The
 * steps are plain: a protocol's form is its edge's, applied to the final
 * verdict (an MCP call's refusals: `mcpForm`, engine/mcp-edge.ts; a gRPC
 * call's: engine/grpc-edge.ts). Each step declares what it reads of a body
 * (`Step.reads`): {@link EndpointHandler.readsWholeBody} asks them all. The
 * verdict goes back out through the steps it passed (`Step.after`): the chaos
 * step applies its latency and bandwidth there, and the journal step, which
 * the handler puts around every pipeline (`journal-step.ts`), records it.
 */
export const PIPELINE: readonly Step[] = [
  bodyLimitStep,
  signatureStep,
  chaosStep,
  stateStep,
  queueStep,
  validationStep,
  rateLimitedRouteStep,
  twinStep,
  graphqlStep,
  recordStep,
  noRouteStep,
];

/** Options for {@link EndpointHandler}. */
export interface EndpointHandlerOptions {
  endpoints: EndpointService;
  journal: Journal;
  /** Remembers the delivery ids of validly signed requests, to tell a replay (the backend's `replays`). */
  replays: ReplayGuard;
  /** Called with a failure that is not a {@link MockpointError}; the answer is then 500 INTERNAL. */
  onUnexpectedError?: (error: unknown, request: { method: string; url: string }) => void;
  /** How proxy routes reach their upstreams. @default proxying off (every host refused), over fetch */
  proxy?: ProxySettings;
  /**
   * The body limit: also the most bytes a templated answer renders for one request.
   * @default 5242880 (5 MiB)
   */
  maxBodyBytes?: number;
  /** What a collection may hold (resource routes' writes). @default the settings table's */
  collectionLimits?: CollectionLimits;
  /** The daemon's budget of expensive work (a resource route's `_expand`s). @default none */
  workBudget?: WorkBudget;
  /** The app's open WebSocket connections, for their limit per name. @default no limit checked */
  sockets?: PipelineParts['sockets'];
  /** The clock of routes' rate limits, in ms. @default the app's clock (`clock`) */
  rateLimitNow?: () => number;
  /** Where replicas share the rate buckets (the backend's, on Redis). @default in this process */
  rateBucketStore?: RateBucketStore;
  /** The app's clock: `{{now}}` and timed state moves read it (docs/clock.md). @default real time */
  clock?: Clock;
  /** Where timed state moves wait (`setState: { after, to }`). @default its own, on {@link clock} */
  timers?: StateTimers;
  /** The names' twins (docs/twins.md). @default none */
  twins?: TwinTable;
  /**
   * The answer pipeline: a test's, with a step of its own. Its last step must always answer.
   * The journal step wraps it, whatever it holds.
   * @default PIPELINE
   */
  steps?: readonly Step[];
}

function pathOf(target: string): string {
  const q = target.indexOf('?');
  return q === -1 ? target : target.slice(0, q);
}

export class EndpointHandler {
  readonly #parts: PipelineParts;
  readonly #onUnexpectedError: EndpointHandlerOptions['onUnexpectedError'];
  /** The journal step, then the pipeline's steps: what a request walks. */
  readonly #steps: readonly Step[];
  /** The steps before the record's: a cached record answers at once when each of them passes its name. */
  readonly #beforeRecord: readonly Step[];
  /** The steps a gRPC-family call walks: the same, in order, but those that answer plain HTTP only, then {@link UNANSWERED}. */
  readonly #callSteps: readonly Step[];

  constructor(options: EndpointHandlerOptions) {
    this.#onUnexpectedError = options.onUnexpectedError;
    ({
      walk: this.#steps,
      beforeRecord: this.#beforeRecord,
      callSteps: this.#callSteps,
    } = stepListsOf(options.steps ?? PIPELINE));
    const clock = options.clock ?? new Clock();
    this.#parts = {
      endpoints: options.endpoints,
      journal: options.journal,
      replays: options.replays,
      proxy: options.proxy,
      maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
      collectionLimits: options.collectionLimits ?? {
        maxCollectionItems: DEFAULT_LIMITS.maxCollectionItems,
        maxCollectionBytes: DEFAULT_LIMITS.maxCollectionBytes,
      },
      report: (error, request) => this.reportUnexpected(error, request),
      sockets: options.sockets,
      workBudget: options.workBudget,
      rateBuckets: new RateBuckets(options.rateLimitNow ?? (() => clock.now()), options.rateBucketStore),
      clock,
      timers:
        options.timers ??
        new StateTimers({
          clock,
          states: options.endpoints.states,
          max: MAX_TIMED_MOVES,
          report: (error) => this.reportUnexpected(error, { method: 'TIMER', url: '/api/clock' }),
        }),
      maxTimers: MAX_TIMED_MOVES,
      twins: options.twins,
    };
  }

  /** The pipeline's parts, for a gRPC-family call's exchange (engine/grpc-edge.ts). */
  get parts(): PipelineParts {
    return this.#parts;
  }

  /**
   * Whether each step a call to `name` walks is known now to pass it (its
   * `passes`, as for a cached plain record): the name's definitions answer
   * (schema mode) and the call needs no {@link Exchange}.
   */
  passesCall(name: string): boolean {
    for (const step of this.#callSteps) if (step.passes?.(this.#parts, name) !== true) return false;
    return true;
  }

  /**
   * Walks a gRPC-family call's exchange (engine/grpc-edge.ts makes it) through
   * the pipeline's steps, in order, leaving out those that answer plain HTTP
   * only (`Step.answers`): the verdict of the first that answers (a call's
   * answer with no reply when none does: the name's definitions answer, schema
   * mode), back out through the steps' after-work (the chaos latency and
   * bandwidth) as an HTTP request's. Not journaled here: the call's adapter opened it
   * through the journal step, which writes its entry once the call is over, with its
   * messages both ways (`openCall`, engine/grpc-calls.ts). A
   * failure throws (or rejects).
   */
  walkCall(exchange: Exchange): Maybe<Verdict> {
    return runSteps(this.#callSteps, exchange);
  }

  /**
   * Records `request` and answers it: synchronously when the endpoint is cached
   * (or the request is not a read), otherwise once the store has been asked. Never
   * rejects: failures become error answers. The journal owns `request` afterwards.
   * `wholeBody`: the whole body when it is longer than `request.body` and the
   * adapter kept it (see {@link EndpointHandler.readsWholeBody}), for the
   * signature check and a proxy route's upstream; it is not kept. `gone`: makes
   * (when first needed) a signal that aborts once the client has left, so that
   * work done for it alone stops (a proxy route's upstream request). `split`:
   * `request.target` split already (`splitEndpointTarget`), by an adapter that
   * had to split it to route the request here.
   */
  handle(
    request: RecordedRequest,
    wholeBody?: Uint8Array,
    gone?: ClientGone,
    split?: EndpointTarget,
  ): EndpointAnswer | Promise<EndpointAnswer> {
    request.startedAt = performance.now();
    const target = split ?? splitEndpointTarget(request.target);
    if (target === undefined) {
      const path = pathOf(request.target);
      return errorAnswer(404, 'ROUTE_NOT_FOUND', `no route for ${request.method} ${path}; see GET /api/openapi.json`);
    }
    if (!READ.has(request.method)) {
      if (request.method === 'OPTIONS') return preflight(request.rawHeaders);
      return errorAnswer(
        405,
        'METHOD_NOT_ALLOWED',
        `${request.method} is not allowed on ${pathOf(request.target)}; use ${ALLOWED}`,
        { extra: { allow: ALLOWED } },
      );
    }
    // A name that cannot exist has nothing to look up; one too long for the journal is not recorded.
    if (!isValidName(target.name)) {
      const unknown = new Exchange(this.#parts, target.name, target.subpath, request, wholeBody, gone);
      return journaled(recordVerdict(unknown, undefined), unknown).answer;
    }
    // A body over the limit walks the pipeline, whose first step refuses it (body-limit-step.ts).
    const plain = request.bodyTooLarge === true ? undefined : this.#plainRecord(target, request);
    if (plain !== undefined) return plain;
    const exchange = new Exchange(this.#parts, target.name, target.subpath, request, wholeBody, gone);
    let verdict: Verdict | Promise<Verdict>;
    try {
      // MCP's edge: the verdict whatever step gave it, a refusal said as a JSON-RPC error to an MCP call.
      verdict = runSteps(this.#steps, exchange, mcpForm);
    } catch (error) {
      return failedAnswer(exchange, error);
    }
    if (verdict instanceof Promise) {
      return verdict.then(answerOf, (error: unknown) => failedAnswer(exchange, error));
    }
    return verdict.answer;
  }

  /**
   * The cached record's answer, journaled, when it is all that answers: the bare URL
   * of a name whose other steps are each known now to pass it (their `passes`: no
   * signature check, chaos, queue, routes, twin nor GraphQL schema). The same answer
   * and journal entry (by the journal step's writer) as the pipeline's walk to the
   * record step, without making its {@link Exchange} nor a verdict; `undefined`
   * for every other request (it walks the pipeline).
   */
  #plainRecord(target: EndpointTarget, request: RecordedRequest): EndpointAnswer | undefined {
    if (target.subpath !== '/') return undefined;
    const parts = this.#parts;
    const { name } = target;
    for (const step of this.#beforeRecord) if (step.passes?.(parts, name) !== true) return undefined;
    const entry = parts.endpoints.cache.get(name);
    if (entry === undefined) return undefined;
    const answer = request.method === 'HEAD' ? entry.answers.head : entry.answers.full;
    journalAnswer(parts.journal, name, request, answer, entry.statusCode, BY_RECORD);
    return answer;
  }

  /**
   * Whether an adapter should keep the whole of a body longer than the journal's
   * copy of a request to `name` (up to `maxBodyBytes`) and pass it to
   * {@link EndpointHandler.handle}: when a step of the pipeline reads it whole
   * for this name's settings (`Step.reads`: a signature check, queued answers,
   * a route that reads the body, a twin, a GraphQL schema). Asked only once a
   * body outgrows the journal's copy; a name whose settings are not known in this
   * process yet is looked up (a Promise), so a plain record answer never holds
   * more than the journal's copy. The adapter reads no further until it has the
   * answer.
   */
  readsWholeBody(name: string): boolean | Promise<boolean> {
    return isValidName(name) && readsWholeBody(this.#steps, this.#parts, name, 'request');
  }

  /**
   * Whether a step a call to `name` walks reads its whole body (`Step.reads` of the steps
   * {@link EndpointHandler.walkCall} runs, as {@link EndpointHandler.readsWholeBody} for an
   * HTTP request, asked for a `'call'`): native gRPC then reads a unary call's framed messages
   * whole before it answers (`GrpcCallInfo.body`: a signature is over the bytes as sent). Queued
   * answers and routes select a call on its decoded messages, so they do not ask for its bytes.
   */
  callReadsWholeBody(name: string): boolean | Promise<boolean> {
    return readsWholeBody(this.#callSteps, this.#parts, name, 'call');
  }

  /** Whether a rate limit's bucket in this process is drained below full (see RateBuckets.holdsAny). */
  holdsRateState(): boolean {
    return this.#parts.rateBuckets.holdsAny();
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
}

/** The last step of a call's walk: no step answered it, the name's definitions do (schema mode). */
const SCHEMA_MODE: Verdict = Object.freeze({ answer: callAnswer(undefined) });
const UNANSWERED: Step = {
  name: 'no step answered the call',
  run: () => SCHEMA_MODE,
  passes: () => true,
  reads: FIRST_BYTES,
};

/** What a pipeline's steps are taken apart into, once per pipeline (shared by every namespace's handler). */
interface StepLists {
  /** What a request walks: the journal step around the pipeline. */
  readonly walk: readonly Step[];
  readonly beforeRecord: readonly Step[];
  readonly callSteps: readonly Step[];
}

const STEP_LISTS = new WeakMap<readonly Step[], StepLists>();

function stepListsOf(steps: readonly Step[]): StepLists {
  let lists = STEP_LISTS.get(steps);
  if (lists === undefined) {
    const record = steps.indexOf(recordStep);
    lists = {
      walk: [journalStep, ...steps],
      beforeRecord: record === -1 ? steps : steps.slice(0, record),
      // A call walks the journal step once, when opened (engine/grpc-calls.ts `openCall`): not here.
      callSteps: [...steps.filter((step) => step.answers !== 'http'), UNANSWERED],
    };
    STEP_LISTS.set(steps, lists);
  }
  return lists;
}

function answerOf(verdict: Verdict): EndpointAnswer {
  return verdict.answer;
}

/** CORS preflight: open to every origin, method and header. Not journaled. */
function preflight(rawHeaders: readonly string[]): EndpointAnswer {
  return emptyAnswer(204, {
    ...CORS_HEADERS,
    'access-control-allow-methods': READ_METHODS.join(', '),
    'access-control-allow-headers': rawHeader(rawHeaders, 'access-control-request-headers') ?? '*',
    'access-control-max-age': '86400',
  });
}
