/**
 * One request to `/endpoint/{name}` on its way through the answer pipeline:
 * what came in, and what the steps learn about it once (the request as routes
 * see it, the name's routes, the route it matches, the validation outcome), so
 * that no step looks anything up twice.
 *
 * @module
 */

import type { ClientGone } from '../../answer/endpoint-answer.js';
import type { ProxySettings } from '../../answer/proxy/proxy-settings.js';
import { RequestView } from '../../answer/request-view.js';
import type { CompiledAnswer } from '../../answer/routes/compile-parts.js';
import type { RouteHit, RouteTable } from '../../answer/routes/route-table.js';
import { BODY_NOT_READ, RenderBudget, type TemplateContext } from '../../answer/template.js';
import type { ValidationMark } from '../../api/route-validation.js';
import type { StateMark, States } from '../../api/state-json.js';
import type { Clock } from '../../clock/clock.js';
import { rawHeader } from '../../codec/raw-headers.js';
import type { CollectionLimits } from '../../collections/collection-input.js';
import { graphqlRequestOf } from '../../graphql/graphql-request.js';
import type { GrpcCallInfo } from '../../grpc/grpc-reply.js';
import type { Journal } from '../../journal/journal.js';
import type { RecordedRequest } from '../../journal/journal-entry.js';
import type { StateTimers } from '../../state/state-timers.js';
import type { WorkBudget } from '../../turns/work-budget.js';
import type { TwinTable } from '../../twin/twin-table.js';
import type { ReplayGuard } from '../../webhook/replay-guard.js';
import type { EndpointService } from '../endpoint-service.js';
import type { RateBuckets } from '../rate-buckets.js';
import type { CallEnd } from './call-end.js';
import type { Maybe } from './step.js';

/** What the steps share across requests: the app's state and settings. */
export interface PipelineParts {
  readonly endpoints: EndpointService;
  readonly journal: Journal;
  readonly replays: ReplayGuard;
  /** How proxy routes reach their upstreams (`undefined`: proxying off). */
  readonly proxy: ProxySettings | undefined;
  /** The body limit: also the most bytes a templated answer renders for one request. */
  readonly maxBodyBytes: number;
  /** What a collection may hold (resource routes' writes). */
  readonly collectionLimits: CollectionLimits;
  /** Reports a failure no answer accounts for; never throws. */
  readonly report: (error: unknown, request: { method: string; url: string }) => void;
  /** The buckets of routes' rate limits (rate-limit-step.ts). */
  readonly rateBuckets: RateBuckets;
  /** The daemon's budget of expensive work (budget-admission.ts). @default none: such work runs at once */
  readonly workBudget?: WorkBudget | undefined;
  /** The open WebSocket connections, counted against their limit per name and in all (absent: no limit here). */
  readonly sockets?: {
    count(name: string): number;
    readonly maxPerName: number;
    /** Connections open in all (this app's and those sharing its total), and how many all names may hold together. */
    readonly sizeAll: number;
    readonly maxTotal: number;
    /** Events a graphql-ws subscription gets from the schema, and the ms before each (`MOCKPOINT_GRAPHQL_SUBSCRIPTION_*`). */
    readonly graphqlEvents?: number;
    readonly graphqlIntervalMs?: number;
  };
  /** The app's clock (`{{now}}`, timed state moves). */
  readonly clock: Clock;
  /** Where timed state moves wait, and how many may (`TOO_MANY_TIMERS` past it). */
  readonly timers: StateTimers;
  readonly maxTimers: number;
  /** The names' twins (docs/twins.md); absent: no name has one. */
  readonly twins?: TwinTable;
}

/**
 * A gRPC-family call (Connect, gRPC-Web, native gRPC) walking the pipeline as
 * an exchange (engine/grpc-edge.ts decodes it): how the one filter sees it,
 * and what was decoded of it.
 */
export interface ExchangeCall {
  /** The call as routes and the queue see it: its `grpc` field, its (first) message as the JSON body. */
  readonly view: RequestView;
  /** The service, method, metadata and the messages read so far. */
  readonly info: GrpcCallInfo;
}

/** The scenarios a template sees when its route looks at none. */
const NO_STATE: States = Object.freeze({});

