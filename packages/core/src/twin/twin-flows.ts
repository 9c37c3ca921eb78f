/**
 * A provider's flows beside the generic engine: what its test mode does that
 * no document says — a created object's state from what was sent, and actions
 * (`POST …/{id}/confirm`) that move a stored object. The generic engine calls
 * them by operation; a profile names its flows (`flows: "stripe"`).
 *
 * @module
 */
import type { SignatureScheme } from '../signing/signature.js';
import type { MatchedOperation } from './twin-operation.js';

/** A provider's error, in the fields the profile's error template takes, and more the provider adds. */
export interface FlowError {
  status: number;
  type: string;
  code?: string;
  message: string;
  param?: string;
  /** More members of the provider's error object (Stripe `decline_code`, `payment_intent`). */
  extra?: Record<string, unknown>;
  /** Headers of the error answer (a rate limit's `Retry-After`). @default none */
  headers?: Record<string, string>;
  /**
   * Whether it refuses an object the request's path names that the twin does not hold, in words
   * other than a 404 (GitHub's `422 Reference does not exist`): answered before a value's refusal
   * where the flows say {@link TwinFlows.missingFirst}, as a 404 of the flows is. @default false
   */
  missing?: boolean;
}

/** What a flow needs of the twin: the time, new ids. */
export interface FlowTools {
  now(): number;
  newId(prefix: string): string;
}

/**
 * A change a flow makes to another object than the one asked about (the
 * PaymentIntent a Checkout Session's completion pays, a Charge's refunded
 * amount): stored in its collection and its events emitted, in the order
 * written, before the change asked for (or after, with `after`).
 */
export interface FlowEffect {
  /** `created` appends the object; `updated` replaces the stored one of its id (appends it when none). */
  kind: 'created' | 'updated';
  /** The collection's path template (`/v1/payment_intents`). */
  template: string;
  /** The object whole, its `id` set. */
  object: Record<string, unknown>;
  /** Its status before (for its events). */
  before?: unknown;
  /** The event types it emits. @default the provider's types of the change */
  events?: string[];
  /** Emitted after the change asked for rather than before. */
  after?: boolean;
  /**
   * The path's parameters its collection keeps it under (a GitHub label a create of an issue
   * made in its repository): kept in their scope by its key field, as a create there keeps it.
   * @default no scope, by its `id`
   */
  values?: Record<string, string>;
}

/** What the provider's multi-object flows need of the twin besides {@link FlowTools}. */
export interface FlowKit extends FlowTools {
  /** A stored object by its id (any collection whose prefix fits), as it now is. */
  find(id: string): Promise<Record<string, unknown> | undefined>;
  /**
   * The live objects of the collection at `template`, as they now are, oldest first (a test clock's
   * customers); with `values`, those kept under these path parameters alone (a repository's, by
   * its `owner` and `repo` as the collections keep its items: {@link values}).
   */
  objects(template: string, values?: Readonly<Record<string, string>>): Promise<Record<string, unknown>[]>;
  /** A new object of the collection at `template`, filled from the document as a create fills one. */
  example(template: string): Record<string, unknown>;
  /**
   * Records a change to another object, made once the request's own change is; past 500 in one
   * request it throws the refusal the request answers (`too_many_writes`), nothing of it kept.
   */
  write(effect: FlowEffect): void;
  /**
   * Takes a copy of `object` as it is now for its event `type` of this request (a PaymentIntent
   * `requires_confirmation` at its `payment_intent.created`, before a confirm moves it on): that
   * event carries the copy, the object's other events the object as it is written.
   */
  snapshot(type: string, object: Record<string, unknown>): void;
  /** The API version the request is answered in (twin-versions.ts); `undefined` for a profile without versions. */
  version: string | undefined;
  /** Whether what the twin never made answers from the document's examples (`unseen: "examples"`). */
  examples: boolean;
  /** The provider's refusal of `value` as an API version, sent as `param`; `undefined` when it knows it. */
  checkVersion(value: unknown, param: string): FlowError | undefined;
  /** The path's parameters of the request, as the collections keep its items (`owner`, `repo`). */
  values: Readonly<Record<string, string>>;
  /** The records of `kind` the provider's own flows keep ({@link FlowState.read}: GitHub's git refs), as they now are. */
  read<T extends object>(kind: string): Promise<Map<string, T>>;
}

