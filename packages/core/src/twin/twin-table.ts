/**
 * The twins of one app (one namespace): each name's engine, made on its first
 * request from its setting and kept; a provider's document and model are
 * loaded once, on first use, from the catalog the daemon gives
 * (`@mockpoint/twins`), and shared by every name and namespace that uses them.
 *
 * @module
 */

import type { CollectionLimits } from '../collections/collection-input.js';
import type { CollectionStore } from '../collections/collection-store.js';
import { MockpointError } from '../registry/errors.js';
import { KeyedTurns } from '../turns/keyed-turns.js';
import type { SharedTurns } from '../turns/shared-turns.js';
import { SCAN_ITEM_UNITS, type WorkBudget } from '../turns/work-budget.js';
import { type TwinAdditions, withAdditions } from './twin-additions.js';
import { documentError } from './twin-document.js';
import { TwinEngine } from './twin-engine.js';
import type { TwinFlows } from './twin-flows.js';
import { TwinModel } from './twin-model.js';
import { markOpenEnums } from './twin-open-enums.js';
import { TwinOutbox, type TwinWebhooks } from './twin-outbox.js';
import { OUTBOX, OutboxRelease } from './twin-outbox-kept.js';
import { checkProfile, type TwinProfile } from './twin-profile.js';
import { providerOf, registerProvider, type TwinProvider } from './twin-provider.js';
import type { TwinSetting } from './twin-setting.js';

/** A provider's document and profile. */
export interface TwinSource {
  document: Record<string, unknown>;
  profile: Record<string, unknown>;
  /** Parameters the provider takes today that its document lacks (twin-additions.ts). @default none */
  additions?: TwinAdditions;
  /** The provider's own code: its flows, fixtures and words (twin-provider.ts). @default none: the document's twin alone */
  provider?: TwinProvider;
}

/**
 * The providers a daemon ships, loaded on first use. Their names too are read when first asked
 * (a twin of a provider, `GET /api/twins`), never at start: they are the package that ships them
 * (`@mockpoint/twins`, an optional peer), whose one list they are. Both reject, with a stable
 * code and what to install, when that package is absent.
 */
export interface TwinCatalog {
  providers(): Promise<readonly string[]>;
  load(provider: string): Promise<TwinSource>;
}

/** The flows a profile names (`flows: "stripe"`), none for another. */
export function flowsOf(name: string | undefined): TwinFlows | undefined {
  return providerOf(name)?.flows;
}

/** The twin-only operations of a profile's flows. */
function flowPaths(profile: TwinProfile): Record<string, Record<string, unknown>> | undefined {
  return flowsOf(profile.flows)?.paths;
}

/** Most names a table remembers (with a twin or without) before it starts again. */
const MAX_NAMES = 10_000;

/** A model and its profile, as a setting makes them. */
export interface Built {
  model: TwinModel;
  checked: TwinProfile;
}

/** Models of the catalog's providers, by provider, shared by every table of the catalog. */
const PROVIDER_MODELS = new WeakMap<TwinCatalog, Map<string, Promise<TwinSource & Built>>>();

function providerModel(catalog: TwinCatalog, provider: string): Promise<TwinSource & Built> {
  let models = PROVIDER_MODELS.get(catalog);
  if (models === undefined) {
    models = new Map();
    PROVIDER_MODELS.set(catalog, models);
  }
  let model = models.get(provider);
  if (model === undefined) {
    model = catalog.load(provider).then((source) => {
      if (source.provider !== undefined) registerProvider(source.provider);
      const checked = checkProfile(source.profile);
      withAdditions(source.document, source.additions);
      markOpenEnums(source.document, source.provider?.flows?.openEnums);
      return { ...source, checked, model: new TwinModel(source.document, checked, flowPaths(checked)) };
    });
    model.catch(() => models.delete(provider));
    models.set(provider, model);
  }
  return model;
}

/**
 * Models by document (the object a setting holds: one per stored text, twin-setting.ts) and by the
 * profile's JSON: a document's model is built once, shared by every name and namespace that uses it,
 * by `GET …/twin` and after an idle unload.
 */
const MODELS = new WeakMap<object, Map<string, Built>>();
/** Most profiles one document's models are kept for. */
const MAX_PROFILES = 8;

/** Whether {@link modelOf} holds the model of `document` under `profile` already (no build to admit). */
function isBuilt(document: Record<string, unknown>, profile: Record<string, unknown>): boolean {
  return MODELS.get(document)?.has(JSON.stringify(profile)) === true;
}

