/**
 * The namespaces of one daemon (docs/design.md#namespaces): each a whole mockpoint app over
 * its own parts of the backend (`Backend.namespaces`), made when a request
 * first names it and kept while it exists. The table creates, lists and deletes
 * namespaces, checks their tokens, notes their use, and deletes those idle past
 * their `ttlMs` (a sweep once a second, which also lets go of namespaces another
 * replica deleted). A namespace's app is unloaded once it has been idle for
 * `unloadAfterMs` (its data stays in the store, its clock here) and made again
 * on its next request: an idle namespace costs its registry entry, not an app.
 * Held work (a held request, an open socket, a stream, a timed state move) is
 * use: such a namespace is never idle, and its delete ends that work.
 *
 * @module
 */

import type { CreatedNamespace, NamespaceInfo, NamespaceRequest } from '../api/namespace-json.js';
import type { ClockState } from '../clock/clock.js';
import { MockpointError } from '../registry/errors.js';
import { isValidName, NAME_RULE } from '../registry/rules.js';
import type { Backend } from '../store/backend.js';
import type { BackendNamespaces, DropOptions, NamespaceEntry } from '../store/namespaces.js';
import { KeyedTurns } from '../turns/keyed-turns.js';
import type { MockpointApp } from './create-app.js';
import { isRandomName, newToken, randomName, tokenHash } from './namespace-token.js';
import { releaseAppHeld } from './release-held.js';

/** Options for {@link NamespaceTable}. */
export interface NamespaceTableOptions {
  /** Namespaces that may exist at once (0: namespaces are off). */
  max: number;
  /**
   * Makes the app of a namespace over its backend. `fresh`: the namespace was made by this table
   * and its parts are opened for the first time since, so they hold nothing yet.
   */
  make: (backend: Backend, entry: NamespaceEntry, fresh: boolean) => MockpointApp;
  /** Called with what fails in the background (a sweep, a touch). */
  report: (error: unknown) => void;
  /** The clock, in ms since the epoch. @default Date.now */
  now?: () => number;
  /** How often idle namespaces are looked for. @default 1000 */
  sweepMs?: number;
  /** How long an open namespace's app stays made without a request nor held work. @default 2000 */
  unloadAfterMs?: number;
}

/** How long an idle namespace's app stays made, by default: a test session's pauses are shorter. */
const UNLOAD_AFTER_MS = 2000;

/** One namespace with its app made. */
interface Live {
  readonly entry: NamespaceEntry;
  readonly app: MockpointApp;
  readonly backend: Backend;
  /** Requests since the last sweep. */
  hits: number;
  /** When a request last reached it here (to within a sweep). */
  usedAt: number;
  /** The last use written to the registry. */
  writtenAt: number;
  /** What adapters made for it once (a Node listener, …), by key. */
  readonly adapters: Map<symbol, unknown>;
}

/**
 * How a deleted namespace's data goes: a random name's (a test session's) with no fsync of its
 * own, since no namespace of that name is made again and the registry's delete is durable already;
 * a name a client chose durably, since a namespace of it may be made again at once and must start
 * empty after a power cut too.
 */
function dropOf(name: string): DropOptions {
  return { durable: !isRandomName(name) };
}

/** How a name drawn at random a moment ago is dropped before its namespace is used: nothing to remove. */
const UNUSED: DropOptions = { unused: true };

function notFound(name: string): MockpointError {
  return new MockpointError(
    'NAMESPACE_NOT_FOUND',
    `no namespace "${name}": make it with POST /api/namespaces (it may have been deleted, or idle past its ttlMs)`,
  );
}

function infoOf(entry: NamespaceEntry, usedAt = entry.usedAt): NamespaceInfo {
  const info: NamespaceInfo = {
    name: entry.name,
    createdAt: new Date(entry.createdAt).toISOString(),
    usedAt: new Date(Math.max(usedAt, entry.usedAt)).toISOString(),
  };
  if (entry.ttlMs !== undefined) info.ttlMs = entry.ttlMs;
  return info;
}