/** An action's outcome: the object as it now is (stored when the twin holds it), or an error. */
export type ActionOutcome =
  | {
      object: Record<string, unknown>;
      error?: FlowError;
      answer?: unknown;
      /** `204`: the change answered with no body (GitHub's lock of an issue). @default 200, `answer` */
      status?: 204;
      event?: Record<string, unknown>;
      /** The event types of the change. @default the provider's types of the change */
      events?: string[];
    }
  | { error: FlowError }
  /** An answer of what the twin holds, nothing changed (GitHub's labels of an issue). */
  | { answer: unknown; error?: undefined };

/** A list's items as the provider's list parameters pick and order them, and the parameters it read. */
export type ListOutcome = { items: Record<string, unknown>[]; used: readonly string[] } | { error: FlowError };

/** What a change the twin made was, for its events. */
export interface TwinChange {
  kind: 'created' | 'updated' | 'deleted' | 'action';
  /** The collection's path template (`/v1/customers`). */
  template: string;
  /** The object as it now is (for `deleted`: as it was). */
  object: Record<string, unknown>;
  /** Its status before an action (`requires_payment_method`); its `state` before an update. */
  before?: unknown;
  /** The path's parameters of the request that made the change (`owner`, `repo`). */
  values?: Record<string, string>;
  /** What an action adds to its event (GitHub's `label` of `issues.labeled`). */
  extra?: Record<string, unknown>;
  /** The event types, when the flow names them (otherwise the provider's `types`). */
  events?: string[];
  /** The API version of the request that made the change (the profile's newest for none). @default none */
  version?: string;
  /** The object as it was at some of its events, by type ({@link FlowKit.snapshot}); the others carry `object`. */
  states?: Readonly<Record<string, Record<string, unknown>>>;
  /**
   * What an update or action changed (twin-previous.ts): the prior value of each top-level field
   * that changed, a nested record as only its changed keys (Stripe's `previous_attributes`).
   */
  previous?: Record<string, unknown>;
}

/**
 * What a provider keeps of its own beside the collections (twin-own.ts: GitHub's repositories by
 * name, git refs, contents), and what it reads of the twin for them.
 */
export interface FlowState extends FlowTools {
  /** The records of `kind` the flows kept (each as the flow kept it, `T`), by key, in the order first kept. */
  read<T extends object>(kind: string): Promise<Map<string, T>>;
  /** Keeps `record` (JSON) under `key` of `kind` (in place of one there); `undefined` removes it. */
  keep(kind: string, key: string, record: object | undefined): Promise<void>;
  /** The document's example answer of the operation `method template` (`{}` where it gives no object). */
  example(method: string, template: string): Record<string, unknown>;
  /** Whether what the twin never made answers from the document's examples (`unseen: "examples"`). */
  readonly examples: boolean;
  /** The live objects of the collection at `template` in the scope `values` name (a repository's pull requests), oldest first. */
  objects(template: string, values: Record<string, string>): Promise<Record<string, unknown>[]>;
  /**
   * The live objects of the collection at `template` in every scope, by scope (`octo/app`), oldest
   * first, as a read answers them (their counts, an issue's `comments`): one read of the collections.
   */
  objectsByScope(template: string): Promise<Map<string, Record<string, unknown>[]>>;
  /**
   * What `build` derives from the whole state (an index a list across repositories or a search
   * reads a page of), made once while none of the name's collections changes (twin-derived.ts),
   * through the daemon's budget of expensive work: past it, the provider's rate-limit refusal.
   */
  derived<T>(key: string, build: () => Promise<T>): Promise<T>;
  /**
   * Tells a change the flows made of what they keep (a push of a file written): its events are
   * emitted once the flow has answered, in the order told, none when it answers an error.
   */
  emit(change: TwinChange): void;
  /**
   * Changes the live object `id` of the collection at `template` in the scope `values` name, in
   * place, with no event (a GitHub release's `assets` when one is uploaded): the object as changed,
   * `undefined` when there is none.
   */
  amend(
    template: string,
    values: Record<string, string>,
    id: string,
    edit: (object: Record<string, unknown>) => void,
  ): Promise<Record<string, unknown> | undefined>;
}

/** What a request sent, as {@link TwinFlows.own} reads it. */
export interface OwnRequest {
  body: Record<string, unknown>;
  query: Record<string, unknown>;
  /** The query string as sent, without `?` (what a redirect keeps). */
  raw: string;
  /** The body's bytes as sent (a GitHub release asset's upload, whose body is no JSON). */
  bytes: Uint8Array;
  /** A header of the request, by name (`content-type`, `accept`). */
  header(name: string): string | undefined;
  /**
   * The twin's root as the request reached it, with scheme and host (`http://127.0.0.1:4010/endpoint/github`,
   * or a `--serve` port's `http://127.0.0.1:4011`); `undefined` when the request named no host.
   */
  root: string | undefined;
}