/**
 * What building a document's model costs the daemon's budget of expensive work: a scan item a path
 * (a document of 12,000 paths, 12 MiB: admitted; one of a few hundred paths is under the budget's
 * threshold and built at once).
 */
function buildUnits(document: Record<string, unknown>): number {
  const { paths } = document;
  return typeof paths === 'object' && paths !== null ? Object.keys(paths).length * SCAN_ITEM_UNITS : 0;
}

/**
 * Builds a document's model through the daemon's budget (#86 H3: every expensive path admitted by
 * one mechanism): twenty PUTs of large documents at once are built a few at a time. Past the budget
 * `RATE_LIMITED` with `Retry-After`; nothing was built, and a PUT keeps nothing.
 */
async function admittedBuild(budget: WorkBudget, units: number, build: () => Built): Promise<Built> {
  const ticket = await budget.admit(units);
  if (!ticket.admitted) {
    const seconds = ticket.retryAfterSeconds;
    throw new MockpointError(
      'RATE_LIMITED',
      `Building this twin's model (a document of ${Math.round(units / SCAN_ITEM_UNITS)} paths) waited for the daemon's budget of expensive work, which other requests held: retry after ${seconds} s.`,
      { headers: { 'retry-after': String(seconds) }, details: { retryAfter: seconds } },
    );
  }
  try {
    return build();
  } finally {
    ticket.release();
  }
}

function modelOf(document: Record<string, unknown>, profile: Record<string, unknown>, own = false): Built {
  let byProfile = MODELS.get(document);
  if (byProfile === undefined) {
    byProfile = new Map();
    MODELS.set(document, byProfile);
  }
  const key = JSON.stringify(profile);
  let built = byProfile.get(key);
  if (built === undefined) {
    // A document's own twin: its error answers' shape where the profile states none (twin-document.ts).
    const checked = checkProfile(
      own && !('error' in profile) ? { ...profile, error: documentError(document) } : profile,
    );
    built = { checked, model: new TwinModel(document, checked, flowPaths(checked)) };
    if (byProfile.size >= MAX_PROFILES) byProfile.clear();
    byProfile.set(key, built);
  }
  return built;
}

/** Checks a setting whole (its profile, its document's paths) as it is made: `INVALID_TWIN` when it is not one. */
async function buildTwin(setting: TwinSetting, catalog: TwinCatalog | undefined, budget?: WorkBudget): Promise<Built> {
  // A profile naming a provider's flows (`flows`) takes them from the catalog, loaded here: never
  // from what another app of the process happened to load, so the answer does not depend on that.
  const flows = setting.profile?.flows;
  if (typeof flows === 'string' && flows !== setting.provider) {
    const providers = catalog === undefined ? [] : await catalog.providers();
    if (catalog === undefined || !providers.includes(flows)) {
      const shipped = providers.length === 0 ? 'none' : providers.join(', ');
      throw new MockpointError(
        'INVALID_TWIN',
        `profile.flows: "${flows.slice(0, 64)}" is no provider this daemon ships (it ships ${shipped}); a provider's flows come with @mockpoint/twins (see docs/twins.md)`,
      );
    }
    await providerModel(catalog, flows);
  }
  if (setting.provider !== undefined) {
    if (catalog === undefined) throw new MockpointError('INVALID_TWIN', 'provider: this daemon ships no providers');
    const shipped = await providerModel(catalog, setting.provider);
    if (setting.profile === undefined) return shipped;
    return modelOf(shipped.document, { ...shipped.profile, ...setting.profile });
  }
  const document = setting.document ?? {};
  const profile = setting.profile ?? { name: 'openapi' };
  if (budget === undefined || isBuilt(document, profile)) return modelOf(document, profile, true);
  return admittedBuild(budget, buildUnits(document), () => modelOf(document, profile, true));
}

