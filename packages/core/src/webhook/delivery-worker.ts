/**
 * The sender of outgoing deliveries: takes new ones, claims due ones from the
 * {@link DeliveryStore} (so with replicas each attempt is made by one of them),
 * makes each attempt and writes its result with the next due time.
 *
 * It sleeps until the earliest due time; with a shared store it also looks
 * every `pollMs` for deliveries other replicas took in. Each attempt is written
 * as `sending` before it goes out and replaced by its result after; an attempt
 * whose sender stopped first (killed, or `close()`, which aborts the attempts in
 * flight) is recorded as `INTERRUPTED` by the next sender, which then makes it
 * again (after a restart, with durable stores) — nothing pending is lost, and no
 * request that went out is missing from the history.
 *
 * @module
 */

import type { Delivery, DeliveryPage } from '../api/delivery-json.js';
import { Clock } from '../clock/clock.js';
import { maskCredentials } from '../codec/shown-url.js';
import { MockpointError } from '../registry/errors.js';
import { attemptDelivery, completedAttempts, settleInterrupted } from './delivery-attempt.js';
import { clockDue, earlyByClock, withRetryClock } from './delivery-clock.js';
import { afterAttempt } from './delivery-policy.js';
import { type DeliveryRequestOptions, parseDeliveryRequest } from './delivery-request.js';
import type { DeliverySend } from './delivery-send.js';
import {
  type DeliveryStore,
  KEPT_FINISHED_DELIVERIES,
  leaseMs,
  type StoredDelivery,
  type TwinEventRef,
} from './delivery-store.js';

/** Options for {@link DeliveryWorker}. */
export interface DeliveryWorkerOptions {
  store: DeliveryStore;
  /** Hosts besides loopback that deliveries may target. @default [] */
  allowHosts?: readonly string[];
  /** Largest delivery body. */
  maxBodyBytes: number;
  /** Pending deliveries at most (more is refused with TOO_MANY_DELIVERIES). @default 1000 */
  maxPending?: number;
  /** Attempts in flight at once (per process). @default 50 */
  maxInFlight?: number;
  /** With a shared store: how often to look for due deliveries other replicas took in. @default 200 */
  pollMs?: number;
  /** How each attempt's request goes out. @default fetchDeliverySend() (`fetch`) */
  send?: DeliverySend;
  /** The app's clock: retries wait for it (delivery-clock.ts). @default real time */
  clock?: Clock;
  /** Told once a twin's webhook is delivered (Stripe's `pending_webhooks` counts down). @default nothing */
  onDelivered?: (twin: TwinEventRef) => void;
}

/**
 * The part of the pending deliveries a twin's webhooks may fill: a twin's delivery is taken
 * while fewer than this share of `maxPending` are pending (its own and the user's), so at least
 * the rest stays free for the user's `POST /api/deliveries`.
 */
export const TWIN_SHARE = 0.5;

/** Who asks for a delivery: the user (`POST /api/deliveries`, `mockpoint trigger --to`), or a twin's fan-out. */
export interface DeliveryFrom {
  /** @default 'api' */
  from?: 'api' | 'twin';
  /** The twin's event a subscriber's delivery carries (told to `onDelivered` once delivered). */
  twin?: TwinEventRef;
}

/** The delivery as `/api/deliveries` reports it: no secret (nor the URL's user and password), times as ISO 8601. */
export function deliveryJson(stored: StoredDelivery): Delivery {
  const out: Delivery = {
    id: stored.id,
    url: maskCredentials(stored.url),
    method: stored.method,
    state: stored.state,
    retry: { delaysMs: [...stored.delaysMs] },
    timeoutMs: stored.timeoutMs,
    bodyBytes: stored.bodyBytes,
    createdAt: new Date(stored.createdAt).toISOString(),
    attempts: stored.attempts,
  };
  if (stored.webhookId !== undefined) out.webhookId = stored.webhookId;
  if (stored.sign !== undefined) out.sign = { scheme: stored.sign.scheme };
  if (stored.tamper !== undefined) out.tamper = stored.tamper;
  if (stored.state === 'pending' && stored.nextAttemptAt !== undefined)
    out.nextAttemptAt = new Date(stored.nextAttemptAt).toISOString();
  if (stored.sending !== undefined)
    out.sending = { n: stored.sending.n, at: new Date(stored.sending.at).toISOString() };
  if (stored.outcome !== undefined) out.outcome = stored.outcome;
  return out;
}