/**
 * An answer of what a provider keeps itself: a body (none for `204`) and headers, a list the
 * engine pages as its collections' (`per_page`, `page`, `Link`), or an error; or, with `values`,
 * the collections' answer with the path's parameters as they keep its items (a renamed
 * GitHub repository's issues, kept under its first name), the request's body as they take it in
 * place of the one sent (`body`: GitHub's assignees in the case of their logins), the parameters
 * the URLs of what it makes name (`shown`: the repository's current name), and what to undo
 * when that answer is a refusal (`refused`: the repository a write below it implied).
 */
export type OwnAnswer =
  /** `message` never: a {@link FlowError} is answered as `{ error }`, not as a status without a body. */
  | { status: number; body?: unknown; headers?: Record<string, string>; message?: never }
  /** Bytes answered as they are (a GitHub release asset's download), in `headers`' `content-type`. */
  | { status: number; bytes: Uint8Array; headers: Record<string, string> }
  | {
      list: Record<string, unknown>[];
      /** The page's body of its items and the count of all (GitHub's search: `{ total_count, items }`). @default the items */
      wrap?(items: Record<string, unknown>[], total: number): unknown;
    }
  | { error: FlowError }
  | {
      values: Record<string, string>;
      body?: Record<string, unknown>;
      refused?: () => Promise<void>;
      /** The path's parameters as the URLs of what the write makes name them (a renamed repository's current name). @default `values` */
      shown?: Record<string, string>;
    };

/** A provider's events: which a change emits, their objects, and who subscribes where. */
export interface TwinEvents {
  /** The collection events are kept in (`/v1/events`). */
  eventsTemplate: string;
  /** The collection of webhook subscriptions (`/v1/webhook_endpoints`). */
  endpointsTemplate: string;
  /** The signing scheme of the delivery engine the provider's signatures are (`stripe`). */
  scheme: SignatureScheme;
  types(change: TwinChange): string[];
  event(type: string, object: Record<string, unknown>, tools: FlowTools, change?: TwinChange): Record<string, unknown>;
  /**
   * `event` as `endpoint` takes it, in the API version it was made with (Stripe's `api_version`
   * of a webhook endpoint). @default the event as it is
   */
  forEndpoint?(event: Record<string, unknown>, endpoint: Record<string, unknown>): Record<string, unknown>;
  /** Whether `endpoint` takes `event`, of `type` (GitHub's `ping` goes to the new hook alone). */
  subscribes(endpoint: Record<string, unknown>, type: string, event: Record<string, unknown>): boolean;
  /**
   * Where a subscriber takes deliveries, its secret, and headers its deliveries carry of it
   * (GitHub's `X-GitHub-Hook-ID`). @default the endpoint's `url` and `secret`
   */
  target?(endpoint: Record<string, unknown>): { url: unknown; secret: unknown; headers?: Record<string, string> };
  /**
   * Headers a delivery of `type` carries besides its signature (GitHub's `X-GitHub-Event`, its
   * repository's id, Hookshot's user agent); `event` absent for one kept before they were.
   */
  headers?(type: string, event?: Record<string, unknown>): Record<string, string>;
  /**
   * What every payload of `change` carries of what the provider keeps (GitHub's repository as
   * kept, a review's pull request), read once before its events are made, under its `extra`
   * (what the change's own `extra` names wins). @default nothing
   */
  context?(change: TwinChange, state: FlowState): Promise<Record<string, unknown> | undefined>;
  /**
   * Refuses one more subscription past the provider's limit (Stripe: 16 webhook endpoints an
   * account; GitHub: 20 hooks an event of a repository), `live` being the subscriptions not
   * deleted of its scope: a change's fan-out stays as small as on the provider. @default no limit
   */
  limit?(live: readonly Record<string, unknown>[], made: Record<string, unknown>): FlowError | undefined;
  /**
   * The provider's refusal of a subscription whose receiver the deliveries could never reach
   * (`reason`: why), checked when it is made or changed. @default Stripe's `400 url_invalid`
   */
  badTarget?(reason: string): FlowError;
}

