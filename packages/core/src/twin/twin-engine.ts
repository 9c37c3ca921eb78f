/**
 * The generic stateful engine over an OpenAPI document (docs/design.md#twins,
 * docs/twins.md): one request in, one answer out. What the twin created,
 * changed or deleted answers as it now is; what it never made answers as the
 * provider answers it (docs/design.md#twins-as-the-provider-answers): an id it never saw is the provider's 404, a
 * list holds only what exists. With the setting's `unseen: "examples"` an id it
 * never saw and a list it never wrote answer from the document's examples, the
 * path's ids reflected (as stripe-mock does); every operation outside its
 * collections answers from the examples either way. Objects live in
 * the backend's collections (one collection a resource, per name, so per
 * namespace and on every store); the clock writes the timestamps.
 *
 * This file is the way in: a request's key, rate limit, API version, idempotency key and
 * conditional `GET`, then the operation handed to the room of its job, each a file of plain
 * functions over one {@link Twin} (twin-context.ts):
 *
 * | room | file |
 * | --- | --- |
 * | reads | twin-reads.ts (and the flows' views) |
 * | writes | twin-writes.ts (create, update, delete) |
 * | lists | twin-listing.ts (paging: twin-lists.ts) |
 * | references and constraints | twin-references.ts, twin-constraints.ts |
 * | events | twin-events.ts (the flows' effects: twin-kit.ts) |
 * | versions | twin-versions.ts, twin-rendered.ts (with `expand`) |
 * | the provider's own flows and actions | twin-actions.ts, twin-state.ts |
 * | what the document says an answer is | twin-documented.ts |
 * | how objects are kept | twin-stored.ts |
 * | a request's key, what its rate limit counts by | twin-auth.ts |
 *
 * @module
 */
import { deleteOrAct, listOrOwned, other, owned, ownRequest } from './twin-actions.js';
import { TooBusy } from './twin-admission.js';
import { type Asked, type EventHeard, Refusal, refusalOf, type TwinAnswer, type TwinRequest } from './twin-answer.js';
import { checkAuth, credentialOf } from './twin-auth.js';
import { readParams, TooLong, type TwinParams } from './twin-body.js';
import { conditional } from './twin-conditional.js';
import { checkEndpoint } from './twin-constraints.js';
import { errorAnswer, newId, type Twin, type TwinParts, twinOf } from './twin-context.js';
import { exampleObject } from './twin-documented.js';
import { deliverOne, emit, resume, webhookDelivered } from './twin-events.js';
import { checkExpand } from './twin-expand.js';
import type { FlowError, TwinChange, TwinEvents } from './twin-flows.js';
import { IdempotencyKeys } from './twin-idempotency.js';
import { list } from './twin-listing.js';
import type { TwinModel } from './twin-model.js';
import type { MatchedOperation, TwinResource } from './twin-operation.js';
import type { KeptTarget } from './twin-outbox-kept.js';
import { InvalidValue } from './twin-problems.js';
import type { TwinProfile } from './twin-profile.js';
import { TwinRates } from './twin-rate-limit.js';
import { readOne, viewed, viewOf } from './twin-reads.js';
import { expanding, rendered } from './twin-rendered.js';
import { keyed, requestId, stamped } from './twin-request-ids.js';
import { liveObjects } from './twin-stored.js';
import { heldFirst } from './twin-unheld-writes.js';
import { newestVersion, requestVersion } from './twin-versions.js';
import { create, update } from './twin-writes.js';

export class TwinEngine {
  readonly #twin: Twin;
  readonly #parts: TwinParts;
  readonly #keys: IdempotencyKeys;
  /** The profile's own rate limit, counted per token (`undefined`: none). */
  readonly #rates: TwinRates | undefined;