export class NamespaceTable {
  readonly #namespaces: BackendNamespaces;
  readonly #options: NamespaceTableOptions;
  readonly #now: () => number;
  readonly #live = new Map<string, Live>();
  readonly #opening = new Map<string, Promise<Live>>();
  /**
   * The clocks of unloaded namespaces that were set, frozen or advanced, with the namespace they
   * were of: given back when that namespace (not another made since with its name) is made again.
   * Not for a clock shared through the backend (Redis): that one is read from it.
   */
  readonly #clocks = new Map<string, { state: ClockState; of: NamespaceEntry }>();
  /**
   * The namespaces this table made (their parts emptied first) whose parts have not been opened
   * since: their first app starts knowing they hold nothing (its name ledger reads none).
   */
  readonly #fresh = new Set<string>();
  /** Apps being unloaded: one made again waits until its parts are closed. */
  readonly #unloading = new Map<string, Promise<void>>();
  /** The last create or delete of each name still running here: the next one waits for it. */
  readonly #changing = new KeyedTurns();
  #sweep: ReturnType<typeof setInterval> | undefined;
  #sweeping: Promise<void> | undefined;
  #serving = false;
  #closed = false;

  constructor(namespaces: BackendNamespaces, options: NamespaceTableOptions) {
    this.#namespaces = namespaces;
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /** Namespaces with their app made in this process. */
  get liveCount(): number {
    return this.#live.size;
  }

  /** The most namespaces that may exist. */
  get max(): number {
    return this.#options.max;
  }

  /** Makes a namespace and its token. @throws MockpointError `NAMESPACE_EXISTS`, `TOO_MANY_NAMESPACES`, `INVALID_NAME`. */
  async create(request: NamespaceRequest): Promise<CreatedNamespace> {
    const [made] = await this.#createAll([request]);
    return made as CreatedNamespace;
  }

  /**
   * Makes `count` namespaces with random names (one request of a test run's pool): all of them,
   * or none, in one step of the registry (one write). @throws MockpointError as {@link create}.
   */
  createMany(request: Omit<NamespaceRequest, 'name' | 'count'>, count: number): Promise<CreatedNamespace[]> {
    return this.#createAll(Array.from({ length: count }, () => request));
  }

  async #createAll(requests: readonly NamespaceRequest[]): Promise<CreatedNamespace[]> {
    this.#open();
    const now = this.#now();
    const made = await Promise.all(
      requests.map(async (request) => {
        const name = request.name ?? randomName();
        if (!isValidName(name)) throw new MockpointError('INVALID_NAME', `namespace "${name}": ${NAME_RULE}`);
        const token = newToken(name);
        const entry: NamespaceEntry = { name, tokenHash: await tokenHash(token), createdAt: now, usedAt: now };
        if (request.ttlMs !== undefined) entry.ttlMs = request.ttlMs;
        return { entry, token, drawn: request.name === undefined };
      }),
    );
    const names = made.map(({ entry }) => entry.name);
    // Names drawn here a moment ago: no one has used them, so nothing of theirs is left to remove.
    const drawn = new Set(made.filter((one) => one.drawn).map(({ entry }) => entry.name));
    const max = this.#options.max;
    // One name's create and delete run one after the other here: a delete's drop must not wipe a new namespace.
    const created = await this.#serialAll(names, async () => {
      const outcome =
        max === 0
          ? 'full'
          : await this.#namespaces.registry.createAll(
              made.map(({ entry }) => entry),
              max,
            );
      if (outcome !== 'created') return outcome;
      const readied = await Promise.allSettled(
        names.map(async (name) => {
          // An app of an earlier namespace of this name (deleted by another replica) holds its old token and parts.
          this.#clocks.delete(name);
          await this.#letGo(name);
          // Whatever an earlier namespace of this name left (a crash mid-delete) is gone before it is used.
          await this.#namespaces.drop(name, drawn.has(name) ? UNUSED : undefined);
        }),
      );
      const failed = readied.find((one) => one.status === 'rejected');
      if (failed !== undefined) {
        // None is made: the client gets no token of any, so none may hold room under the cap.
        await Promise.allSettled(names.map((name) => this.#namespaces.registry.delete(name)));
        throw failed.reason;
      }
      // Not where an app was opened meanwhile (a request needs no token to open one): it may have written.
      for (const name of names) if (!this.#live.has(name) && !this.#opening.has(name)) this.#fresh.add(name);
      return outcome;
    });
    if (created === 'exists') {
      throw new MockpointError(
        'NAMESPACE_EXISTS',
        names.length === 1
          ? `namespace "${names[0]}" exists already; pick another name`
          : 'a namespace of the batch exists already (random names met one in use); ask again',
      );
    }
    if (created === 'full') {
      throw new MockpointError(
        'TOO_MANY_NAMESPACES',
        max === 0
          ? 'namespaces are off on this server (MOCKPOINT_MAX_NAMESPACES=0)'
          : names.length === 1
            ? `${max} namespaces exist already (MOCKPOINT_MAX_NAMESPACES); delete some first`
            : `${max} namespaces may exist (MOCKPOINT_MAX_NAMESPACES), no room for ${names.length} more; delete some first`,
      );
    }
    this.#startSweeping();
    return made.map(({ entry, token }) => ({ ...infoOf(entry), token }));
  }