/** What a table of twins is made of. */
export interface TwinTableOptions {
  collections: CollectionStore;
  /** The twin setting of a name (the store's `twin` setting). */
  setting: (name: string) => Promise<TwinSetting | undefined>;
  catalog: TwinCatalog | undefined;
  /** The app's clock, in ms. */
  now: () => number;
  /** The most JSON an answer with `expand` may hold (`MOCKPOINT_MAX_COLLECTION_BYTES`). @default 16 MiB */
  maxAnswerBytes?: number;
  /** The limits a collection write is held to, which every twin write is held to too. @default none */
  limits?: CollectionLimits;
  /**
   * Hands a twin's webhook to the delivery engine: a subscriber's (`'twin'`, held to the twins'
   * share of the pending deliveries, `twin` the event it carries) or `mockpoint trigger --to`'s
   * (`'api'`). @default none sent
   */
  deliver?: (
    members: ReadonlyMap<string, string>,
    from: 'api' | 'twin',
    twin?: { name: string; event: string },
  ) => Promise<unknown>;
  /** The delivery engine's check of a receiver's URL, throwing its refusal. @default every URL taken */
  checkTarget?: (url: unknown) => void;
  /** The daemon's budget of expensive work, shared by every twin (turns/work-budget.ts). @default none */
  budget?: WorkBudget;
  /**
   * Turns shared with the other processes on the backend (Redis replicas): a name's changes
   * then run one at a time across all of them, behind this process's own turn. @default this process's turns only
   */
  turns?: SharedTurns;
  /**
   * Follows every change of a name, made here or on another replica (`undefined`: every name):
   * its engine, or that it has none, is looked up again after one. @default none followed
   */
  follow?: (listener: (name: string | undefined) => void) => void;
}

export class TwinTable {
  readonly #collections: CollectionStore;
  readonly #setting: TwinTableOptions['setting'];
  readonly #catalog: TwinCatalog | undefined;
  readonly #now: () => number;
  readonly #maxAnswerBytes: number | undefined;
  readonly #deliver: TwinTableOptions['deliver'];
  /**
   * The twins' deliveries on their way to the delivery engine, after the answers (#71 M4); made
   * with the first twin's engine (an app per namespace: most never have a twin).
   */
  #outbox: TwinOutbox | undefined;
  /** Bounds {@link #outbox}. */
  readonly #most: number;
  /** Removes the `_outbox` entries of the changes handed off; made with the first twin's engine. */
  #release: OutboxRelease | undefined;
  /** The names whose kept outbox this process has resumed (once each: what it queues since is its own). */
  #resumed: Set<string> | undefined;
  readonly #limits: CollectionLimits | undefined;
  readonly #checkTarget: TwinTableOptions['checkTarget'];
  readonly #budget: WorkBudget | undefined;
  readonly #engines = new Map<string, Promise<TwinEngine | null>>();
  /** Per name, the end of the change under way: a twin's changes run one after another (#71 M2). */
  readonly #changing = new KeyedTurns();
  readonly #shared: SharedTurns | undefined;
  /** The engines made already (`null`: the name has no twin), for a synchronous answer. */
  readonly #made = new Map<string, TwinEngine | null>();

  constructor(options: TwinTableOptions) {
    this.#collections = options.collections;
    this.#setting = options.setting;
    this.#catalog = options.catalog;
    this.#now = options.now;
    this.#maxAnswerBytes = options.maxAnswerBytes;
    this.#deliver = options.deliver;
    // Bounded below the collection limit, so that the `_outbox` entries (one a change, each with a
    // delivery or more, and the one change waiting for room) always fit in it.
    this.#most = Math.max(1, Math.min(2000, (options.limits?.maxCollectionItems ?? 2001) - 1));
    this.#limits = options.limits;
    this.#checkTarget = options.checkTarget;
    this.#budget = options.budget;
    this.#shared = options.turns;
    // A twin put or removed (here or on another replica), the name deleted, every name cleared.
    options.follow?.((name) => this.forget(name));
  }

  get catalog(): TwinCatalog | undefined {
    return this.#catalog;
  }

