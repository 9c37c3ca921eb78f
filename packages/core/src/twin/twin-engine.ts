/**
 * The generic stateful engine over an OpenAPI document (SPEC §2.19,
 * docs/twins.md): one request in, one answer out. What the twin created,
 * changed or deleted answers as it now is; what it never made answers as the
 * provider answers it (SPEC §2.20): an id it never saw is the provider's 404, a
 * list holds only what exists. With the setting's `unseen: "examples"` an id it
 * never saw and a list it never wrote answer from the document's examples, the
 * path's ids reflected (as stripe-mock does); every operation outside its
 * collections answers from the examples either way. Objects live in
 * the backend's collections (one collection a resource, per name, so per
 * namespace and on every store); the clock writes the timestamps.
 *
 * @module
 */
import { type CollectionLimits, checkCollectionSize } from '../collections/collection-input.js';
import type { CollectionStore, Collections } from '../collections/collection-store.js';
import { type Item, itemOf } from '../collections/item.js';
import { seedOf } from '../random/seeded-random.js';
import { MockpointError } from '../registry/errors.js';
import { DEFAULT_LIMITS } from '../registry/limits.js';
import { addedNames } from './twin-additions.js';
import { ParamProblem, readParams, TooLong, type TwinParams } from './twin-body.js';
import { conditional } from './twin-conditional.js';
import { type DocumentItem, type DocumentList, documentItem, documentList, membersOf } from './twin-document.js';
import { type ExampleContext, exampleOf, liveOption } from './twin-example.js';
import { checkExpand, ExpandProblem, expandAnswer } from './twin-expand.js';
import type {
  ActionOutcome,
  FlowEffect,
  FlowError,
  FlowKit,
  FlowState,
  FlowTools,
  OwnRequest,
  TwinChange,
  TwinEvents,
  TwinFlows,
} from './twin-flows.js';
import { IdempotencyKeys, rolling } from './twin-idempotency.js';
import { filterByQuery, type Page, PageProblem, pageOf, pagesOf, withPage } from './twin-lists.js';
import type { MatchedOperation, TwinModel, TwinResource } from './twin-model.js';
import type { DeliveryMembers, Handed } from './twin-outbox.js';
import { type KeptChange, type KeptEvent, type KeptTarget, keepChange, keptChanges } from './twin-outbox-kept.js';
import { documentedJson, documentedText, emptyList, namingParams, responseSchema } from './twin-outside.js';
import { ownState } from './twin-own.js';
import { previousAttributes } from './twin-previous.js';
import { errorBody, type TwinProfile } from './twin-profile.js';
import { TwinRates } from './twin-rate-limit.js';
import {
  counted,
  counts,
  hasMembers,
  keyFieldOf,
  memberHolding,
  memberPicked,
  type Related,
  sharing,
  withMembers,
} from './twin-related.js';
import { keyed, requestId, stamped, withErrorMembers } from './twin-request-ids.js';
import { matchesSearch, parseSearch, SearchProblem } from './twin-search.js';
import type { TwinUnseen } from './twin-setting.js';
import { isKnownVersion, newestVersion, requestVersion, unknownVersion } from './twin-versions.js';

/** One request, as the twin reads it. */
export interface TwinRequest {
  method: string;
  /** The path below the twin's root (`/v1/customers`). */
  path: string;
  /** The query string, without `?`. */
  query: string;
  body: string;
  /** The body's bytes, when they may not be UTF-8 text (a GitHub release asset's upload). @default `body`'s */
  bytes?: Uint8Array;
  /** The twin's root as the request reached it, with scheme and host ({@link OwnRequest.root}). @default none */
  root?: string;
  header(name: string): string | undefined;
  /** Told each event the request's changes emit (`mockpoint trigger` reads what it made). @default none told */
  onEvent?: EventHeard;
}

/** Told one event a change emitted: its type and the event (Stripe's `event`, GitHub's payload). */
export type EventHeard = (type: string, event: Record<string, unknown>) => void;

/** What a request's changes carry to their events: who is told of them, the API version they are in. */
/** An operation of a flows' view, as the collection it shows answers it. */
interface Viewed {
  /** The request's own operation (`/v1/customers/{customer}/payment_methods`). */
  asked: MatchedOperation;
  matched: MatchedOperation;
  target: TwinResource;
  where: readonly [string, string][];
}

interface Asked {
  onEvent?: EventHeard | undefined;
  /** The request's API version (twin-versions.ts). @default the profile's newest */
  version?: string | undefined;
  /** The twin's root as the request reached it (what {@link TwinFlows.keyed} reads). */
  root?: string | undefined;
}

/** The twin's answer. */
export interface TwinAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Bytes answered in place of `body` (a GitHub release asset's download), in `headers`' `content-type`. */
  bytes?: Uint8Array;
}

/** A stored object found by its id, and the size of its stored text. */
interface Found {
  object: Record<string, unknown>;
  size: number;
}

/** How a stored object is kept: its id, the ids of the path above it, whether it was deleted. */
interface Stored {
  id: string;
  scope: string;
  deleted: boolean;
  object: Record<string, unknown>;
}

/** Most objects one collection of a twin holds. */
const MAX_OBJECTS = 10_000;
const ID_LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** What makes a twin: its model, profile, flows, and where it keeps its objects. */
export interface TwinParts {
  name: string;
  model: TwinModel;
  profile: TwinProfile;
  flows: TwinFlows | undefined;
  /** What an id or list the twin never made answers (the setting's `unseen`). @default 'missing' */
  unseen?: TwinUnseen;
  collections: CollectionStore;
  now: () => number;
  /** The most JSON an answer with `expand` may hold, in bytes. @default `DEFAULT_LIMITS.maxCollectionBytes` */
  maxAnswerBytes?: number;
  /** Runs a change in its turn: one change of the name at a time. @default run at once */
  inTurn?: <T>(run: () => Promise<T>) => Promise<T>;
  /** The limits every collection write is held to (`--max-collection-items`, `--max-collection-bytes`). @default none */
  limits?: CollectionLimits;
  /** Hands a delivery (`POST /api/deliveries`'s members as JSON texts) to the delivery engine: `mockpoint trigger --to`'s. @default none sent */
  deliver?: (members: ReadonlyMap<string, string>) => Promise<unknown>;
  /**
   * Leaves the deliveries of a change's events to the subscribers for after the answer
   * (twin-outbox.ts: handed to the delivery engine in order, a refusal counted), with the id of
   * the `_outbox` entry that keeps them until then (twin-outbox-kept.ts). @default events kept, none sent
   */
  handOff?: (deliveries: readonly Handed[], kept: string) => Promise<void>;
  /**
   * The delivery engine's own check of a receiver's URL (webhook/delivery-target.ts), throwing
   * its refusal: a webhook endpoint the twin could never send to is refused when it is made or
   * changed, by the same rule as its deliveries. @default every URL taken
   */
  checkTarget?: (url: unknown) => void;
}

class Refusal extends Error {
  constructor(readonly error: FlowError) {
    super(error.message);
  }
}

/** What one request's flows wrote besides its own change: other objects' changes, and snapshots. */
interface Written {
  effects: FlowEffect[];
  /** By object id, by event type: the object as it was at that event ({@link FlowKit.snapshot}). */
  shots: Map<string, Record<string, Record<string, unknown>>>;
}

/** Most effects and most snapshots one request's flows write. */
const MAX_WRITTEN = 100;

function written(): Written {
  return { effects: [], shots: new Map() };
}

export class TwinEngine {
  readonly #parts: TwinParts;
  readonly #keys: IdempotencyKeys;
  readonly #tools: FlowTools;
  /** The profile's own rate limit, counted per token (`undefined`: none). */
  readonly #rates: TwinRates | undefined;
  /** What each list operation of the document says of its answer (twin-document.ts), read on first use. */
  readonly #lists = new WeakMap<object, DocumentList>();
  readonly #items = new WeakMap<object, DocumentItem | null>();

  constructor(parts: TwinParts) {
    this.#parts = parts;
    this.#keys = new IdempotencyKeys(parts.collections, parts.name, parts.limits);
    this.#tools = { now: parts.now, newId: (prefix) => this.#newId(prefix) };
    const limit = parts.profile.rateLimit;
    this.#rates = limit === undefined ? undefined : new TwinRates(limit);
  }