export class Exchange {
  readonly head: boolean;
  /** The route's validation outcome (`report` mode, or no errors), for the journal. */
  validation: ValidationMark | undefined;
  /** What the endpoint's chaos does to this request's answer (chaos-step.ts): the latency drawn, the bandwidth. */
  chaos: { readonly delay: number; readonly bandwidth: number | undefined } | undefined;
  #view: RequestView | undefined;
  /** The name's routes: `undefined` until looked up, `null` for none. */
  #table: RouteTable | null | undefined;
  #selected = false;
  #hit: RouteHit | undefined;
  /** A gRPC-family call's end, which the journal step waits for to write its entry (call-end.ts). */
  callEnd: CallEnd | undefined;
  /** The scenarios the answering route looked at or moved, before and after (for the journal). */
  stateMark: StateMark | undefined;
  /** Every scenario of the endpoint after the answering route's move (`{{state.x}}`), when its routes use state. */
  states: States | undefined;

  constructor(
    readonly parts: PipelineParts,
    readonly name: string,
    readonly subpath: string,
    readonly request: RecordedRequest,
    /** The whole body when it is longer than `request.body` and the adapter kept it. */
    readonly wholeBody: Uint8Array | undefined,
    /** Makes (when first needed) a signal that aborts once the client has left. */
    readonly gone: ClientGone | undefined,
    /** Set when the exchange is a gRPC-family call's. */
    readonly call?: ExchangeCall,
  ) {
    this.head = request.method === 'HEAD';
    if (call !== undefined) this.#view = call.view;
  }

  /** The request as routes, the queue and templates see it: the whole body where it was kept. */
  get view(): RequestView {
    this.#view ??= new RequestView(this.request, this.subpath, this.wholeBody, this.parts.maxBodyBytes);
    return this.#view;
  }

  /**
   * The state for the journal: what the answering route looked at or moved, or,
   * when it looked at none, every scenario as the request found it (unmoved) —
   * whenever the state was read for this request (the name's routes or queued
   * answers use it); `undefined` otherwise (nothing read: nothing allocated).
   */
  journalState(): StateMark | undefined {
    if (this.stateMark !== undefined) return this.stateMark;
    const before = this.#view?.state?.before;
    return before === undefined ? undefined : { before, after: this.states ?? before };
  }

  /** The name's routes (`null`: none), looked up once: synchronously when they are cached. */
  routes(): Maybe<RouteTable | null> {
    if (this.#table !== undefined) return this.#table;
    const cached = this.parts.endpoints.routeTables.get(this.name);
    if (cached !== undefined) {
      this.#table = cached;
      return cached;
    }
    return this.parts.endpoints.routeTable(this.name).then((loaded) => {
      this.#table = loaded;
      return loaded;
    });
  }

  /** The first route of `table` that matches, selected once per request. */
  hit(table: RouteTable | null): RouteHit | undefined {
    if (!this.#selected) {
      this.#selected = true;
      this.#hit = table?.select(this.view);
    }
    return this.#hit;
  }

  /**
   * Selects again on the endpoint's scenarios as they are now (`states`): the
   * routes' step does so when a move found the state changed meanwhile.
   */
  selectAt(table: RouteTable, states: States): RouteHit | undefined {
    this.view.state = { before: states };
    this.#selected = false;
    return this.hit(table);
  }

  /**
   * The same request at a later moment, with nothing looked up yet: what a
   * released queued hang answers with is what would answer then.
   */
  later(): Exchange {
    return new Exchange(this.parts, this.name, this.subpath, this.request, this.wholeBody, this.gone, this.call);
  }

  /** The SSE id a reconnecting client saw last, to resume a stream after it. */
  get lastEventId(): string | undefined {
    return rawHeader(this.request.rawHeaders, 'last-event-id');
  }

  /**
   * What templates look up for this request, with a fresh render budget (the
   * body limit): the context every kind has, built on by `answer`'s kind where
   * it reads more of the request (answer/routes/compile-parts.ts).
   */
  context(params: Record<string, string>, seq: number, answer?: Pick<CompiledAnswer, 'contextOf'>): TemplateContext {
    const view = this.view;
    const budget = new RenderBudget(this.parts.maxBodyBytes);
    // A body cut at the body limit is not rendered as if it were empty: {{body…}} fails on it.
    const json = view.bodyTruncated ? BODY_NOT_READ : view.json;
    const state = this.states ?? NO_STATE;
    const variables = () => graphqlRequestOf(view)?.operations[0]?.variables;
    const now = this.parts.clock.now();
    const common: TemplateContext = {
      params,
      query: view.query,
      headers: view.headers,
      json,
      seq,
      budget,
      state,
      variables,
      now,
    };
    return answer?.contextOf === undefined ? common : answer.contextOf(common, this);
  }
}