  /** Every namespace, by name. */
  async list(): Promise<NamespaceInfo[]> {
    const entries = await this.#namespaces.registry.list();
    return entries.map((entry) => infoOf(entry, this.#live.get(entry.name)?.usedAt));
  }

  /** One namespace. @throws MockpointError `NAMESPACE_NOT_FOUND`. */
  async info(name: string): Promise<NamespaceInfo> {
    const entry = isValidName(name) ? await this.#namespaces.registry.get(name) : undefined;
    if (entry === undefined) throw notFound(name);
    const live = this.#live.get(name);
    const held = live === undefined ? 0 : live.app.mockpoint.held.size + live.app.mockpoint.sockets.size;
    return { ...infoOf(entry, live?.usedAt), loaded: live !== undefined, held };
  }

  /**
   * Deletes a namespace and everything in it: its app is closed (held requests
   * answered, sockets closed), its data removed. @throws MockpointError `NAMESPACE_NOT_FOUND`.
   */
  async delete(name: string): Promise<void> {
    if (!isValidName(name)) throw notFound(name);
    await this.#serial(name, async () => {
      if (!(await this.#namespaces.registry.delete(name))) throw notFound(name);
      this.#fresh.delete(name);
      await this.#letGo(name);
      this.#clocks.delete(name);
      await this.#namespaces.drop(name, dropOf(name));
    });
  }

  /**
   * The app of namespace `name`: at once when it is made, else a Promise.
   * @throws MockpointError `NAMESPACE_NOT_FOUND` (also for a name that breaks the rule).
   */
  app(name: string): MockpointApp | Promise<MockpointApp> {
    const live = this.#live.get(name);
    if (live !== undefined) {
      live.hits++;
      return live.app;
    }
    return this.#made(name).then((made) => made.app);
  }

  /**
   * What an adapter makes once per namespace (its Node listener, …), kept with
   * the namespace's app under `key`: at once when made, else a Promise.
   * @throws MockpointError `NAMESPACE_NOT_FOUND`.
   */
  adapter<T>(name: string, key: symbol, make: (app: MockpointApp) => T): T | Promise<T> {
    const live = this.#live.get(name);
    if (live !== undefined) {
      live.hits++;
      const made = live.adapters.get(key);
      if (made !== undefined) return made as T;
      const adapter = make(live.app);
      live.adapters.set(key, adapter);
      return adapter;
    }
    return this.#made(name).then(() => this.adapter(name, key, make));
  }

  /**
   * What an adapter made for namespace `name` under `key`, when the namespace
   * is open here and that was made (the hot path: no name check, no Promise);
   * else `undefined` (then {@link adapter}).
   */
  madeAdapter<T>(name: string, key: symbol): T | undefined {
    const live = this.#live.get(name);
    if (live === undefined) return undefined;
    const made = live.adapters.get(key);
    if (made !== undefined) live.hits++;
    return made as T | undefined;
  }

  /** Serving has started: deliveries of every namespace (made now or later) are sent. */
  serve(): void {
    this.#serving = true;
    for (const live of this.#live.values()) {
      live.app.mockpoint.deliveries.start();
      void live.app.mockpoint.twins.resume();
    }
    // A namespace another run (or replica) made may be idle past its ttlMs already.
    this.#startSweeping();
  }

  /** Answers every request a namespace holds (long-polls, queued hangs, streams), now. */
  releaseHeld(): void {
    for (const { app } of this.#live.values()) releaseAppHeld(app);
  }

  /** Closes every namespace's app here (not their data) and stops sweeping. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#sweep);
    this.#sweep = undefined;
    await this.#sweeping?.catch(() => undefined);
    await Promise.allSettled([...this.#opening.values()]);
    await Promise.all([...this.#live.keys()].map((name) => this.#letGo(name, 'close')));
  }

  /** Runs `step` once the create or delete of `name` running before it here has ended. */
  #serial<T>(name: string, step: () => Promise<T>): Promise<T> {
    return this.#changing.run(name, step);
  }

  /**
   * {@link serial} for every one of `names` at once, taken in name order (so two batches sharing
   * names wait for each other, and never each for the other), each name once.
   */
  #serialAll<T>(names: readonly string[], step: () => Promise<T>): Promise<T> {
    const sorted = [...new Set(names)].sort();
    const from = (i: number): Promise<T> =>
      i === sorted.length ? step() : this.#serial(sorted[i] as string, () => from(i + 1));
    return from(0);
  }

  #open(): void {
    if (this.#closed) throw new MockpointError('STORE_UNAVAILABLE', 'the server is closing');
  }

  /** Makes the app of an existing namespace (once, however many requests ask meanwhile). */
  #made(name: string): Promise<Live> {
    let opening = this.#opening.get(name);
    if (opening === undefined) {
      opening = this.#make(name).finally(() => this.#opening.delete(name));
      this.#opening.set(name, opening);
    }
    return opening;
  }