  /** Whether what the twin never made answers from the document's examples (`unseen: "examples"`). */
  get #examples(): boolean {
    return this.#parts.unseen === 'examples';
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
  async storedObjects(resource: TwinResource): Promise<Record<string, unknown>[]> {
    return ((await this.#stored(resource)) ?? []).filter((item) => !item.deleted).map((item) => item.object);
  }

  /** A new id in the profile's form (`evt_…`). */
  newId(prefix: string): string {
    return this.#newId(prefix);
  }

  /**
   * The document's example of an object of the collection at `template`, as its read answers it,
   * under the id `id`: what `mockpoint trigger` sends of an event no flow makes.
   */
  exampleObject(template: string, id: string): Record<string, unknown> {
    const read = this.#parts.model.operations.find((op) => op.action === 'read' && op.resource?.template === template);
    if (read === undefined) return {};
    const last = read.params.at(-1);
    const { value } = this.#example({ op: read, values: last === undefined ? {} : { [last]: id } });
    return isRecord(value) ? value : {};
  }

  /**
   * Emits events of `types` about `change` as a change of the twin does (kept,
   * sent to every subscriber), each told to `heard`: what `mockpoint trigger`
   * sends of an event no flow of the twin makes.
   */
  announce(types: readonly string[], change: TwinChange, heard?: EventHeard): Promise<void> {
    return this.#emit({ ...change, events: [...types] }, { onEvent: heard });
  }

  /** Hands one event to the delivery engine for one receiver; its refusal (a host not allowed) is the caller's. */
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

  async deliverOne(target: KeptTarget, type: string, event: Record<string, unknown>): Promise<unknown> {
    const events = this.#parts.flows?.events;
    if (this.#parts.deliver === undefined || events === undefined) return undefined;
    return this.#parts.deliver(
      deliveryMembers(target, JSON.stringify(event), events.scheme, events.headers?.(type, event)),
    );
  }

  /**
   * Hands off, in order, the deliveries a process before this one kept in the twin's
   * `_outbox` and never handed off (it was killed first): each event's text read again from
   * the events collection, one gone from there since counted as refused (`TWIN_EVENT_GONE`).
   * Runs in the twin's turn, so a change after it queues its deliveries behind these.
   */
  resume(): Promise<void> {
    const handOff = this.#parts.handOff;
    const events = this.#parts.flows?.events;
    if (handOff === undefined || events === undefined) return Promise.resolve();
    const run = async () => {
      const read = await this.#parts.collections.get(this.#parts.name);
      const changes = keptChanges(read);
      if (changes.length === 0) return;
      const kept = this.#parts.model.resources.find((resource) => resource.template === events.eventsTemplate);
      const texts = new Map<string, string>();
      for (const item of (kept === undefined ? undefined : read.get(kept.key)) ?? []) {
        const stored = item.value as unknown as Stored;
        texts.set(stored.id, JSON.stringify(stored.object));
      }
      for (const change of changes) {
        const deliveries: Handed[] = [];
        for (const event of change.events) {
          const data = event.data ?? texts.get(event.id);
          for (const target of event.to) {
            deliveries.push(
              data === undefined
                ? new MockpointError(
                    'TWIN_EVENT_GONE',
                    `event ${event.id} (${event.type}) left the twin's events (the newest ${MAX_OBJECTS} are kept; a reset or delete empties them) before the daemon, stopped meanwhile, handed its delivery to ${String(target.url)} to the delivery engine; it is not sent. Send it again with \`mockpoint trigger\`, or stop the daemon gracefully (SIGTERM), which hands everything off first`,
                  )
                : // An event kept before its headers were: the type's alone.
                  deliveryMembers(target, data, events.scheme, event.headers ?? events.headers?.(event.type)),
            );
          }
        }
        await handOff(deliveries, change.id);
      }
    };
    const inTurn = this.#parts.inTurn;
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
   * Refuses a write that would take `collection` past the limits of a
   * collection write, in the provider's own error form (Stripe's `400`
   * `invalid_request_error`, GitHub's `422`).
   */
  #fits(collection: string, items: readonly Item[] | undefined, replace: { at: number; item: Item }): void {
    const limits = this.#parts.limits;
    if (limits === undefined) return;
    try {
      checkCollectionSize(collection, items ?? [], limits, replace);
    } catch (error) {
      if (!(error instanceof MockpointError)) throw error;
      throw new Refusal({
        status: this.#parts.flows?.invalidStatus ?? 400,
        type: 'invalid_request_error',
        code: 'collection_too_large',
        message: `This twin keeps its objects in the name's collections, held to the daemon's limits: ${error.message}. Send less, or raise --max-collection-bytes / --max-collection-items.`,
      });
    }
  }

  /**
   * The answer to `request` with the headers every answer of the profile carries: its request
   * id, its rate limit's (a request past it refused), a `GET`'s `ETag` (`304` when it matches).
   */
  async #handle(request: TwinRequest): Promise<TwinAnswer> {
    const { profile } = this.#parts;
    const ids = profile.requestIds;
    const id = ids === undefined ? undefined : requestId(ids, (prefix, length) => this.#newId(prefix, length));
    const rates = this.#rates;
    const taken = rates?.take(credentialOf(request), this.#parts.now());
    let answer =
      rates !== undefined && taken?.allowed === false
        ? this.#stamped(this.#error(rates.refusal(taken)), id)
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
      this.#checkAuth(request);
      const named = requestVersion(this.#parts.profile, (name) => request.header(name));
      if (typeof named === 'object') throw new Refusal(named);
      version = named;
    } catch (error) {
      const refusal = refusalOf(error);
      if (refusal === undefined) throw error;
      return this.#stamped(this.#error(refusal), id);
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
      if (matched === undefined) throw new Refusal(this.#unrecognized(request));
      template = matched.op.template;
      const params = readParams(
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
      this.#checkEndpoint(matched, params);
      const header = this.#parts.profile.idempotencyHeader;
      const key = header === undefined || request.method !== 'POST' ? undefined : request.header(header);
      if (key === undefined || key === '')
        return this.#stamped(await this.#answer(matched, params, request, asked), id);
      const answer = await this.#keys.once(
        key,
        `${request.method} ${request.path}\n${request.body}`,
        async () => this.#stamped(await this.#answer(matched, params, request, asked), id),
        (message) => this.#stamped(this.#error({ status: 400, type: 'idempotency_error', message }), id),
      );
      return keyed(answer, id, ids);
    } catch (error) {
      const tooLong = this.#parts.flows?.tooLong;
      const refusal =
        error instanceof TooLong && tooLong !== undefined && template !== undefined
          ? tooLong(template, error.param, error.max)
          : refusalOf(error);
      if (refusal === undefined) throw error;
      return this.#stamped(this.#error(refusal), id);
    }
  }

  /** `answer` as the answer to the request of `id`: its `Request-Id`, an error's `doc_url` (twin-request-ids.ts). */
  #stamped(answer: TwinAnswer, id: string | undefined): TwinAnswer {
    return stamped(answer, id, this.#parts.profile.requestIds, this.#parts.flows, this.#parts.now());
  }

  #checkAuth(request: TwinRequest): void {
    const auth = this.#parts.profile.auth;
    if (auth === undefined) return;
    const given = request.header('authorization') ?? '';
    const [, scheme = '', token = ''] = /^(\S+)\s+(\S+)$/.exec(given) ?? [];
    const taken = auth.schemes.find((one) => one.toLowerCase() === scheme.toLowerCase());
    let key = taken === undefined ? '' : token;
    if (taken === 'Basic') key = (atobSafe(key).split(':')[0] ?? '').trim();
    if (key === '' || !key.startsWith(auth.bearerPrefix)) {
      throw new Refusal({
        status: 401,
        type: 'invalid_request_error',
        message:
          key === ''
            ? `You did not provide an API key. Send it as Authorization: ${auth.schemes[0]} ${auth.bearerPrefix}….`
            : `Invalid API Key provided: keys of this twin start with ${auth.bearerPrefix}.`,
      });
    }
  }

  /** Refuses a webhook endpoint's `url` the delivery engine would never send to (Stripe: `url_invalid`). */
  #checkEndpoint(matched: MatchedOperation, params: TwinParams): void {
    const check = this.#parts.checkTarget;
    const template = this.#parts.flows?.events?.endpointsTemplate;
    const resource = matched.op.resource;
    if (check === undefined || resource === undefined || resource.template !== template) return;
    if (matched.op.action !== 'create' && matched.op.action !== 'update') return;
    const events = this.#parts.flows?.events;
    const url = events?.target === undefined ? params.body.url : events.target(params.body).url;
    if (url === undefined || (matched.op.action === 'update' && url === '')) return;
    try {
      check(url);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new Refusal(
        events?.badTarget?.(message) ?? {
          status: 400,
          type: 'invalid_request_error',
          code: 'url_invalid',
          param: 'url',
          message: `Invalid URL: ${message.slice(0, 300)}.`,
        },
      );
    }
  }

  #unrecognized(request: TwinRequest): FlowError {
    return {
      status: 404,
      type: 'invalid_request_error',
      message: `Unrecognized request URL (${request.method}: ${request.path.slice(0, 200)}).`,
    };
  }

  #error(error: FlowError): TwinAnswer {
    let body = errorBody(this.#parts.profile, error);
    if (error.extra !== undefined) body = withErrorMembers(body, error.extra);
    return { status: error.status, headers: { 'content-type': 'application/json' }, body };
  }

  #json(status: number, value: unknown, headers: Record<string, string> = {}): TwinAnswer {
    return { status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(value) };
  }

  #ctx(): ExampleContext {
    return { doc: this.#parts.model.doc, now: this.#parts.now(), timestamps: this.#parts.profile.timestamps.format };
  }

  /**
   * The tools of one request's flows: the effects and snapshots it writes are kept in `into`; the
   * request's API version `version` (the newest when it named none).
   */
  #kit(into: Written, version?: string, values: Record<string, string> = {}): FlowKit {
    let shots = 0;
    const { profile } = this.#parts;
    return {
      ...this.#tools,
      values,
      read: (kind) => this.#ownState().read(kind),
      version: version ?? newestVersion(profile),
      examples: this.#examples,
      checkVersion: (value, param) =>
        isKnownVersion(profile.versions, value) ? undefined : unknownVersion(profile, String(value), param),
      find: (id) => this.#find(id),
      objects: async (template, values) => {
        const resource = this.#parts.model.resources.find((one) => one.template === template);
        if (resource === undefined) return [];
        if (values === undefined) return this.storedObjects(resource);
        const scope = this.#scopeOf(resource, values);
        const stored = (await this.#stored(resource)) ?? [];
        return stored.filter((item) => !item.deleted && item.scope === scope).map((item) => item.object);
      },
      example: (template) => this.#fresh(template),
      write: (effect) => {
        if (into.effects.length < MAX_WRITTEN) into.effects.push(effect);
      },
      // A copy as a write makes one: the flow goes on changing the object.
      snapshot: (type, object) => {
        if (shots >= MAX_WRITTEN) return;
        shots++;
        const id = String(object.id);
        const states = into.shots.get(id) ?? {};
        states[type] = structuredClone(object);
        into.shots.set(id, states);
      },
    };
  }