/** An operation answered from what a provider keeps itself; `undefined`: not this one's (the next is asked). */
export type OwnOperation = (
  matched: MatchedOperation,
  sent: OwnRequest,
  state: FlowState,
) => Promise<OwnAnswer | undefined>;

export interface TwinFlows {
  /** The provider's events and webhooks. */
  events?: TwinEvents;
  /** Refuses a request missing a parameter the document's `required` names (Stripe's `parameter_missing`). */
  required?: boolean;
  /**
   * Whether an id a body names is one the provider knows without the twin holding it (Stripe's
   * test payment methods, `pm_card_visa`, and tokens, `tok_visa`): not refused as missing.
   */
  known?(id: string): boolean;
  /**
   * Twin-only operations added to the document's paths (Stripe's Checkout test
   * helper); an operation's `x-mockpoint-owner` names the collection whose item
   * its path's last id is.
   */
  paths?: Record<string, Record<string, unknown>>;
  /**
   * Answers an operation from what the provider keeps itself (GitHub's repositories, git refs,
   * contents), consulted before the collections, in the name's turn for a change; `undefined`:
   * the engine answers it.
   */
  own?: OwnOperation;
  /**
   * An answer's JSON in the API version `version` the request is answered in (Stripe's objects by
   * version, stripe-shapes.ts), `expand` the `expand[]` paths it asked for; what is stored stays
   * canonical. Applied after the expansion, to every successful JSON answer.
   */
  rendered?(value: unknown, version: string, expand: readonly string[]): unknown;
  /**
   * Whether an answer's JSON text holds anything `rendered` changes (Stripe's: a Subscription, an
   * Invoice, an event), read before it is parsed; `undefined`: every answer is rendered.
   */
  renders?(text: string): boolean;
  /**
   * Paths that list and read the items of another collection whose fields equal the path's
   * parameters (Stripe's `/v1/customers/{customer}/payment_methods`: the payment methods whose
   * `customer` is the path's): `of` the collection's template, `where` a field by parameter.
   */
  views?: Readonly<Record<string, { of: string; where: Readonly<Record<string, string>> }>>;
  /** The object as answered (GitHub masks a hook's `config.secret`); what is stored stays whole. */
  shown?(template: string, object: Record<string, unknown>): Record<string, unknown>;
  /**
   * Sets a new object's state from what was sent and what the twin holds, before
   * `created`; an error refuses the create with nothing stored or emitted.
   */
  creating?(
    template: string,
    object: Record<string, unknown>,
    sent: Record<string, unknown>,
    kit: FlowKit,
  ): Promise<FlowError | undefined>;
  /**
   * Like `action`, reading what the twin holds, consulted first; also for a
   * `DELETE` of a stored item (Stripe's canceled Subscription). `undefined`: not its.
   */
  acting?(
    matched: MatchedOperation,
    stored: Record<string, unknown> | undefined,
    sent: Record<string, unknown>,
    kit: FlowKit,
  ): Promise<ActionOutcome | undefined>;
  /**
   * Members an error answer carries about its request, with the profile's `requestIds` (Stripe's
   * `doc_url` for its code, `request_log_url`); none for an error Stripe logs nowhere (its `401`).
   */
  errorMembers?(
    error: { status: number; code?: string },
    request: { id: string; now: number },
  ): Record<string, unknown>;
  /**
   * Fills what reads a new object's key and the path's parameters (`values`) once its key is
   * taken (GitHub's `html_url` of issue `number` in `owner/repo`), inside the write that keeps it;
   * `root` is the twin's own root as the request reached it (`http://127.0.0.1:4010/endpoint/github`,
   * {@link OwnRequest.root}), `undefined` where the request named none.
   */
  keyed?(template: string, object: Record<string, unknown>, values: Record<string, string>, root?: string): void;
  /**
   * Reads what an update needs of the twin before it is made (a Stripe Subscription's `items`, each
   * price found and merged into the items it has): what the update then applies in place of
   * `sent`, or the error that refuses it with nothing changed; `undefined`: `sent` as it is.
   * `stored` is the object as it now is; what the kit writes is kept with the update (and its
   * events emitted), or dropped with it when it is refused or not made.
   */
  amending?(
    template: string,
    stored: Record<string, unknown>,
    sent: Record<string, unknown>,
    kit: FlowKit,
  ): Promise<{ sent: Record<string, unknown> } | { error: FlowError } | undefined>;
  /**
   * Moves what an update's change of `state` moves (GitHub's `closed_at`), `was` the state before;
   * reads what was sent beside the object's fields (a GitHub hook's `add_events`, `remove_events`).
   */
  updating?(
    template: string,
    object: Record<string, unknown>,
    was: unknown,
    tools: FlowTools,
    sent: Record<string, unknown>,
  ): void;
  /**
   * The provider's list parameters (GitHub's `state`, `sort`, `direction`, `labels`, `since`)
   * over a collection's live items, oldest first; `undefined`: the plain fields filter.
   */
  list?(template: string, items: Record<string, unknown>[], query: Record<string, unknown>): ListOutcome | undefined;
  /** An item of a profile's `within` collection as its host's lists show it (GitHub's pull request as an issue). */
  member?(template: string, object: Record<string, unknown>): Record<string, unknown>;
  /**
   * Refuses a create before anything is stored (GitHub's `422 Validation Failed` for a missing
   * field, Stripe's bounds of an amount and of metadata).
   */
  check?(template: string, sent: Record<string, unknown>): FlowError | undefined;
  /**
   * The provider's refusal of a string of the request past its schema's `maxLength` (`param`, as
   * the twin names it: `name`, `items[0][name]`) at the operation of `template` (GitHub's `422
   * Validation Failed`); absent: Stripe's `400 Invalid string: …; must be at most N characters`.
   */
  tooLong?(template: string, param: string, max: number): FlowError;
  /**
   * The provider's refusal of a request value its schema's other constraints refuse (`enum`,
   * `pattern`, `minimum`, a type, …: twin-values.ts) or of a `required` one missing, `param` as the
   * twin names it, `keyword` the constraint, `message` Stripe's words for it (GitHub: `422
   * Validation Failed`, `code: invalid` or `missing_field`); absent: Stripe's `400`.
   */
  invalidValue?(template: string, param: string, keyword: string, message: string): FlowError;
  /**
   * The provider's own refusal of a request whose values the document's constraints refuse (GitHub's
   * `422` of an empty issue title, of a list `filter` it does not take), asked before the
   * document's refusal is answered: the provider's words win. `undefined`: the document's refusal.
   */
  refusesFirst?(
    template: string,
    method: string,
    params: { body: Record<string, unknown>; query: Record<string, unknown> },
  ): FlowError | undefined;
  /**
   * Whether the provider answers an object the path of an operation of `template` names that the
   * twin does not hold (its 404) before a value the document's constraints refuse, and before
   * {@link refusesFirst} (GitHub's lock of an issue never made with a bad `lock_reason`: `404`, not
   * `422`): of the collections, of what the flows keep themselves (their {@link own} answer, asked
   * without changing anything: a 404, or an error `missing`), and of objects the twin never keeps.
   * @default none: the values first (Stripe's `400` before its `resource_missing`)
   */
  missingFirst?(template: string): boolean;
  /**
   * The provider's answer to a path none of its operations has (GitHub's `404 Not Found`), a path
   * parameter's value outside its `enum` too. @default `404` `Unrecognized request URL (…)`, Stripe's words
   */
  unknownPath?: FlowError;
  /**
   * The extension by which the provider's document marks an enum the provider keeps adding to
   * after the document was written (Stripe's `x-stripeBypassValidation`): a value outside it is
   * taken (twin-open-enums.ts). @default none: every enum closed
   */
  openEnums?: string;
  /**
   * The status of the provider's refusal of a write the twin will not keep (past the daemon's
   * collection limits): GitHub's `422`. @default 400
   */
  invalidStatus?: number;
  /** Refuses an update of a stored object before anything is changed (Stripe's bounds of metadata). */
  checkUpdate?(template: string, sent: Record<string, unknown>): FlowError | undefined;
  /** Sets a new object's state from what was sent, before it is stored; an error refuses the create. */
  created?(
    template: string,
    object: Record<string, unknown>,
    sent: Record<string, unknown>,
    tools: FlowKit,
  ): FlowError | undefined;
  /**
   * What an operation outside the collections answers in place of the document's example
   * `value` (GitHub's `GET /user`: the authenticated user); `undefined`: the example.
   */
  outside?(matched: MatchedOperation, value: unknown): unknown;
  /**
   * Answers an operation that is no create/read/update/delete/list on a stored
   * object (`undefined`: the engine answers it from the document). `stored` is
   * the object the path's last id names, when the twin holds it.
   */
  action?(
    matched: MatchedOperation,
    stored: Record<string, unknown> | undefined,
    sent: Record<string, unknown>,
    tools: FlowKit,
  ): ActionOutcome | undefined;
}