  constructor(parts: TwinParts) {
    this.#parts = parts;
    this.#twin = twinOf(parts);
    this.#keys = new IdempotencyKeys(
      parts.collections,
      parts.name,
      parts.limits,
      parts.profile.idempotencyReplayedHeader,
    );
    const limit = parts.profile.rateLimit;
    this.#rates = limit === undefined ? undefined : new TwinRates(limit);
  }

  get profile(): TwinProfile {
    return this.#parts.profile;
  }

  /** The document's model (its collections). */
  get model(): TwinModel {
    return this.#parts.model;
  }

  /** The provider's events (`undefined`: a twin of a document sends none). */
  get events(): TwinEvents | undefined {
    return this.#parts.flows?.events;
  }

  /** The live objects of a collection the twin holds (of every scope). */
  storedObjects(resource: TwinResource): Promise<Record<string, unknown>[]> {
    return liveObjects(this.#twin, resource);
  }

  /** A new id in the profile's form (`evt_…`). */
  newId(prefix: string): string {
    return newId(this.#parts, prefix);
  }

  /**
   * The document's example of an object of the collection at `template`, as its read answers it,
   * under the id `id`: what `mockpoint trigger` sends of an event no flow makes.
   */
  exampleObject(template: string, id: string): Record<string, unknown> {
    return exampleObject(this.#twin, template, id);
  }

  /**
   * Emits events of `types` about `change` as a change of the twin does (kept,
   * sent to every subscriber), each told to `heard`: what `mockpoint trigger`
   * sends of an event no flow of the twin makes.
   */
  announce(types: readonly string[], change: TwinChange, heard?: EventHeard): Promise<void> {
    return emit(this.#twin, { ...change, events: [...types] }, { onEvent: heard });
  }

  /**
   * `value` (an event, an object) as the provider answers it in the profile's newest version: the
   * flows' `rendered` (Stripe's shapes by version, and what no answer carries left out). As it is
   * when the flows render nothing.
   */
  shown<T>(value: T): T {
    const rendered = this.#parts.flows?.rendered;
    const version = newestVersion(this.#parts.profile);
    return rendered === undefined || version === undefined ? value : (rendered(value, version, []) as T);
  }

  /** Hands one event to the delivery engine for one receiver; its refusal (a host not allowed) is the caller's. */
  deliverOne(target: KeptTarget, type: string, event: Record<string, unknown>): Promise<unknown> {
    return deliverOne(this.#parts, target, type, event);
  }

  /**
   * Hands off, in order, the deliveries a process before this one kept in the twin's `_outbox`
   * and never handed off (it was killed first), in the twin's turn (twin-events.ts).
   */
  resume(): Promise<void> {
    return resume(this.#parts);
  }

  /** A subscriber's delivery of event `id` was delivered: counted off its `pending_webhooks`, in the twin's turn. */
  delivered(id: string): Promise<void> {
    const inTurn = this.#parts.inTurn;
    const run = () => webhookDelivered(this.#parts, id);
    return inTurn === undefined ? run() : inTurn(run);
  }

  /**
   * Answers one request; never rejects for what the request brings. A request
   * that may change something (any method but GET and HEAD) runs in its turn,
   * after the name's change before it: read-modify-write flows, idempotency keys
   * and refunds are atomic on every store.
   */
  handle(request: TwinRequest): Promise<TwinAnswer> {
    const inTurn = this.#parts.inTurn;
    if (inTurn === undefined || request.method === 'GET' || request.method === 'HEAD') return this.#handle(request);
    return inTurn(() => this.#handle(request));
  }

  /**
   * `error` in the provider's own error form, with the headers every answer of
   * the profile carries (its request id): a refusal decided before the twin reads
   * the request, such as a body over the limit (pipeline/body-limit-step.ts).
   */
  refuse(error: FlowError): TwinAnswer {
    const ids = this.#parts.profile.requestIds;
    const id = ids === undefined ? undefined : requestId(ids, (prefix, length) => newId(this.#parts, prefix, length));
    return this.#stamped(errorAnswer(this.#twin, error), id);
  }

  /**
   * The answer to `request` with the headers every answer of the profile carries: its request
   * id, its rate limit's (a request past it refused), a `GET`'s `ETag` (`304` when it matches).
   */
  async #handle(request: TwinRequest): Promise<TwinAnswer> {
    const { profile } = this.#parts;
    const ids = profile.requestIds;
    const id = ids === undefined ? undefined : requestId(ids, (prefix, length) => newId(this.#parts, prefix, length));
    const rates = this.#rates;
    const taken = rates?.take(credentialOf(request), this.#parts.now());
    let answer =
      rates !== undefined && taken?.allowed === false
        ? this.#stamped(errorAnswer(this.#twin, rates.refusal(taken)), id)
        : await this.#answered(request, id);
    if (profile.etag) answer = await conditional(answer, request.method, request.header('if-none-match'));
    if (rates === undefined || taken === undefined) return answer;
    const counted = answer.status === 304 ? rates.giveBack(taken) : taken;
    return { ...answer, headers: { ...answer.headers, ...rates.headers(counted) } };
  }

  /** The answer to `request`, in the API version it names (echoed in the answer's header of the profile's `versions`). */
  async #answered(request: TwinRequest, id: string | undefined): Promise<TwinAnswer> {
    const versions = this.#parts.profile.versions;
    let version: string | undefined;
    try {
      checkAuth(this.#parts.profile, request);
      const named = requestVersion(this.#parts.profile, (name) => request.header(name));
      if (typeof named === 'object') throw new Refusal(named);
      version = named;
    } catch (error) {
      const refusal = refusalOf(error);
      if (refusal === undefined) throw error;
      return this.#stamped(errorAnswer(this.#twin, refusal), id);
    }
    const answer = await this.#answeredIn(request, id, { onEvent: request.onEvent, version, root: request.root });
    if (versions === undefined || version === undefined) return answer;
    return { ...answer, headers: { ...answer.headers, [versions.header]: version } };
  }

  async #answeredIn(request: TwinRequest, id: string | undefined, asked: Asked): Promise<TwinAnswer> {
    const ids = this.#parts.profile.requestIds;
    /** The operation's template, once matched (a provider's refusal of a string too long names it). */
    let template: string | undefined;
    try {
      const matched = this.#parts.model.match(request.method, request.path, request.query);
      if (matched === undefined) throw new Refusal(this.#parts.flows?.unknownPath ?? unrecognized(request));
      template = matched.op.template;
      const params = await this.#params(matched, request);
      if (params.problem !== undefined) {
        // The object the path names first, where the provider answers so (GitHub's 404).
        await this.#heldFirst(matched, params, request);
        // The provider's own refusals first (its words: its flows', a webhook target's), else the document's.
        const own = this.#parts.flows?.refusesFirst?.(template, request.method, params);
        if (own !== undefined) throw new Refusal(own);
        checkEndpoint(this.#twin, matched, params);
        throw params.problem;
      }
      try {
        checkEndpoint(this.#twin, matched, params);
      } catch (error) {
        await this.#heldFirst(matched, params, request);
        throw error;
      }
      const header = this.#parts.profile.idempotencyHeader;
      const key = header === undefined || request.method !== 'POST' ? undefined : request.header(header);
      if (key === undefined || key === '')
        return this.#stamped(await this.#answer(matched, params, request, asked), id);
      const answer = await this.#keys.once(
        key,
        `${request.method} ${request.path}\n${request.body}`,
        async () => this.#stamped(await this.#answer(matched, params, request, asked), id),
        (message) => this.#stamped(errorAnswer(this.#twin, { status: 400, type: 'idempotency_error', message }), id),
      );
      return keyed(answer, id, ids);
    } catch (error) {
      // The daemon's budget of expensive work was full: the provider's rate-limit refusal (twin-admission.ts).
      if (error instanceof TooBusy) return this.#stamped(error.answer, id);
      const refusal = (template === undefined ? undefined : this.#ownRefusal(template, error)) ?? refusalOf(error);
      if (refusal === undefined) throw error;
      return this.#stamped(errorAnswer(this.#twin, refusal), id);
    }
  }

  /** The request's parameters, read and typed by the document; a string past its `maxLength` refused after {@link #heldFirst}. */
  async #params(matched: MatchedOperation, request: TwinRequest): Promise<ReturnType<typeof readParams>> {
    try {
      return readParams(
        this.#parts.model.doc,
        matched.op.operation,
        {
          query: request.query,
          body: request.body,
          contentType: request.header('content-type') ?? '',
          bytes: request.bytes,
        },
        this.#parts.profile.body === 'form',
        // A document's twin holds every request to its body's `required`; a provider's, as its flows say.
        this.#parts.flows === undefined || this.#parts.flows.required === true,
      );
    } catch (error) {
      if (error instanceof TooLong) await this.#heldFirst(matched, { body: {}, query: {} }, request);
      throw error;
    }
  }

  /**
   * Refuses, as the provider does, a request whose path names what the twin does not hold, where
   * the provider answers that before a value's refusal (`missingFirst`: GitHub's 404 of a
   * repository, an issue, a branch). Asked only once a value is refused.
   */
  async #heldFirst(matched: MatchedOperation, params: TwinParams, request: TwinRequest): Promise<void> {
    if (this.#parts.flows?.missingFirst?.(matched.op.template) !== true) return;
    await heldFirst(this.#twin, matched, ownRequest(params, request));
  }

  /** The provider's own form of a value's refusal (GitHub's `422`), if its flows have one. */
  #ownRefusal(template: string, error: unknown): FlowError | undefined {
    const flows = this.#parts.flows;
    if (error instanceof TooLong) return flows?.tooLong?.(template, error.param, error.max);
    if (error instanceof InvalidValue)
      return flows?.invalidValue?.(template, error.param, error.keyword, error.message);
    return undefined;
  }

  /** `answer` as the answer to the request of `id`: its `Request-Id`, an error's `doc_url` (twin-request-ids.ts). */
  #stamped(answer: TwinAnswer, id: string | undefined): TwinAnswer {
    return stamped(answer, id, this.#parts.profile.requestIds, this.#parts.flows, this.#parts.now());
  }

  /**
   * The answer to a matched operation: what the provider's own flows answer, else the room of its
   * job's, `expand`ed and in the request's API version (twin-rendered.ts).
   */
  async #answer(
    matched: MatchedOperation,
    params: TwinParams,
    request: TwinRequest,
    asked: Asked,
  ): Promise<TwinAnswer> {
    const resource = matched.op.resource;
    const expand = expanding(this.#twin, params.query, params.body);
    // Refused before anything changes: too many paths, or one too deep.
    if (Array.isArray(expand)) checkExpand(expand.map(String));
    const own = await owned(this.#twin, matched, params, request, asked);
    if (!('op' in own)) return own;
    let answer: TwinAnswer;
    try {
      const taken = own.body === undefined ? params : { ...params, body: own.body };
      answer = await this.#dispatch(own, resource, taken, request, asked);
    } catch (error) {
      await own.refused?.();
      throw error;
    }
    if (answer.status >= 300) await own.refused?.();
    const paths = Array.isArray(expand) ? expand.map(String) : [];
    return rendered(this.#twin, answer, paths, asked.version, own.op.method);
  }

  /** The room of the operation's job. */
  #dispatch(
    matched: MatchedOperation,
    resource: TwinResource | undefined,
    params: TwinParams,
    request: TwinRequest,
    asked: Asked,
  ): Promise<TwinAnswer> {
    const twin = this.#twin;
    const view = viewOf(twin, matched);
    if (view !== undefined) return viewed(twin, view, params, request);
    if (resource === undefined) return other(twin, matched, params, asked);
    switch (matched.op.action) {
      case 'create':
        return create(twin, matched, resource, params, asked);
      case 'read':
        return readOne(twin, matched, resource);
      case 'update':
        return update(twin, matched, resource, params, asked);
      case 'delete':
        return deleteOrAct(twin, matched, resource, params, asked);
      case 'list':
        return listOrOwned(twin, matched, resource, params, request, asked);
      case 'search':
        return list(twin, matched, resource, params, request);
      default:
        return other(twin, matched, params, asked);
    }
  }
}

function unrecognized(request: TwinRequest): FlowError {
  return {
    status: 404,
    type: 'invalid_request_error',
    message: `Unrecognized request URL (${request.method}: ${request.path.slice(0, 200)}).`,
  };
}