  /** A new object of the collection at `template`, as a create with nothing sent fills it (no id). */
  #fresh(template: string): Record<string, unknown> {
    const create = this.#parts.model.operations.find(
      (op) => op.action === 'create' && op.resource?.template === template,
    );
    if (create === undefined) return {};
    const { value } = this.#example({ op: create, values: {} });
    const object = isRecord(value) ? value : {};
    this.#filled(object, this.#fields({ op: create, values: {} }));
    for (const field of this.#parts.profile.timestamps.created) if (field in object) object[field] = this.#stamp();
    return object;
  }

  /** Stores the effects a flow wrote (`after` or not) and emits their events, in order. */
  async #settle(into: Written, after: boolean, asked: Asked): Promise<void> {
    for (const effect of into.effects) {
      if ((effect.after === true) !== after) continue;
      const resource = this.#parts.model.resources.find((one) => one.template === effect.template);
      if (resource === undefined) continue;
      const scoped = effect.values !== undefined;
      const id = String(effect.object[scoped ? this.#keyField(resource) : 'id']);
      const scope = scoped ? this.#scopeOf(resource, effect.values) : '';
      const previous = await this.#parts.collections.update(this.#parts.name, resource.key, (items) => {
        const stored: Stored = { id, scope, deleted: false, object: effect.object };
        const item = itemOf(JSON.stringify(stored));
        const same = (one: Stored) => one.id === id && (!scoped || (one.scope === scope && !one.deleted));
        const index =
          effect.kind === 'updated' ? (items ?? []).findIndex((one) => same(one.value as unknown as Stored)) : -1;
        if (index !== -1) {
          this.#fits(resource.key, items, { at: index, item });
          const was = items?.[index]?.value as unknown as Stored | undefined;
          return { edit: { set: index, item }, result: previousAttributes(was?.object ?? {}, effect.object) };
        }
        if ((items?.length ?? 0) >= MAX_OBJECTS) return { result: undefined };
        this.#fits(resource.key, items, { at: -1, item });
        return { edit: { append: item }, result: undefined };
      });
      await this.#emit(
        {
          kind: effect.kind,
          template: effect.template,
          object: effect.object,
          before: effect.before,
          ...(scoped ? { values: effect.values } : {}),
          ...this.#statesOf(into, String(effect.object.id)),
          ...(previous === undefined ? {} : { previous }),
          ...(effect.events === undefined ? {} : { events: effect.events }),
        },
        asked,
      );
    }
  }

  /** The snapshots a request's flows took of the object `id`, as a change carries them. */
  #statesOf(into: Written, id: string): Pick<TwinChange, 'states'> {
    const states = into.shots.get(id);
    return states === undefined ? {} : { states };
  }

  /** The object as the provider answers it (the flows' `shown`), a copy when it differs. */
  #shown(resource: TwinResource, object: Record<string, unknown>): Record<string, unknown> {
    const shown = this.#parts.flows?.shown;
    return shown === undefined ? object : shown(resource.template, object);
  }

  #newId(prefix: string, length = this.#parts.profile.ids.length): string {
    const bytes = new Uint8Array(length);
    crypto.getRandomValues(bytes);
    let id = prefix;
    for (const byte of bytes) id += ID_LETTERS[byte % ID_LETTERS.length];
    return id;
  }

  #stamp(): number | string {
    const now = this.#parts.now();
    return this.#parts.profile.timestamps.format === 'unix' ? Math.floor(now / 1000) : new Date(now).toISOString();
  }

  async #answer(
    matched: MatchedOperation,
    params: TwinParams,
    request: TwinRequest,
    asked: Asked,
  ): Promise<TwinAnswer> {
    const { op } = matched;
    const resource = op.resource;
    const expand = this.#parts.profile.expand;
    const expanding = expand === undefined ? undefined : (params.query[expand] ?? params.body[expand]);
    // Refused before anything changes: too many paths, or one too deep.
    if (Array.isArray(expanding)) checkExpand(expanding.map(String));
    const owned = await this.#owned(matched, params, request, asked);
    if (!('op' in owned)) return owned;
    let answer: TwinAnswer;
    try {
      const taken = owned.body === undefined ? params : { ...params, body: owned.body };
      answer = await this.#dispatch(owned, resource, taken, request, asked);
    } catch (error) {
      await owned.refused?.();
      throw error;
    }
    if (answer.status >= 300) await owned.refused?.();
    const paths = Array.isArray(expanding) ? expanding.map(String) : [];
    const rendered = this.#parts.flows?.rendered;
    const version = asked.version ?? newestVersion(this.#parts.profile);
    if (answer.status >= 300 || !isJson(answer)) return answer;
    // Parsed and written again only when something in it changes (a 16 MB list of customers is not).
    // (With expand[] always: an object it adds may be one the text did not hold.)
    const rendering =
      rendered !== undefined &&
      version !== undefined &&
      (paths.length > 0 || (this.#parts.flows?.renders?.(answer.body) ?? true));
    if (paths.length === 0 && !rendering) return answer;
    let value = JSON.parse(answer.body) as unknown;
    if (paths.length > 0) {
      const maxBytes = this.#parts.maxAnswerBytes ?? DEFAULT_LIMITS.maxCollectionBytes;
      // The collections read once for the whole expansion (on LevelDB and Redis each read parses them all).
      const collections = await this.#parts.collections.get(this.#parts.name);
      const find = async (id: string) => (await this.#findSized(id, collections))?.object;
      await expandAnswer(value, paths, find, maxBytes, answer.body.length);
    }
    // The objects in the request's API version (Stripe's shapes by version, stripe-shapes.ts).
    if (rendering) value = rendered(value, version, paths);
    return { ...answer, body: JSON.stringify(value) };
  }

  /**
   * What the provider's flows answer of what they keep themselves (twin-own.ts), else the
   * operation for the collections, its path's parameters as they keep its items (and the body
   * they take, where the flows changed it).
   */
  async #owned(
    matched: MatchedOperation,
    params: TwinParams,
    request: TwinRequest,
    asked: Asked,
  ): Promise<TwinAnswer | (MatchedOperation & { body?: Record<string, unknown>; refused?: () => Promise<void> })> {
    const own = this.#parts.flows?.own;
    const changes: TwinChange[] = [];
    const sent: OwnRequest = {
      body: params.body,
      query: params.query,
      raw: request.query,
      bytes: request.bytes ?? new TextEncoder().encode(request.body),
      header: (name) => request.header(name),
      root: request.root,
    };
    const answer = own === undefined ? undefined : await own(matched, sent, this.#ownState(changes));
    if (answer === undefined) return matched;
    // The events of what the flows changed, in the order they told them (none for a refusal).
    if (!('error' in answer)) for (const change of changes) await this.#emit(change, asked);
    if ('values' in answer) {
      const values = { ...matched.values, ...answer.values };
      return {
        ...matched,
        values,
        ...(answer.body === undefined ? {} : { body: answer.body }),
        ...(answer.refused === undefined ? {} : { refused: answer.refused }),
        ...(answer.shown === undefined ? {} : { shown: { ...matched.values, ...answer.shown } }),
      };
    }
    if ('error' in answer) throw new Refusal(answer.error);
    if ('list' in answer) {
      const page = pageOf(this.#parts.profile, answer.list, params.query, request.path, request.query);
      const body = answer.wrap === undefined ? page.items : answer.wrap(page.items, page.total);
      return this.#json(200, body, page.link === undefined ? {} : { link: page.link });
    }
    if ('bytes' in answer) return { status: answer.status, headers: answer.headers, body: '', bytes: answer.bytes };
    if (answer.body === undefined) return { status: answer.status, headers: answer.headers ?? {}, body: '' };
    return this.#json(answer.status, answer.body, answer.headers);
  }

  /**
   * What the provider's flows keep of their own, in the name's collections; `changes` gathers what
   * they tell; `read`, the collections read once already, is what a flow that only reads reads.
   */
  #ownState(changes: TwinChange[] = [], read?: Collections): FlowState {
    return ownState({
      collections: this.#parts.collections,
      name: this.#parts.name,
      tools: this.#tools,
      examples: this.#examples,
      changes,
      ...(read === undefined ? {} : { read }),
      objects: async (template, values) => {
        const resource = this.#parts.model.resources.find((one) => one.template === template);
        if (resource === undefined) return [];
        const scope = this.#scopeOf(resource, values);
        const stored = (await this.#stored(resource, read)) ?? [];
        return stored.filter((item) => !item.deleted && item.scope === scope).map((item) => item.object);
      },
      objectsByScope: async (template) => {
        const byScope = new Map<string, Record<string, unknown>[]>();
        const resource = this.#parts.model.resources.find((one) => one.template === template);
        if (resource === undefined) return byScope;
        const collections = read ?? (await this.#parts.collections.get(this.#parts.name));
        const live = ((await this.#stored(resource, collections)) ?? []).filter((item) => !item.deleted);
        const objects = counted(this.#related, resource, live, collections);
        for (const [index, item] of live.entries()) {
          const list = byScope.get(item.scope) ?? [];
          list.push(objects[index] as Record<string, unknown>);
          byScope.set(item.scope, list);
        }
        return byScope;
      },
      example: (method, template) => {
        const op = this.#parts.model.operations.find((one) => one.method === method && one.template === template);
        const value = op === undefined ? undefined : this.#example({ op, values: {} }).value;
        return isRecord(value) ? value : {};
      },
      amend: async (template, values, id, edit) => {
        const resource = this.#parts.model.resources.find((one) => one.template === template);
        if (resource === undefined) return undefined;
        const scope = this.#scopeOf(resource, values);
        const which = (stored: Stored) => !stored.deleted && stored.id === id && stored.scope === scope;
        const changed = await this.#change(resource, which, (stored) => {
          edit(stored.object);
          return stored;
        });
        return changed?.object;
      },
      fits: (collection, items, replace) => this.#fits(collection, items, replace),
      full: (message) => new Refusal({ status: 400, type: 'invalid_request_error', message }),
    });
  }

  #dispatch(
    matched: MatchedOperation,
    resource: TwinResource | undefined,
    params: TwinParams,
    request: TwinRequest,
    asked: Asked,
  ): Promise<TwinAnswer> {
    const view = this.#viewOf(matched);
    if (view !== undefined) return this.#viewed(view, params, request);
    if (resource === undefined) return this.#other(matched, params, asked);
    switch (matched.op.action) {
      case 'create':
        return this.#create(matched, resource, params, asked);
      case 'read':
        return this.#read(matched, resource);
      case 'update':
        return this.#update(matched, resource, params, asked);
      case 'delete':
        return this.#deleteOrAct(matched, resource, params, asked);
      case 'list':
        return this.#listOrOwned(matched, resource, params, request, asked);
      case 'search':
        return this.#list(matched, resource, params, request);
      default:
        return this.#other(matched, params, asked);
    }
  }

  /**
   * A `GET` of a path of the flows' `views`: the collection it shows, the operation there it is
   * (its list, or its read of the path's last id), and the fields its items must have.
   */
  #viewOf(matched: MatchedOperation): Viewed | undefined {
    const views = this.#parts.flows?.views;
    if (views === undefined || matched.op.method !== 'GET') return undefined;
    const template = matched.op.template;
    const key = Object.hasOwn(views, template) ? template : template.slice(0, template.lastIndexOf('/'));
    const view = Object.hasOwn(views, key) ? views[key] : undefined;
    const target = this.#parts.model.resources.find((one) => one.template === view?.of);
    if (view === undefined || target === undefined) return undefined;
    const action = key === template ? 'list' : 'read';
    const op = this.#parts.model.operations.find((one) => one.resource === target && one.action === action);
    if (op === undefined) return undefined;
    const where = Object.entries(view.where).map(([field, param]): [string, string] => [
      field,
      matched.values[param] ?? '',
    ]);
    const id = matched.values[matched.op.params.at(-1) ?? ''] ?? '';
    return {
      asked: matched,
      matched: { op, values: action === 'read' ? { [target.idParam]: id } : {} },
      target,
      where,
    };
  }

  /** A view's list (its items, paged as the collection's) or read (`404` for an item not in it). */
  async #viewed(view: Viewed, params: TwinParams, request: TwinRequest): Promise<TwinAnswer> {
    const { matched, target, where } = view;
    // Below an object the twin does not hold (`/v1/customers/cus_x/payment_methods`): its 404.
    const owner = this.#ownerOf(view.asked);
    if (owner !== undefined && owner !== target) await this.#heldOrMissing(view.asked, owner);
    if (matched.op.action === 'list') return this.#list(matched, target, params, request, where);
    const id = matched.values[target.idParam] as string;
    const stored = (await this.#stored(target))?.find(
      (item) => item.id === id && !item.deleted && where.every(([field, value]) => item.object[field] === value),
    );
    if (stored !== undefined) return this.#json(200, this.#shown(target, await this.#view(target, stored)));
    if (!this.#examples) throw new Refusal(this.#missing(target, id));
    const { status, value } = this.#example(matched);
    return this.#json(status, value);
  }

  /** The scope of a path: the values of its parameters other than the item's id. */
  #scope(matched: MatchedOperation, resource: TwinResource): string {
    return matched.op.params
      .filter((param) => param !== resource.idParam)
      .map((param) => matched.values[param])
      .join('/');
  }

  async #stored(resource: TwinResource, read?: Collections): Promise<Stored[] | undefined> {
    const collections = read ?? (await this.#parts.collections.get(this.#parts.name));
    return collections.get(resource.key)?.map((item) => item.value as unknown as Stored);
  }

  /** One stored item as answered: its counts read. */
  async #view(resource: TwinResource, stored: Stored): Promise<Record<string, unknown>> {
    if (!counts(this.#related, resource)) return stored.object;
    const read = await this.#parts.collections.get(this.#parts.name);
    return counted(this.#related, resource, [stored], read)[0] ?? stored.object;
  }

  /** What the twin's items read of other collections (twin-related.ts). */
  get #related(): Related {
    return { resources: this.#parts.model.resources, profile: this.#parts.profile, flows: this.#parts.flows };
  }

  /** A stored object by its id, in whichever collection holds it (for the flows). */
  async #find(id: string): Promise<Record<string, unknown> | undefined> {
    return (await this.#findSized(id))?.object;
  }

  /** A stored object by its id and the size of its stored text (for `expand`, which counts it). */
  async #findSized(id: string, read?: Collections): Promise<Found | undefined> {
    const collections = read ?? (await this.#parts.collections.get(this.#parts.name));
    for (const resource of this.#parts.model.resources) {
      if (resource.prefix !== '' && !id.startsWith(resource.prefix)) continue;
      const found = collections.get(resource.key)?.find((item) => (item.value as unknown as Stored).id === id);
      if (found !== undefined && !(found.value as unknown as Stored).deleted)
        return { object: (found.value as unknown as Stored).object, size: found.text.length };
    }
    return undefined;
  }

  /**
   * The example object of an operation's answer, its id the path's (as
   * stripe-mock reflects it). A write whose answer the document does not
   * describe (Petstore's `POST /pet`) answers its collection's item.
   */
  #example(matched: MatchedOperation): { status: number; value: unknown } {
    const { status, schema: own } = responseSchema(this.#parts.model.doc, matched.op.operation);
    const resource = matched.op.resource;
    // An answer around the item (`{ status, result }`): the item made from its own schema, wrapped by #wrapped.
    const item = this.#itemOf(matched);
    let schema = item === undefined ? own : item.schema;
    if (schema === undefined && resource !== undefined && matched.op.action !== 'delete') {
      const read = this.#parts.model.operations.find((op) => op.action === 'read' && op.resource === resource);
      if (read !== undefined) schema = responseSchema(this.#parts.model.doc, read.operation).schema;
    }
    const ctx = this.#ctx();
    // Outside the collections, the document's own example where it gives one (GitHub's `GET /`).
    const documented = resource === undefined ? documentedJson(ctx.doc, matched.op.operation) : undefined;
    const value = documented?.value ?? (schema === undefined ? {} : exampleOf(ctx, liveOption(ctx, schema)));
    const last = matched.op.params.at(-1);
    // The field the path's id names: `id`, or the profile's key of the collection (a label's `name`).
    const field = resource !== undefined && last === resource.idParam ? this.#keyField(resource) : 'id';
    if (last !== undefined && typeof value === 'object' && value !== null && field in value) {
      // The path's id, as the example's type: a number where the document's ids are numbers.
      const record = value as Record<string, unknown>;
      const given = matched.values[last] as string;
      const numeric = typeof record[field] === 'number' && /^-?\d{1,15}$/.test(given);
      // A documented example's id is replaced only by one of its type (an org's number, not its login).
      if (numeric || documented === undefined || typeof record[field] === 'string') {
        record[field] = numeric ? Number(given) : given;
      }
    }
    return { status, value };
  }

  /**
   * The fields the object an operation answers has (`undefined`: its schema does not say), and the
   * parameters the provider takes today beyond its document (twin-additions.ts), kept as sent.
   */
  #fields(matched: MatchedOperation): Set<string> | undefined {
    const item = this.#itemOf(matched);
    const schema =
      item === undefined ? responseSchema(this.#parts.model.doc, matched.op.operation).schema : item.schema;
    if (schema === undefined) return undefined;
    const ctx = this.#ctx();
    const live = liveOption(ctx, schema);
    const properties = live.properties;
    if ((typeof properties !== 'object' || properties === null) && !Array.isArray(live.allOf)) return undefined;
    // Its `allOf` parts' members too (Revert's items: `allOf` of their shared and own fields).
    return new Set([...Object.keys(membersOf(ctx.doc, live)), ...addedNames(matched.op.operation)]);
  }

  /**
   * Where a document twin's create, read or update answer holds the item when it is an envelope
   * around it (twin-document.ts), read once an operation; an open member (`result: {}`) holds
   * what the collection's read answers there. `undefined`: the answer is the item.
   */
  #itemOf(matched: MatchedOperation): DocumentItem | undefined {
    const { op } = matched;
    if (this.#parts.flows !== undefined || op.resource === undefined) return undefined;
    if (op.action !== 'create' && op.action !== 'read' && op.action !== 'update') return undefined;
    let found = this.#items.get(op.operation);
    if (found === undefined) {
      const doc = this.#parts.model.doc;
      const own = documentItem(doc, op.operation) ?? null;
      const read = this.#parts.model.operations.find((one) => one.action === 'read' && one.resource === op.resource);
      if (own !== null && own.schema === undefined && read !== undefined && read.operation !== op.operation) {
        const schema = documentItem(doc, read.operation)?.schema ?? responseSchema(doc, read.operation).schema;
        if (schema !== undefined) own.schema = schema;
      }
      found = own;
      this.#items.set(op.operation, found);
    }
    return found ?? undefined;
  }

  /** `value`, an item, in the envelope the operation's answer puts it in (`{ status: "ok", result }`), else bare. */
  #wrapped(matched: MatchedOperation, value: unknown): unknown {
    const item = this.#itemOf(matched);
    if (item === undefined) return value;
    const { schema } = responseSchema(this.#parts.model.doc, matched.op.operation);
    const ctx = this.#ctx();
    const example = schema === undefined ? {} : exampleOf(ctx, liveOption(ctx, schema));
    const envelope: Record<string, unknown> = isRecord(example) ? example : {};
    envelope[item.member] = value;
    return envelope;
  }

  /**
   * `object` with what was sent: each sent field the object has kept exact,
   * `metadata` merged (an empty value removes a key).
   */
  #apply(object: Record<string, unknown>, sent: Record<string, unknown>, fields: Set<string> | undefined): void {
    for (const [key, value] of Object.entries(sent)) {
      if (key === this.#parts.profile.expand) continue;
      if (fields !== undefined && !fields.has(key)) continue;
      // An empty `metadata` clears every key (Stripe: "post an empty value to metadata").
      if (key === 'metadata' && value === '') object.metadata = {};
      else if (key === 'metadata' && typeof value === 'object' && value !== null && !Array.isArray(value)) {
        const merged = { ...((object.metadata as Record<string, unknown> | null) ?? {}) };
        for (const [name, text] of Object.entries(value)) {
          if (text === '') delete merged[name];
          else merged[name] = text;
        }
        object.metadata = merged;
      } else {
        object[key] = value === '' && this.#parts.profile.body === 'form' ? null : value;
      }
    }
  }

  /** Each of the profile's `emptyObjects` the object's schema has, `{}` where nothing was sent (Stripe's `metadata`). */
  #filled(object: Record<string, unknown>, fields: Set<string> | undefined): void {
    for (const field of this.#parts.profile.emptyObjects) {
      if (fields?.has(field) === true && (object[field] === undefined || object[field] === null)) object[field] = {};
    }
  }

  async #create(
    matched: MatchedOperation,
    resource: TwinResource,
    params: TwinParams,
    asked: Asked,
  ): Promise<TwinAnswer> {
    // Below an object the twin does not hold (`/v1/customers/cus_x/tax_ids`): the provider's 404.
    const parent = this.#ownerOf(matched);
    if (parent !== undefined && parent !== resource) await this.#heldOrMissing(matched, parent);
    const invalid = this.#parts.flows?.check?.(resource.template, params.body);
    if (invalid !== undefined) throw new Refusal(invalid);
    const { status, value } = this.#example(matched);
    const object = (isRecord(value) ? value : {}) as Record<string, unknown>;
    const fields = this.#fields(matched);
    this.#apply(object, params.body, fields);
    this.#filled(object, fields);
    const sequence = this.#sequential(object);
    object.id = this.#newId(resource.prefix);
    for (const field of this.#parts.profile.timestamps.created) if (field in object) object[field] = this.#stamp();
    for (const field of this.#parts.profile.timestamps.updated) if (field in object) object[field] = this.#stamp();
    const into = written();
    const kit = this.#kit(into, asked.version, matched.values);
    const early = await this.#parts.flows?.creating?.(resource.template, object, params.body, kit);
    if (early !== undefined) throw new Refusal(early);
    const refused = this.#parts.flows?.created?.(resource.template, object, params.body, kit);
    const scope = this.#scope(matched, resource);
    // The collections numbering with this one (the profile's `within`): read before the write,
    // which runs in the name's turn, so no change of theirs comes between.
    const shares = sharing(this.#related, resource);
    const read = shares.length === 0 ? undefined : await this.#parts.collections.get(this.#parts.name);
    const shared = shares.flatMap((one) => read?.get(one.key) ?? []);
    const made = await this.#parts.collections.update(this.#parts.name, resource.key, (items) => {
      if ((items?.length ?? 0) >= MAX_OBJECTS) {
        throw new Refusal({
          status: 400,
          type: 'invalid_request_error',
          message: `This twin holds at most ${MAX_OBJECTS} objects of one kind.`,
        });
      }
      // A sequence's next number is taken inside the change, so that two creates never share one.
      const kept = sequence ? { ...object, id: nextNumber(items) } : object;
      const keyField = this.#keyField(resource);
      // GitHub's issue `number` counts per repository (the scope), apart from the global `id`.
      if (keyField === 'number') kept.number = Math.max(nextNumber(items, scope), nextNumber(shared, scope));
      this.#parts.flows?.keyed?.(resource.template, kept, matched.shown ?? matched.values, asked.root);
      const key = kept[keyField];
      if (keyField !== 'id' && (items ?? []).some((item) => sameKey(item.value, scope, String(key)))) {
        throw new Refusal(this.#taken(resource, keyField));
      }
      // Counted in the change, so that two creates at once never pass the provider's limit.
      const over = this.#subscriptionLimit(resource, items, scope, kept);
      if (over !== undefined) throw new Refusal(over);
      const stored: Stored = { id: String(key), scope, deleted: false, object: kept };
      const item = itemOf(JSON.stringify(stored));
      this.#fits(resource.key, items, { at: -1, item });
      return { edit: { append: item }, result: kept };
    });
    await this.#settle(into, false, asked);
    await this.#emit(
      {
        kind: 'created',
        template: resource.template,
        object: made,
        values: matched.values,
        ...this.#statesOf(into, String(made.id)),
      },
      asked,
    );
    await this.#settle(into, true, asked);
    if (refused !== undefined) throw new Refusal(refused);
    return this.#json(this.#parts.profile.createStatus ?? status, this.#wrapped(matched, this.#shown(resource, made)));
  }

  /**
   * The provider's refusal of one more webhook subscription of `scope` past its limit (`undefined`:
   * room, or none); `except`: the index of the subscription `made` changes, not counted.
   */
  #subscriptionLimit(
    resource: TwinResource,
    items: readonly Item[] | undefined,
    scope: string,
    made: Record<string, unknown>,
    except = -1,
  ): FlowError | undefined {
    const events = this.#parts.flows?.events;
    if (events?.limit === undefined || resource.template !== events.endpointsTemplate) return undefined;
    const live = (items ?? [])
      .filter((_, at) => at !== except)
      .map((item) => item.value as unknown as Stored)
      .filter((stored) => !stored.deleted && stored.scope === scope)
      .map((stored) => stored.object);
    return events.limit(live, made);
  }

  /**
   * Which stored item the path names: its id, and for a collection keyed by another field
   * (GitHub's issue `number`) also the ids above it.
   */
  #which(
    matched: MatchedOperation,
    resource: TwinResource,
    scope = this.#scope(matched, resource),
  ): (stored: Stored) => boolean {
    const id = matched.values[resource.idParam] as string;
    if (this.#keyField(resource) === 'id') return (stored) => stored.id === id;
    return (stored) => stored.id === id && stored.scope === scope;
  }

  /** The field the path's id of `resource` reads (`id` unless the profile's `ids.keys` says another). */
  #keyField(resource: TwinResource): string {
    return keyFieldOf(this.#parts.profile, resource);
  }

  #taken(resource: TwinResource, field: string): FlowError {
    const what = resource.objectName ?? resource.template.split('/').at(-1) ?? 'object';
    return {
      status: 422,
      type: 'invalid_request_error',
      code: 'already_exists',
      message: `Validation Failed: a ${what} with this ${field} already exists.`,
      param: field,
      extra: { errors: [{ resource: what, code: 'already_exists', field }] },
    };
  }

  /** Whether ids count 1, 2, 3: the profile says so, or (`auto`) the document's id is a number. */
  #sequential(example: Record<string, unknown>): boolean {
    const style = this.#parts.profile.ids.style;
    return style === 'sequence' || (style === 'auto' && typeof example.id === 'number');
  }

  /**
   * The provider's 404 of an id it does not hold: Stripe's `No such customer: 'cus_x'` where its
   * error carries a code, else the HTTP reason (GitHub's `Not Found`); a document's twin names the
   * collection and the id in plain words.
   */
  #missing(resource: Pick<TwinResource, 'template' | 'objectName'>, id: string): FlowError {
    const what = resource.objectName ?? resource.template.split('/').at(-1) ?? 'object';
    const coded = this.#parts.profile.error.includes('{code}');
    const shown = id.slice(0, 200);
    let message = coded ? `No such ${what}: '${shown}'` : 'Not Found';
    if (this.#parts.flows === undefined) message = `Not found: ${resource.template} holds no item '${shown}'.`;
    return { status: 404, type: 'invalid_request_error', code: 'resource_missing', message, param: 'id' };
  }

  #tombstone(resource: TwinResource, stored: Stored): Record<string, unknown> {
    return { id: stored.object.id, object: resource.objectName ?? 'object', deleted: true };
  }

  async #read(matched: MatchedOperation, resource: TwinResource): Promise<TwinAnswer> {
    const id = matched.values[resource.idParam] as string;
    const which = this.#which(matched, resource);
    const read = await this.#parts.collections.get(this.#parts.name);
    const stored = picked(await this.#stored(resource, read), which);
    if (stored === undefined) {
      const member = this.#member(resource, which, read);
      if (member !== undefined) return this.#json(200, member);
      if (!this.#examples) throw new Refusal(this.#missing(resource, id));
      const { status, value } = this.#example(matched);
      return this.#json(status, this.#wrapped(matched, value));
    }
    if (!stored.deleted) {
      return this.#json(200, this.#wrapped(matched, this.#shown(resource, await this.#view(resource, stored))));
    }
    if (this.#parts.profile.deleted === 'tombstone') return this.#json(200, this.#tombstone(resource, stored));
    throw new Refusal(this.#missing(resource, id));
  }

  /** Changes the stored object of `resource` that `which` picks; `undefined` when the twin does not hold it. */
  async #change(
    resource: TwinResource,
    which: (stored: Stored) => boolean,
    change: (stored: Stored, was: Stored) => Stored,
    limited = false,
  ): Promise<Stored | undefined> {
    return this.#parts.collections.update(this.#parts.name, resource.key, (items) => {
      const index = pickedIndex(items?.map((item) => item.value as unknown as Stored) ?? [], which);
      if (items === undefined || index === -1) return { result: undefined };
      const stored = items[index]?.value as unknown as Stored;
      if (stored.deleted) throw new Refusal(this.#missing(resource, stored.id));
      const next = change(structuredClone(stored), stored);
      // Moved to a key another live item of its scope has: the provider's `already_exists`.
      if (next.id !== stored.id && items.some((item, at) => at !== index && sameKey(item.value, next.scope, next.id))) {
        throw new Refusal(this.#taken(resource, this.#keyField(resource)));
      }
      // Held to the provider's subscription limit as a create is (GitHub: 20 hooks an event), the others counted.
      const over = limited ? this.#subscriptionLimit(resource, items, stored.scope, next.object, index) : undefined;
      if (over !== undefined) throw new Refusal(over);
      const item = itemOf(JSON.stringify(next));
      this.#fits(resource.key, items, { at: index, item });
      return { edit: { set: index, item }, result: next };
    });
  }

  async #update(
    matched: MatchedOperation,
    resource: TwinResource,
    params: TwinParams,
    asked: Asked,
    asMember = false,
  ): Promise<TwinAnswer> {
    const invalid = this.#parts.flows?.checkUpdate?.(resource.template, params.body);
    if (invalid !== undefined) throw new Refusal(invalid);
    const fields = this.#fields(matched);
    // What the provider's flows write beside the update (Stripe's proration invoice items): kept
    // with it, before or after its events as each says; dropped when the update is not made.
    const into = written();
    const body = await this.#amended(matched, resource, params.body, into, asked);
    let before: unknown;
    let previous: Record<string, unknown> = {};
    const changed = await this.#change(
      resource,
      this.#which(matched, resource),
      (stored, was) => {
        before = stored.object.state;
        const keyField = this.#keyField(resource);
        const hadKey = keyField in stored.object;
        const keyBefore = stored.object[keyField];
        this.#apply(stored.object, body, fields);
        // The body never moves an item (a GitHub issue's `number` sent in a PATCH is not taken): only a flow does.
        if (hadKey) stored.object[keyField] = keyBefore;
        else delete stored.object[keyField];
        this.#parts.flows?.updating?.(resource.template, stored.object, before, this.#tools, body);
        for (const field of this.#parts.profile.timestamps.updated) {
          if (field in stored.object) stored.object[field] = this.#stamp();
        }
        previous = previousAttributes(was.object, stored.object);
        // A flow that changes the key field (GitHub's label `new_name`) moves the item to it.
        const key = stored.object[keyField];
        if (keyField !== 'id' && key !== keyBefore && (typeof key === 'string' || typeof key === 'number')) {
          stored.id = String(key);
        }
        return stored;
      },
      true,
    );
    if (changed !== undefined) {
      const object = await this.#view(resource, changed);
      const { template } = resource;
      await this.#settle(into, false, asked);
      await this.#emit({ kind: 'updated', template, object, before, previous, values: matched.values }, asked);
      await this.#settle(into, true, asked);
      const shown = this.#shown(resource, object);
      // Changed through its host's path (a pull request's `…/issues/{n}`): answered as one of the host.
      return this.#json(
        200,
        asMember ? (this.#parts.flows?.member?.(template, shown) ?? shown) : this.#wrapped(matched, shown),
      );
    }
    // Not held: a collection `within` it may hold that number (read only now, not on every update).
    const member = asMember ? undefined : await this.#memberTarget(matched, resource);
    if (member !== undefined) return this.#update(member.matched, member.resource, params, asked, true);
    if (!this.#examples) throw new Refusal(this.#missing(resource, matched.values[resource.idParam] as string));
    const { status, value } = this.#example(matched);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      this.#apply(value as Record<string, unknown>, params.body, fields);
    }
    return this.#json(status, this.#wrapped(matched, value));
  }

  /**
   * What an update of a stored object applies: `sent`, or what the provider's flows make of it,
   * in the request's API version; what they write goes `into` the update's effects.
   */
  async #amended(
    matched: MatchedOperation,
    resource: TwinResource,
    sent: Record<string, unknown>,
    into: Written,
    asked: Asked,
  ): Promise<Record<string, unknown>> {
    const amending = this.#parts.flows?.amending;
    if (amending === undefined) return sent;
    const stored = picked(await this.#stored(resource), this.#which(matched, resource));
    if (stored === undefined || stored.deleted) return sent;
    const outcome = await amending(
      resource.template,
      structuredClone(stored.object),
      sent,
      this.#kit(into, asked.version, matched.values),
    );
    if (outcome !== undefined && 'error' in outcome) throw new Refusal(outcome.error);
    return outcome?.sent ?? sent;
  }

  async #delete(matched: MatchedOperation, resource: TwinResource, asked: Asked): Promise<TwinAnswer> {
    const id = matched.values[resource.idParam] as string;
    const removed = await this.#change(resource, this.#which(matched, resource), (stored) => ({
      ...stored,
      deleted: true,
    }));
    if (removed !== undefined)
      await this.#emit(
        { kind: 'deleted', template: resource.template, object: removed.object, values: matched.values },
        asked,
      );
    if (removed === undefined && !this.#examples) return this.#error(this.#missing(resource, id));
    if (this.#parts.profile.deleted === 'no-content') {
      return removed === undefined && (await this.#stored(resource)) !== undefined
        ? this.#error(this.#missing(resource, id))
        : { status: 204, headers: {}, body: '' };
    }
    if (removed !== undefined) return this.#json(200, this.#tombstone(resource, removed));
    const { status, value } = this.#example(matched);
    return this.#json(status, value);
  }

  async #list(
    matched: MatchedOperation,
    resource: TwinResource,
    params: TwinParams,
    request: TwinRequest,
    where: readonly [string, string][] = [],
  ): Promise<TwinAnswer> {
    const search =
      matched.op.action === 'search'
        ? parseSearch(typeof params.query.query === 'string' ? params.query.query : '')
        : undefined;
    const read = await this.#parts.collections.get(this.#parts.name);
    // A list the twin never wrote: empty, or (`unseen: "examples"`) the document's example.
    const all = (await this.#stored(resource, read)) ?? (this.#examples ? undefined : []);
    const { status, value } = this.#example(matched);
    if (all === undefined) return this.#json(status, value);
    const scope = this.#scope(matched, resource);
    const inScope = (items: readonly Stored[]) => items.filter((item) => !item.deleted && item.scope === scope);
    let live = withMembers(this.#related, resource, counted(this.#related, resource, inScope(all), read), scope, read);
    // A view's items: those whose fields are its path's (a customer's payment methods).
    if (where.length > 0) live = live.filter((item) => where.every(([field, value]) => item[field] === value));
    if (this.#parts.profile.list.order === 'newest') live = live.reverse();
    const said = this.#listOf(matched);
    const pages = pagesOf(this.#parts.profile.pagination, said);
    if (search !== undefined) {
      live = live.filter((item) => matchesSearch(item, search));
    } else {
      const skip = new Set([pages.limit, 'expand', 'page', pages.style === 'page' ? pages.page : pages.after]);
      if (pages.style === 'cursor') skip.add(pages.before);
      const listed = this.#parts.flows?.list?.(resource.template, live, params.query);
      if (listed !== undefined && 'error' in listed) throw new Refusal(listed.error);
      for (const used of listed?.used ?? []) skip.add(used);
      live = filterByQuery(listed?.items ?? live, params.query, skip);
    }
    live = live.map((item) => this.#shown(resource, item));
    const page = pageOf(this.#parts.profile, live, params.query, request.path, request.query, said);
    const headers: Record<string, string> = page.link === undefined ? {} : { link: page.link };
    const style = this.#parts.profile.list.style;
    if (style === 'bare' || (style === 'document' && said?.items === undefined)) {
      return this.#json(200, page.items, headers);
    }
    const envelope = (typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {}) as Record<
      string,
      unknown
    >;
    if (style === 'document' && said !== undefined) {
      return this.#json(
        status,
        this.#documentPage(envelope, said, page, pages.style === 'page' ? '' : pages.after, request),
        headers,
      );
    }
    envelope.data = page.items;
    envelope.has_more = page.hasMore;
    if ('url' in envelope) envelope.url = request.path;
    if ('total_count' in envelope) envelope.total_count = page.total;
    if ('next_page' in envelope) envelope.next_page = null;
    return this.#json(200, envelope, headers);
  }

  /** What the document's list operation says of its answer and pages, read once an operation (`undefined`: the profile says). */
  #listOf(matched: MatchedOperation): DocumentList | undefined {
    const { profile } = this.#parts;
    if (profile.list.style !== 'document' && profile.pagination.style !== 'document') return undefined;
    const operation = matched.op.operation;
    let said = this.#lists.get(operation);
    if (said === undefined) {
      said = documentList(this.#parts.model.doc, operation);
      this.#lists.set(operation, said);
    }
    return said;
  }

  /**
   * A page in the envelope the document's list operation describes: its array member the page,
   * its cursor member the next page's cursor (`null` on the last), its has-more, total and
   * next-link members filled where it has them.
   */
  #documentPage(
    envelope: Record<string, unknown>,
    said: DocumentList,
    page: Page,
    after: string,
    request: TwinRequest,
  ): Record<string, unknown> {
    envelope[said.items as string] = page.items;
    const next = page.next ?? null;
    if (said.cursor !== undefined) envelope[said.cursor] = next;
    if (said.hasMore !== undefined) envelope[said.hasMore] = page.hasMore;
    if (said.total !== undefined) envelope[said.total] = page.total;
    if (said.nextLink !== undefined) {
      envelope[said.nextLink] =
        next === null || after === '' ? null : `${request.path}?${withPage(request.query, after, next)}`;
    }
    return envelope;
  }

  async #other(matched: MatchedOperation, params: TwinParams, asked: Asked): Promise<TwinAnswer> {
    const owner = this.#ownerOf(matched);
    const acted = owner === undefined ? undefined : await this.#act(matched, owner, params, asked);
    if (acted !== undefined) return acted;
    // An action on a member (a pull request's number below `issues/`) is not taken as one on the
    // host: refused, not answered from the example with nothing kept.
    if (owner !== undefined && matched.op.method !== 'GET') await this.#heldOrMissing(matched, owner, false);
    const example = this.#example(matched);
    const own = this.#parts.flows?.outside?.(matched, example.value);
    if (own !== undefined) return this.#json(example.status, own);
    const unseen = await this.#unseenOutside(matched, owner);
    if (unseen !== undefined) return unseen;
    const text = documentedText(this.#parts.model.doc, matched.op.operation);
    if (text !== undefined) return { status: text.status, headers: { 'content-type': text.type }, body: text.body };
    return this.#json(example.status, example.value);
  }

  /**
   * Refuses with the provider's 404 an operation on or below an object of `owner` the twin does
   * not hold (`POST /v1/payment_intents/pi_x/confirm`, a GitHub issue's lock or comment), as the
   * provider does, where no flow answered it (a test payment method's attach); with `unseen:
   * "examples"` nothing is refused and the document's example answers.
   */
  async #heldOrMissing(matched: MatchedOperation, owner: TwinResource, members = true): Promise<void> {
    if (this.#examples) return;
    const which = this.#which(matched, owner, this.#scopeOf(owner, matched.values));
    // The collections read once for the object and, where it may be one, its member.
    const read = await this.#parts.collections.get(this.#parts.name);
    const held = (await this.#stored(owner, read))?.some((item) => which(item) && !item.deleted) === true;
    if (held || (members && this.#member(owner, which, read) !== undefined)) return;
    throw new Refusal(this.#missing(owner, String(matched.values[owner.idParam])));
  }

  /**
   * Where a change of an item of `resource` the twin does not hold goes when a collection `within`
   * it holds one of that number (GitHub: a pull request's title, labels or lock changed through
   * `…/issues/{issue_number}`): that collection, the path's values naming its item too, so the
   * change is kept on the pull request and its events are the pull request's.
   */
  async #memberTarget(
    matched: MatchedOperation,
    resource: TwinResource,
  ): Promise<{ matched: MatchedOperation; resource: TwinResource } | undefined> {
    if (!hasMembers(this.#related, resource)) return undefined;
    const which = this.#which(matched, resource, this.#scopeOf(resource, matched.values));
    const read = await this.#parts.collections.get(this.#parts.name);
    const held = memberHolding(this.#related, resource, which, read);
    if (held === undefined) return undefined;
    const { member } = held;
    const id = matched.values[resource.idParam] as string;
    // The member's own path parameters, so its scope is read as its own (`owner/repo`).
    const params = [...member.template.matchAll(/\{([^}]+)\}/g)].map((found) => found[1] as string);
    const op = { ...matched.op, params: [...params, member.idParam] };
    return { matched: { ...matched, op, values: { ...matched.values, [member.idParam]: id } }, resource: member };
  }

  /** The item of a collection `within` `resource` that `which` picks (a pull request as an issue), shown as one of it. */
  #member(
    resource: TwinResource,
    which: (stored: Stored) => boolean,
    read: Collections,
  ): Record<string, unknown> | undefined {
    return hasMembers(this.#related, resource) ? memberPicked(this.#related, resource, which, read) : undefined;
  }

  /**
   * A `GET` outside the collections of what the twin never made, with the profile's `implied`
   * and `unseen: "missing"` (twin-outside.ts): a list empty, an object its path names by a
   * parameter not implied the provider's 404 — unless the twin holds the item it is below and
   * no other parameter names it (a hook's `config`); `undefined`: answered from the document.
   */
  async #unseenOutside(matched: MatchedOperation, owner: TwinResource | undefined): Promise<TwinAnswer | undefined> {
    const implied = this.#parts.profile.implied;
    if (implied === undefined || this.#examples || matched.op.method !== 'GET') return undefined;
    const { status, schema } = responseSchema(this.#parts.model.doc, matched.op.operation);
    const example = () => this.#example(matched).value;
    const empty = schema === undefined ? undefined : emptyList(this.#ctx(), schema, example);
    if (empty !== undefined) return this.#json(status, empty);
    const naming = namingParams(matched.op.params, implied);
    if (naming.length === 0) return undefined;
    if (owner !== undefined) {
      const above = [...owner.template.matchAll(/\{([^}]+)\}/g)].map((found) => found[1]);
      const which = this.#which(matched, owner, this.#scopeOf(owner, matched.values));
      const held = (await this.#stored(owner))?.some((item) => which(item) && !item.deleted) === true;
      if (held && naming.every((param) => param === owner.idParam || above.includes(param))) return undefined;
    }
    const named = matched.values[naming.at(-1) as string] ?? '';
    throw new Refusal(this.#missing(owner ?? { template: matched.op.template, objectName: undefined }, named));
  }

  /**
   * A list, or one below a stored object that the provider's flows answer from the object itself
   * (Stripe's `GET /v1/invoices/{invoice}/lines`: the invoice's `lines`).
   */
  async #listOrOwned(
    matched: MatchedOperation,
    resource: TwinResource,
    params: TwinParams,
    request: TwinRequest,
    asked: Asked,
  ): Promise<TwinAnswer> {
    const owner = this.#parts.flows?.acting === undefined ? undefined : this.#ownerOf(matched);
    const owned =
      owner === undefined || owner === resource ? undefined : await this.#act(matched, owner, params, asked);
    return owned ?? this.#list(matched, resource, params, request);
  }

  /** A `DELETE` the provider's flows answer as an action (Stripe's canceled Subscription), else a delete. */
  async #deleteOrAct(
    matched: MatchedOperation,
    resource: TwinResource,
    params: TwinParams,
    asked: Asked,
  ): Promise<TwinAnswer> {
    const acted =
      this.#parts.flows?.acting === undefined ? undefined : await this.#act(matched, resource, params, asked);
    return acted ?? this.#delete(matched, resource, asked);
  }

  /**
   * Answers an action of the provider's flows on the stored item of `owner`
   * the path names: the item changed, its effects stored, their events
   * emitted; `undefined` when no flow takes it.
   */
  async #act(
    matched: MatchedOperation,
    owner: TwinResource,
    params: TwinParams,
    asked: Asked,
  ): Promise<TwinAnswer | undefined> {
    const flows = this.#parts.flows;
    if (flows?.action === undefined && flows?.acting === undefined) return undefined;
    // The owner's place is its own path's (`…/issues/{issue_number}/labels/{name}`: not the `name`).
    const which = this.#which(matched, owner, this.#scopeOf(owner, matched.values));
    const stored = (await this.#stored(owner))?.find((item) => which(item) && !item.deleted);
    // Not held: a collection `within` it may hold that number (a pull request's labels or lock).
    const member = stored === undefined ? await this.#memberTarget(matched, owner) : undefined;
    if (member !== undefined) return this.#act(member.matched, member.resource, params, asked);
    const given = () => (stored === undefined ? undefined : structuredClone(stored.object));
    const into = written();
    const kit = this.#kit(into, asked.version, matched.values);
    let outcome: ActionOutcome | undefined = await flows.acting?.(matched, given(), params.body, kit);
    if (outcome === undefined && matched.op.action !== 'delete') {
      outcome = flows.action?.(matched, given(), params.body, kit);
    }
    if (outcome === undefined) return undefined;
    if ('object' in outcome) {
      const done = outcome;
      await this.#change(owner, which, (kept) => ({ ...kept, object: done.object }));
      await this.#settle(into, false, asked);
      await this.#emit(
        {
          kind: 'action',
          template: owner.template,
          object: done.object,
          before: stored?.object.status,
          values: matched.values,
          ...(stored === undefined ? {} : { previous: previousAttributes(stored.object, done.object) }),
          ...this.#statesOf(into, String(done.object.id)),
          ...(done.event === undefined ? {} : { extra: done.event }),
          ...(done.events === undefined ? {} : { events: done.events }),
        },
        asked,
      );
      await this.#settle(into, true, asked);
    }
    if (outcome.error !== undefined) throw new Refusal(outcome.error);
    const done = outcome as { object: Record<string, unknown>; answer?: unknown; status?: 204 };
    if (done.status === 204) return { status: 204, headers: {}, body: '' };
    return this.#json(200, done.answer ?? this.#shown(owner, done.object));
  }

  /**
   * Emits the provider's events of a change: each kept in its events
   * collection (listed at once), told to `heard`, and its deliveries to every
   * subscriber of this moment left to be handed to the delivery engine after
   * the answer (#71 M4: a change's answer never waits for its fan-out).
   */
  async #emit(told: TwinChange, asked: Asked): Promise<void> {
    const events = this.#parts.flows?.events;
    if (events === undefined) return;
    const types = told.events ?? events.types(told);
    if (types.length === 0) return;
    // The collections read once for the subscribers and what the payloads carry of the provider's
    // own state (the repository as kept).
    const read = await this.#parts.collections.get(this.#parts.name);
    const context = await events.context?.(told, this.#ownState([], read));
    const change = context === undefined ? told : { ...told, extra: { ...context, ...told.extra } };
    const kept = this.#parts.model.resources.find((resource) => resource.template === events.eventsTemplate);
    const hooks = this.#parts.model.resources.find((resource) => resource.template === events.endpointsTemplate);
    // A hook kept below a path (a repository's) hears only the changes below that path.
    const scope = hooks === undefined ? '' : this.#scopeOf(hooks, change.values);
    const endpoints =
      hooks === undefined
        ? []
        : ((await this.#stored(hooks, read)) ?? []).filter(
            (item) => !item.deleted && (item.scope === '' || item.scope === scope),
          );
    // The deliveries of the change's events, left for after the answer (twin-outbox.ts), in order,
    // and what keeps them until they are handed off: the events' ids and their receivers.
    const deliveries: DeliveryMembers[] = [];
    const keeping: KeptEvent[] = [];
    // In the request's API version; a change no request made (`mockpoint trigger`'s) in the newest.
    const version = asked.version ?? newestVersion(this.#parts.profile);
    const made = version === undefined ? change : { ...change, version };
    for (const type of types) {
      const event = events.event(type, change.states?.[type] ?? change.object, this.#tools, made);
      const targets = endpoints
        .map((item) => item.object)
        .filter((endpoint) => events.subscribes(endpoint, type, event));
      if ('pending_webhooks' in event) event.pending_webhooks = targets.length;
      if (kept !== undefined) {
        const stored: Stored = { id: String(event.id), scope: '', deleted: false, object: event };
        const item = itemOf(JSON.stringify(stored));
        await this.#parts.collections.update(this.#parts.name, kept.key, (items) =>
          rolling(items, item, MAX_OBJECTS, this.#parts.limits),
        );
      }
      if (this.#parts.handOff !== undefined && targets.length > 0) {
        const headers = events.headers?.(type, event);
        const whole = JSON.stringify(event);
        for (const [data, endpoints] of textsFor(event, targets, events)) {
          const to = endpoints.map(
            (endpoint) => events.target?.(endpoint) ?? { url: endpoint.url, secret: endpoint.secret },
          );
          for (const target of to) deliveries.push(deliveryMembers(target, data, events.scheme, headers));
          // An event the twin keeps is referred to by its id, unless an endpoint takes it in another
          // version of its own; one it keeps nowhere (GitHub's) is kept whole.
          const own = kept === undefined || data !== whole;
          keeping.push({
            id: String(event.id),
            type,
            to,
            ...(headers === undefined ? {} : { headers }),
            ...(own ? { data } : {}),
          });
        }
      }
      asked.onEvent?.(type, event);
    }
    const handOff = this.#parts.handOff;
    if (handOff === undefined || keeping.length === 0) return;
    // Kept before the answer: a daemon killed before the hand-off makes it after its restart.
    const entry: KeptChange = { id: crypto.randomUUID(), events: keeping };
    await keepChange(this.#parts.collections, this.#parts.name, entry, this.#parts.limits);
    await handOff(deliveries, entry.id);
  }

  /** The scope `values` give a collection's items (`octo/app` for a repository's hooks). */
  #scopeOf(resource: TwinResource, values: Record<string, string> | undefined): string {
    const params = [...resource.template.matchAll(/\{([^}]+)\}/g)].map((found) => found[1] as string);
    return params.map((param) => values?.[param] ?? '').join('/');
  }

  /** The collection whose item an action's path is below (`/v1/payment_intents/{intent}/confirm`). */
  #ownerOf(matched: MatchedOperation): TwinResource | undefined {
    const named = matched.op.operation['x-mockpoint-owner'];
    if (typeof named === 'string') {
      const found = this.#parts.model.resources.find((resource) => resource.template === named);
      if (found !== undefined && matched.values[found.idParam] !== undefined) return found;
    }
    const resources = this.#parts.model.resources;
    const owner = resources.find(
      (resource) =>
        matched.op.template.startsWith(`${resource.template}/{${resource.idParam}}/`) &&
        matched.values[resource.idParam] !== undefined,
    );
    if (owner !== undefined) return owner;
    // The document may name the id otherwise below the object than at it (Stripe's
    // `/v1/subscriptions/{subscription_exposed_id}` and `/v1/subscriptions/{subscription}/resume`):
    // the same object, its id taken under the name the collections keep it by.
    for (const resource of resources) {
      const head = `${resource.template}/{`;
      if (!matched.op.template.startsWith(head)) continue;
      const param = matched.op.template.slice(head.length, matched.op.template.indexOf('}', head.length));
      const id = matched.values[param];
      if (id === undefined || matched.op.template.charAt(head.length + param.length + 1) !== '/') continue;
      matched.values[resource.idParam] ??= id;
      return resource;
    }
    return undefined;
  }
}

/**
 * The text of `event` each of `targets` takes, with the endpoints taking it: the event as it is,
 * or as an endpoint's own API version writes it (Stripe's `api_version` of the endpoint).
 */
function textsFor(
  event: Record<string, unknown>,
  targets: readonly Record<string, unknown>[],
  events: TwinEvents,
): Map<string, Record<string, unknown>[]> {
  const texts = new Map<string, Record<string, unknown>[]>();
  for (const endpoint of targets) {
    const data = JSON.stringify(events.forEndpoint?.(event, endpoint) ?? event);
    texts.set(data, [...(texts.get(data) ?? []), endpoint]);
  }
  return texts;
}

/**
 * A delivery of `event` to `target` (`POST /api/deliveries`'s members as JSON texts), signed by
 * `scheme`, retried, with the event's `headers` and the receiver's own (GitHub's `X-GitHub-Hook-ID`).
 */
function deliveryMembers(
  target: KeptTarget,
  data: string,
  scheme: string,
  headers: Record<string, string> | undefined,
): Map<string, string> {
  const members = new Map<string, string>([
    ['url', JSON.stringify(target.url)],
    ['data', data],
    ['sign', JSON.stringify({ scheme, secret: target.secret })],
    ['retry', JSON.stringify('standard')],
  ]);
  const all = { ...headers, ...target.headers };
  if (Object.keys(all).length > 0) members.set('headers', JSON.stringify(all));
  return members;
}

/** The provider's error a request's failure answers (`undefined`: not one a request brings). */
function refusalOf(error: unknown): FlowError | undefined {
  if (error instanceof Refusal) return error.error;
  if (error instanceof SearchProblem || error instanceof ExpandProblem) {
    const param = error instanceof SearchProblem ? 'query' : 'expand';
    return { status: 400, type: 'invalid_request_error', code: error.code, message: error.message, param };
  }
  if (error instanceof ParamProblem || error instanceof PageProblem) {
    const { code } = error;
    return { status: 400, type: 'invalid_request_error', code, message: error.message, param: error.param };
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One more than the largest numeric `id` of `items` (with `scope`: their `number` within it). */
function nextNumber(items: readonly { value: unknown }[] | undefined, scope?: string): number {
  const numbers = (items ?? [])
    .map((item) => item.value as Stored)
    .filter((item) => scope === undefined || item.scope === scope);
  return (
    numbers.reduce(
      (most, item) => Math.max(most, Number(scope === undefined ? item.object.id : item.object.number) || 0),
      0,
    ) + 1
  );
}

/**
 * The index of the item `which` picks: the live one, else one deleted (its key freed and taken
 * again, a label made anew under a deleted one's name, the deleted entry stays stored before it).
 */
function pickedIndex(items: readonly Stored[], which: (stored: Stored) => boolean): number {
  const live = items.findIndex((item) => which(item) && !item.deleted);
  return live === -1 ? items.findIndex(which) : live;
}

/** The item `which` picks ({@link pickedIndex}): the live one, else one deleted; `undefined`: none. */
function picked(items: readonly Stored[] | undefined, which: (stored: Stored) => boolean): Stored | undefined {
  return items?.[pickedIndex(items, which)];
}

/** Whether a stored item is the live one of `key` in `scope`. */
function sameKey(value: unknown, scope: string, key: string): boolean {
  const stored = value as Stored;
  return !stored.deleted && stored.scope === scope && stored.id === key;
}

/** The credential of a request's `Authorization` (its last word): what a rate limit counts by. */
/** Longest credential a twin's rate limit counts by as it is; a longer one by its start, length and hash. */
const CREDENTIAL_KEY_CHARS = 200;

/** The token a request's rate limit counts by: bounded, so that 10,000 long tokens stay small. */
function credentialOf(request: TwinRequest): string {
  const token = (request.header('authorization') ?? '').trim().split(/\s+/).at(-1) ?? '';
  if (token.length <= CREDENTIAL_KEY_CHARS) return token;
  return `${token.slice(0, 100)}\u2026${token.length}:${seedOf(token).toString(16)}`;
}

function atobSafe(text: string): string {
  try {
    return atob(text);
  } catch {
    return '';
  }
}

/** Whether an answer's body is JSON (a provider's flows render only those). */
function isJson(answer: TwinAnswer): boolean {
  return answer.body !== '' && (answer.headers['content-type'] ?? '').includes('json');
}