  async #make(name: string): Promise<Live> {
    this.#open();
    await this.#unloading.get(name)?.catch(() => undefined);
    const entry = isValidName(name) ? await this.#namespaces.registry.get(name) : undefined;
    if (entry === undefined) throw notFound(name);
    // Taken once: an app made again (after an unload, or a failed make) reads what its parts hold;
    // so does one over parts another app on the same backend opened first (two apps on one memory).
    const noted = this.#fresh.delete(name);
    const backend = await this.#namespaces.open(name);
    const fresh = noted && backend.madeByOpen !== false;
    let app: MockpointApp;
    try {
      app = this.#options.make(backend, entry, fresh);
      // Its journal and queue may be those an unload released (kept from one open to the next): they wait again.
      app.mockpoint.journal.reopen();
      app.mockpoint.endpoints.queue.reopen();
      await Promise.all([app.mockpoint.hostsLoaded, app.mockpoint.clockLoaded]);
      const clock = this.#clocks.get(name);
      if (clock !== undefined && sameNamespace(entry, clock.of)) app.mockpoint.clock.adopt(clock.state);
      this.#clocks.delete(name);
    } catch (error) {
      await backend.close();
      throw error;
    }
    if (this.#serving) {
      // Fresh parts hold no delivery nor twin outbox to resume (a new delivery starts the worker);
      // a shared delivery store's worker also looks for what other replicas took in.
      const { deliveries, twins } = app.mockpoint;
      if (!fresh || deliveries.store.shared) deliveries.start();
      if (!fresh) void twins.resume();
    }
    const now = this.#now();
    const live: Live = { entry, app, backend, hits: 1, usedAt: now, writtenAt: entry.usedAt, adapters: new Map() };
    this.#live.set(name, live);
    this.#startSweeping();
    return live;
  }

  /**
   * Closes a namespace's app here: held requests answered, sockets and deliveries
   * stopped, its parts closed. `delete`: the namespace is gone, so what it still
   * holds (a delay, a chaos timeout, a gRPC call) ends now; `close` (the server
   * closing): that is left to the server's grace; `unload` (idle, nothing held):
   * nothing is released, since its journal and queue outlive the app (memory keeps
   * the same ones for the app made next) and releasing them ends every later wait
   * at once.
   */
  async #letGo(name: string, how: 'delete' | 'close' | 'unload' = 'delete'): Promise<void> {
    const deleted = how === 'delete';
    await this.#opening.get(name)?.catch(() => undefined);
    const live = this.#live.get(name);
    if (live === undefined) return;
    this.#live.delete(name);
    const { mockpoint } = live.app;
    if (how !== 'unload') releaseAppHeld(live.app);
    // The released answers go out first; then whatever is still held (a delay, a chaos timeout, a call) ends.
    // Nothing held (a test session's usual end): no turn to wait for.
    if (deleted && mockpoint.held.size > 0) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      mockpoint.held.endAll();
    }
    mockpoint.sockets.closeAll();
    mockpoint.timers.close();
    // Its parts outlive the app (memory: until dropped): what it follows on them must let go of it.
    mockpoint.endpoints.close();
    // A twin's deliveries still waiting go to the delivery engine first (an unload keeps them).
    await mockpoint.twins.drain();
    await mockpoint.deliveries.close();
    await live.backend.close();
  }

  /**
   * Unloads the apps idle for `unloadAfterMs`: their data stays in the store, a
   * changed clock here; the next request makes the app again. One that keeps
   * what lives only in its app (a timed state move, a chaos sequence under way) stays.
   */
  async #unloadIdle(now: number): Promise<void> {
    const after = this.#options.unloadAfterMs ?? UNLOAD_AFTER_MS;
    for (const [name, live] of [...this.#live]) {
      if (now - live.usedAt < after || live.hits > 0 || holdsWork(live.app) || keepsState(live.app)) continue;
      if (this.#opening.has(name) || this.#changing.has(name)) continue;
      const { clock } = live.app.mockpoint;
      if (!clock.real && live.backend.clock === undefined)
        this.#clocks.set(name, { state: clock.state(), of: live.entry });
      const unloading = this.#letGo(name, 'unload');
      this.#unloading.set(name, unloading);
      await unloading.finally(() => this.#unloading.delete(name));
    }
  }

  #startSweeping(): void {
    if (this.#sweep !== undefined || this.#closed) return;
    this.#sweep = setInterval(() => {
      this.#sweeping ??= this.#sweepOnce()
        .catch((error: unknown) => this.#options.report(error))
        .finally(() => {
          this.#sweeping = undefined;
        });
    }, this.#options.sweepMs ?? 1000);
    (this.#sweep as { unref?: () => void }).unref?.();
  }

  /**
   * Notes the uses since the last sweep (writing them to the registry at most
   * once per a quarter of the ttlMs, at least a second apart), deletes the
   * namespaces idle past their ttlMs, and lets go of those deleted elsewhere.
   */
  async #sweepOnce(): Promise<void> {
    const now = this.#now();
    const { registry } = this.#namespaces;
    for (const [name, live] of this.#live) {
      // Held work is use: a held request, an open socket or stream keeps the namespace from idling.
      if (holdsWork(live.app)) live.hits++;
      if (live.hits === 0) continue;
      live.hits = 0;
      live.usedAt = now;
      // Without a ttlMs the use is only shown (GET /api/namespaces): written once a minute at most.
      const every = live.entry.ttlMs === undefined ? 60_000 : Math.max(1000, live.entry.ttlMs / 4);
      if (now - live.writtenAt >= every) {
        live.writtenAt = now;
        await registry.touch(name, now);
      }
    }
    const entries = await registry.list();
    const existing = new Map(entries.map((entry) => [entry.name, entry]));
    for (const [name, live] of [...this.#live]) {
      // Gone, or deleted and made again (a new token, new parts) by another replica.
      if (!sameNamespace(existing.get(name), live.entry)) await this.#letGo(name);
    }
    for (const name of this.#clocks.keys()) {
      if (!existing.has(name)) this.#clocks.delete(name);
    }
    for (const name of this.#fresh) {
      if (!existing.has(name)) this.#fresh.delete(name);
    }
    for (const entry of entries) {
      const ttlMs = entry.ttlMs;
      if (ttlMs === undefined) continue;
      const usedAt = Math.max(entry.usedAt, this.#live.get(entry.name)?.usedAt ?? 0);
      if (now - usedAt <= ttlMs) continue;
      await this.#serial(entry.name, async () => {
        // Not one made again with this name since the list was read, nor one used since (on another replica).
        const current = await registry.get(entry.name);
        if (current === undefined || !sameNamespace(current, entry)) return;
        if (now - Math.max(current.usedAt, this.#live.get(entry.name)?.usedAt ?? 0) <= ttlMs) return;
        if (await registry.delete(entry.name)) {
          this.#clocks.delete(entry.name);
          this.#fresh.delete(entry.name);
          await this.#letGo(entry.name);
          await this.#namespaces.drop(entry.name, dropOf(entry.name));
        }
      });
    }
    await this.#unloadIdle(now);
    // A serving replica keeps looking: another may make namespaces and stop (crash, scale down) before their ttlMs.
    if (!this.#serving && entries.length === 0 && this.#live.size === 0) {
      clearInterval(this.#sweep);
      this.#sweep = undefined;
    }
  }
}

/** Whether `app` holds work open for its clients: a request, a socket, a stream. */
function holdsWork(app: MockpointApp): boolean {
  const { held, sockets, streams } = app.mockpoint;
  return held.size > 0 || sockets.size > 0 || streams.size > 0;
}

/**
 * Whether `app` keeps what lives in it alone: timed state moves pending, a chaos sequence under
 * way, a rate limit's bucket not yet full again, a webhook delivery retrying or under way, or a
 * twin's deliveries waiting to be handed off.
 */
function keepsState(app: MockpointApp): boolean {
  const { timers, endpoints, handler, deliveries, twins } = app.mockpoint;
  return (
    timers.size > 0 || endpoints.compiled.holdsAny('chaos') || handler.holdsRateState() || deliveries.busy || twins.busy
  );
}

/** Whether `entry` (as the registry holds it now) is still the namespace `known` was, not another made since with its name. */
export function sameNamespace(entry: NamespaceEntry | undefined, known: NamespaceEntry): boolean {
  return entry !== undefined && entry.createdAt === known.createdAt && entry.tokenHash === known.tokenHash;
}