  /** The model and checked profile of `setting`, a document's built through the daemon's budget. */
  build(setting: TwinSetting): Promise<Built> {
    return buildTwin(setting, this.#catalog, this.#budget);
  }

  /** What the webhooks of `name`'s twin did in this process (`GET …/twin`). */
  webhooks(name: string): TwinWebhooks {
    return this.#outbox?.status(name) ?? { waiting: 0, handed: 0, refused: 0 };
  }

  /** Whether a twin's deliveries wait to be handed to the delivery engine (or their `_outbox` entries to go). */
  get busy(): boolean {
    return (this.#outbox?.busy ?? false) || (this.#release?.busy ?? false);
  }

  /**
   * Resolves once every twin's waiting deliveries are handed to the delivery engine (before it
   * closes) and their `_outbox` entries removed, so that a graceful restart hands none again.
   */
  async drain(): Promise<void> {
    await this.#outbox?.drain();
    await this.#release?.settled();
  }

  /**
   * Makes the engine of every twin whose `_outbox` holds deliveries an earlier process never
   * handed off (it was killed first), which hands them off (#71 M4): called when the app starts
   * serving. On a store shared by replicas a twin's are resumed on its first use here instead
   * (a replica starting must not hand again, at once, what the others are handing off). Never
   * rejects: a twin it could not read is resumed on its first use.
   */
  async resume(): Promise<void> {
    if (this.#deliver === undefined || this.#collections.kind === 'redis') return;
    try {
      for (const name of await this.#collections.names()) {
        const waiting = (await this.#collections.get(name)).get(OUTBOX)?.length ?? 0;
        if (waiting > 0) await this.engine(name).catch(() => null);
      }
    } catch {
      // Resumed on first use.
    }
  }

  /** The engine of `name` (`null`: it has no twin), made once. */
  engine(name: string): Promise<TwinEngine | null> {
    let engine = this.#engines.get(name);
    if (engine === undefined) {
      // A cache of names, most of them without a twin: bounded, so that requests to many names cannot grow it.
      if (this.#engines.size >= MAX_NAMES) this.forget();
      engine = this.#make(name);
      const made = engine;
      made.then(
        (value) => {
          if (this.#engines.get(name) !== made) return;
          this.#made.set(name, value);
        },
        () => this.#engines.delete(name),
      );
      this.#engines.set(name, engine);
    }
    return engine;
  }

  /** The engine of `name` when it was made already (`null`: no twin; `undefined`: not looked up yet). */
  peek(name: string): TwinEngine | null | undefined {
    return this.#made.get(name);
  }

  /** Forgets the engine of `name` (its setting changed), or of every name. */
  forget(name?: string): void {
    if (name === undefined) {
      this.#engines.clear();
      this.#made.clear();
      return;
    }
    this.#engines.delete(name);
    this.#made.delete(name);
  }

  /**
   * `run` in the name's shared turn, where replicas share the backend. It is taken behind this
   * process's own turn, so the process's changes queue here and never contend with each other in Redis.
   */
  #acrossReplicas<T>(name: string, run: () => Promise<T>): () => Promise<T> {
    const shared = this.#shared;
    return shared === undefined ? run : () => shared.run(`twin:${name}`, run);
  }

  /**
   * A subscriber's delivery of `name`'s event `event` was delivered: counted off the event's
   * `pending_webhooks` (Stripe's), in the twin's turn. A twin gone meanwhile is left alone.
   */
  async delivered(name: string, event: string): Promise<void> {
    const engine = await this.engine(name);
    await engine?.delivered(event);
  }

  /** The outbox, made now if it is not yet (none without a delivery engine). */
  #outboxMade(): TwinOutbox | undefined {
    const deliver = this.#deliver;
    if (deliver === undefined) return undefined;
    this.#outbox ??= new TwinOutbox({
      deliver: (members, name) =>
        deliver(members, 'twin', members.event === undefined ? undefined : { name, event: members.event }),
      most: this.#most,
    });
    return this.#outbox;
  }

  #releaseMade(): OutboxRelease {
    this.#release ??= new OutboxRelease(this.#collections);
    return this.#release;
  }

  async #make(name: string): Promise<TwinEngine | null> {
    const setting = await this.#setting(name);
    if (setting === undefined) return null;
    const { model, checked: profile } = await this.build(setting);
    const deliver = this.#deliver;
    const outbox = this.#outboxMade();
    const release = this.#releaseMade();
    const engine = new TwinEngine({
      name,
      model,
      profile,
      flows: flowsOf(profile.flows),
      unseen: setting.unseen ?? 'missing',
      collections: this.#collections,
      now: this.#now,
      // A flow reads, then writes several collections with awaits between that a store's I/O makes
      // real: a name's changes run in turn, kept here so that an engine made again shares them.
      inTurn: (run) => this.#changing.run(name, this.#acrossReplicas(name, run)),
      ...(this.#maxAnswerBytes === undefined ? {} : { maxAnswerBytes: this.#maxAnswerBytes }),
      ...(this.#limits === undefined ? {} : { limits: this.#limits }),
      ...(deliver === undefined ? {} : { deliver: (members) => deliver(members, 'api') }),
      ...(outbox === undefined
        ? {}
        : { handOff: (deliveries, kept) => outbox.push(name, deliveries, () => release.release(name, kept)) }),
      ...(this.#checkTarget === undefined ? {} : { checkTarget: this.#checkTarget }),
      ...(this.#budget === undefined ? {} : { budget: this.#budget }),
    });
    // What an earlier process kept and never handed off goes first: taken in the twin's turn now,
    // before any request has the engine, so every change of this process queues behind it.
    if (outbox !== undefined && this.#resumed?.has(name) !== true) {
      this.#resumed ??= new Set();
      this.#resumed.add(name);
      void engine.resume().catch(() => this.#resumed?.delete(name));
    }
    return engine;
  }
}