export class DeliveryWorker {
  readonly store: DeliveryStore;
  readonly #options: Required<Omit<DeliveryWorkerOptions, 'send' | 'store' | 'clock' | 'onDelivered'>> & {
    send?: DeliverySend;
    onDelivered?: (twin: TwinEventRef) => void;
  };
  readonly #clock: Clock;
  readonly #unfollowClock: () => void;
  /** A look at the retries after a clock change is running / is asked for again. */
  #retiming = false;
  #retimeAgain = false;
  // The sets and the map below are made on first use: a namespace's worker (one per test session) seldom sends.
  #inFlight: Set<Promise<void>> | undefined;
  /** Made by the first wait: aborting one costs a DOMException, which a worker that never waited (a test session's) skips. */
  #abort: AbortController | undefined;
  /** One per attempt in flight, aborted by close() (not listeners on one shared signal: 50 in flight would be 50 of them). */
  #stops: Set<AbortController> | undefined;
  /** Waiters per delivery id, woken by every change this process makes. */
  #waiters: Map<string, Set<() => void>> | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt = Number.POSITIVE_INFINITY;
  /** When the next delivery the store holds is due (not the poll of a shared store): none, nothing is pending. */
  #dueAt: number | undefined;
  #ticking = false;
  #again = false;
  #started = false;
  #closed = false;

  constructor(options: DeliveryWorkerOptions) {
    this.store = options.store;
    this.#options = {
      allowHosts: options.allowHosts ?? [],
      maxBodyBytes: options.maxBodyBytes,
      maxPending: options.maxPending ?? 1000,
      maxInFlight: options.maxInFlight ?? 50,
      pollMs: options.pollMs ?? 200,
      send: options.send,
      ...(options.onDelivered === undefined ? {} : { onDelivered: options.onDelivered }),
    };
    this.#clock = options.clock ?? new Clock();
    this.#unfollowClock = this.#clock.onChange(() => this.#clockMoved());
  }

  /**
   * Starts sending what the store holds due (after a restart, the retries still
   * pending). Called when the app starts serving; a new delivery starts it too.
   */
  /** Whether a retry is timed or an attempt is under way: the app holding this worker is not idle. */
  get busy(): boolean {
    return this.#dueAt !== undefined || (this.#inFlight?.size ?? 0) > 0 || this.#ticking;
  }

  start(): void {
    if (this.#started || this.#closed) return;
    this.#started = true;
    this.#kick();
  }

  /**
   * Checks and stores a new delivery (`POST /api/deliveries`), due now. A twin's (`from: 'twin'`)
   * is taken only while fewer than {@link TWIN_SHARE} of `maxPending` are pending in all: a twin
   * sending to a dead receiver never takes the room of the user's own deliveries (#71 M4).
   */
  async create(members: ReadonlyMap<string, string>, { from = 'api', twin }: DeliveryFrom = {}): Promise<Delivery> {
    if (this.#closed)
      throw new MockpointError('STORE_UNAVAILABLE', 'the server is shutting down; deliveries are not taken');
    const options: DeliveryRequestOptions = {
      allowHosts: this.#options.allowHosts,
      maxBodyBytes: this.#options.maxBodyBytes,
      now: Date.now(),
      // A twin's webhook to a host not allowed is kept as not sent (the user's own is refused).
      keepNotAllowed: from === 'twin',
    };
    const delivery = await parseDeliveryRequest(members, options);
    if (twin !== undefined) delivery.twin = twin;
    const max = this.#options.maxPending;
    const limit = from === 'twin' ? Math.floor(max * TWIN_SHARE) : max;
    // Counted and stored in one step by the store: concurrent creates never pass the limit.
    if (!(await this.store.create(delivery, limit))) {
      throw new MockpointError(
        'TOO_MANY_DELIVERIES',
        from === 'twin'
          ? `${limit} deliveries are pending already, the share of the ${max} a twin's webhooks may fill (the rest is kept for POST /api/deliveries); wait for some to finish, or cancel them (DELETE /api/deliveries/{id})`
          : `${max} deliveries are pending already; wait for some to finish, or cancel them (DELETE /api/deliveries/{id})`,
      );
    }
    if (delivery.state !== 'pending') return deliveryJson(delivery);
    this.#started = true;
    this.#kick();
    return deliveryJson(delivery);
  }

  async get(id: string): Promise<Delivery> {
    return deliveryJson(await this.#find(id));
  }

  async list(limit: number): Promise<DeliveryPage> {
    return { deliveries: (await this.store.list(limit)).map(deliveryJson) };
  }

  /**
   * The delivery once it is no longer pending, or as it is after `waitMs` (or
   * when `signal` aborts, or the worker closes).
   */
  async wait(id: string, waitMs: number, signal?: AbortSignal): Promise<Delivery> {
    const end = Date.now() + waitMs;
    for (;;) {
      const current = await this.#find(id);
      const left = end - Date.now();
      if (current.state !== 'pending' || left <= 0 || signal?.aborted || this.#closed) return deliveryJson(current);
      // Woken by a change made here; with a shared store, another replica's change is seen by looking again.
      this.#abort ??= new AbortController();
      const closing = this.#abort.signal;
      await new Promise<void>((resolve) => {
        this.#waiters ??= new Map();
        const waiters = this.#waiters.get(id) ?? new Set();
        this.#waiters.set(id, waiters);
        const done = () => {
          clearTimeout(timer);
          waiters.delete(done);
          if (waiters.size === 0 && this.#waiters?.get(id) === waiters) this.#waiters.delete(id);
          signal?.removeEventListener('abort', done);
          closing.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, this.store.shared ? Math.min(left, this.#options.pollMs) : left);
        waiters.add(done);
        signal?.addEventListener('abort', done);
        closing.addEventListener('abort', done);
      });
    }
  }

  /** Cancels a pending delivery: no further attempt is made. `DELIVERY_FINISHED` when it is no longer pending. */
  async cancel(id: string): Promise<Delivery> {
    for (;;) {
      const current = await this.#find(id);
      if (current.state !== 'pending') {
        throw new MockpointError(
          'DELIVERY_FINISHED',
          `delivery ${id} is ${current.state} already; only a pending one can be cancelled`,
        );
      }
      const next: StoredDelivery = {
        // An attempt in flight now has no result to record: it is in the history as interrupted.
        ...settleInterrupted(current),
        state: 'cancelled',
        nextAttemptAt: undefined,
        outcome: { code: 'CANCELLED', message: 'cancelled by DELETE /api/deliveries/{id}' },
        version: current.version + 1,
      };
      if (await this.store.update(next)) {
        this.#notify(id);
        return deliveryJson(next);
      }
    }
  }

  /**
   * Stops sending: attempts in flight are aborted, left `sending` (they stay
   * due, and are recorded as interrupted when made again), and waits are answered. Does not close the store.
   */
  async close(): Promise<void> {
    this.#closed = true;
    this.#unfollowClock();
    clearTimeout(this.#timer);
    this.#abort?.abort();
    for (const stop of this.#stops ?? []) stop.abort();
    await Promise.all([...(this.#inFlight ?? [])]);
  }

  async #find(id: string): Promise<StoredDelivery> {
    const found = await this.store.get(id);
    if (found === undefined)
      throw new MockpointError('DELIVERY_NOT_FOUND', `no delivery ${id}; GET /api/deliveries lists them`);
    return found;
  }

  #notify(id: string): void {
    for (const wake of [...(this.#waiters?.get(id) ?? [])]) wake();
  }

  /** Runs a tick now (or right after the one running). */
  #kick(): void {
    if (this.#closed) return;
    if (this.#ticking) {
      this.#again = true;
      return;
    }
    this.#ticking = true;
    void this.#tick().finally(() => {
      this.#ticking = false;
      if (this.#again) {
        this.#again = false;
        this.#kick();
      }
    });
  }

  /** Claims what is due (as many as there is room for in flight), starts them, and sets the timer for the next. */
  async #tick(): Promise<void> {
    try {
      const room = this.#options.maxInFlight - (this.#inFlight?.size ?? 0);
      if (room > 0) {
        const now = Date.now();
        const claimed = await this.store.claim(now, room).catch(() => []);
        for (const delivery of claimed) this.#track(this.#run(delivery));
      }
      const next = await this.store.nextDue().catch(() => undefined);
      this.#schedule(next);
    } catch {
      this.#schedule(Date.now() + this.#options.pollMs);
    }
  }

  #track(run: Promise<void>): void {
    this.#inFlight ??= new Set();
    this.#inFlight.add(run);
    void run.finally(() => {
      this.#inFlight?.delete(run);
      this.#kick();
    });
  }

  #schedule(due: number | undefined): void {
    if (this.#closed) return;
    this.#dueAt = due;
    let at = due ?? Number.POSITIVE_INFINITY;
    if (this.store.shared) at = Math.min(at, Date.now() + this.#options.pollMs);
    if (at === Number.POSITIVE_INFINITY) return;
    if (this.#timer !== undefined && this.#timerAt <= at) return;
    clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        this.#timerAt = Number.POSITIVE_INFINITY;
        this.#kick();
      },
      Math.max(0, at - Date.now()),
    );
    // A pending retry must not keep a test process alive; the daemon's server does.
    (this.#timer as { unref?: () => void }).unref?.();
  }

  /** The clock moved: each waiting retry is due when the clock passes its time (one look at a time). */
  #clockMoved(): void {
    if (this.#closed || !this.#started) return;
    if (this.#retiming) {
      this.#retimeAgain = true;
      return;
    }
    this.#retiming = true;
    void this.#retime()
      .catch(() => undefined) // the store unavailable: the retries keep their real schedule
      .finally(() => {
        this.#retiming = false;
        if (this.#retimeAgain) {
          this.#retimeAgain = false;
          this.#clockMoved();
        }
      });
  }

  async #retime(): Promise<void> {
    // Every delivery the store holds: at most maxPending pending and the finished ones kept.
    const held = await this.store.list(this.#options.maxPending + KEPT_FINISHED_DELIVERIES);
    const realNow = Date.now();
    for (const delivery of held) {
      const due = clockDue(delivery, this.#clock, realNow);
      if (due === undefined || due === delivery.nextAttemptAt) continue;
      // Refused when it changed meanwhile (claimed, cancelled): that write stands.
      await this.store.update({ ...delivery, nextAttemptAt: due, version: delivery.version + 1 }).catch(() => false);
    }
    // The timer only ever moves earlier: one set for a retry now later fires early and finds nothing due.
    this.#kick();
  }

  async #run(claimed: StoredDelivery): Promise<void> {
    // The attempt is written as `sending` before it goes out (an attempt its sender
    // did not live to record is recorded as interrupted first), so the history
    // never lacks a request the receiver may have got. Still due at the lease's end.
    // Claimed by a tick that ran into close(): not sent, so not written as sending either.
    if (this.#closed) return;
    if (earlyByClock(claimed, this.#clock)) {
      // Due in real time, not yet by the clock (frozen, or set back): it waits, and is looked at again then.
      const later = {
        ...claimed,
        nextAttemptAt: clockDue(claimed, this.#clock, Date.now()),
        version: claimed.version + 1,
      };
      await this.store.update(later).catch(() => false);
      return;
    }
    const settled = settleInterrupted(claimed);
    const now = Date.now();
    const delivery: StoredDelivery = {
      ...settled,
      sending: { n: settled.attempts.length + 1, at: now },
      nextAttemptAt: now + leaseMs(settled),
      version: settled.version + 1,
    };
    // Refused when someone else changed it meanwhile (a cancel); unwritable: due again at the claim's lease end.
    if (!(await this.store.update(delivery).catch(() => false))) return;
    const duplicateSend =
      delivery.tamper === 'duplicate' && completedAttempts(delivery) === 0 ? undefined : delivery.tamper;
    const stop = new AbortController();
    if (this.#closed) stop.abort(); // claimed by a tick that ran into close()
    this.#stops ??= new Set();
    this.#stops.add(stop);
    let attempt: Awaited<ReturnType<typeof attemptDelivery>>;
    try {
      attempt = await attemptDelivery(delivery, delivery.attempts.length + 1, {
        signal: stop.signal,
        send: this.#options.send,
        tamper: duplicateSend,
      });
    } finally {
      this.#stops?.delete(stop);
    }
    // Shutting down: left `sending` and due; recorded as interrupted and made again after a restart.
    if (attempt === undefined) return;
    const realNow = Date.now();
    const next = withRetryClock(afterAttempt(delivery, attempt, realNow), realNow, this.#clock.now());
    // Refused when someone else changed it meanwhile (a cancel): their version stands.
    const written = await this.store.update(next).catch(() => false);
    this.#notify(delivery.id);
    // Told once: only the write that made it delivered tells.
    if (written && next.state === 'delivered' && next.twin !== undefined) this.#options.onDelivered?.(next.twin);
  }
}
