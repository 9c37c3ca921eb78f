/**
 * The twins' webhooks on their way to the delivery engine (#71 M4): a change
 * keeps its events before it answers, and leaves their deliveries here; each
 * twin's are handed to the delivery engine after the answer, one at a time, in
 * the order the changes were made (so each receiver's deliveries are made in
 * the order of the events). A twin's queue is bounded: a change that finds it
 * full waits for room, so nothing is dropped here. A delivery the engine
 * refuses (a twin's share of the pending deliveries full, a host not allowed)
 * is counted and its refusal kept for `GET /api/endpoints/{name}/twin`.
 *
 * The queue lives in the process, but what it holds is kept in the twin's
 * `_outbox` collection too (twin-outbox-kept.ts), written before the change
 * answers: a change's `done` runs once all its deliveries are handed off (and
 * removes its entry), and a daemon killed before that hands them off after
 * its restart. A graceful stop hands everything off first ({@link TwinOutbox.drain}).
 *
 * @module
 */
import { MockpointError } from '../registry/errors.js';

/**
 * One delivery: `POST /api/deliveries`'s members as JSON texts, and the id of the twin's event it
 * carries when the twin keeps its events (told back once delivered: Stripe's `pending_webhooks`).
 */
export type DeliveryMembers = ReadonlyMap<string, string> & { readonly event?: string };

/** A delivery to hand off, or the refusal it is counted as (its event gone before it could be). */
export type Handed = DeliveryMembers | MockpointError;

/** One item of a queue: a delivery, and what runs once it and those before it are handed off. */
interface QueueItem {
  delivery: Handed;
  done?: () => void;
}

/** What a twin's webhooks did in this process, for `GET …/twin`. */
export interface TwinWebhooks {
  /** Deliveries waiting to be handed to the delivery engine. */
  waiting: number;
  /** Handed to it (`GET /api/deliveries` lists them). */
  handed: number;
  /** Refused by it, and so never sent. */
  refused: number;
  /** The latest refusal. */
  lastRefusal?: { code: string; message: string; at: string };
}

/** Options for {@link TwinOutbox}. */
export interface TwinOutboxOptions {
  /** Hands one delivery of `name`'s twin to the delivery engine (rejecting with its refusal). */
  deliver: (members: DeliveryMembers, name: string) => Promise<unknown>;
  /** Deliveries one twin's queue holds before a change waits for room. @default 2000 */
  most?: number;
}

/** One twin's queue and counts. */
interface Queue extends Omit<TwinWebhooks, 'waiting'> {
  name: string;
  /** Not handed off yet (besides the one being handed off while `running`). */
  items: QueueItem[];
  /** Wakes the changes waiting for room. */
  room: (() => void)[];
  running: boolean;
}

/** Most twins whose counts are kept; past it, those with nothing waiting are forgotten. */
const MAX_KEPT = 10_000;

export class TwinOutbox {
  readonly #deliver: TwinOutboxOptions['deliver'];
  readonly #most: number;
  readonly #queues = new Map<string, Queue>();
  /** Wakes {@link drain}'s callers when every queue is empty. */
  #idle: (() => void)[] = [];

  constructor(options: TwinOutboxOptions) {
    this.#deliver = options.deliver;
    this.#most = options.most ?? 2000;
  }

  /** Whether deliveries wait to be handed off: the app is not idle. */
  get busy(): boolean {
    for (const queue of this.#queues.values()) if (queue.running) return true;
    return false;
  }

  /**
   * Queues the deliveries of one change of `name`'s twin, in order, behind those queued before;
   * resolves once they are queued (after waiting for room when the queue is full). `done` runs
   * once they are all handed off (or refused).
   */
  async push(name: string, deliveries: readonly Handed[], done?: () => void): Promise<void> {
    if (deliveries.length === 0) {
      done?.();
      return;
    }
    const queue = this.#queue(name);
    // A change larger than the bound waits for an empty queue, then goes in whole.
    while (queue.items.length > 0 && queue.items.length + deliveries.length > this.#most) {
      await new Promise<void>((resolve) => queue.room.push(resolve));
    }
    const last = deliveries.length - 1;
    queue.items.push(...deliveries.map((delivery, i) => (i === last && done ? { delivery, done } : { delivery })));
    if (!queue.running) void this.#run(queue);
  }

  /** What `name`'s twin's webhooks did in this process. */
  status(name: string): TwinWebhooks {
    const queue = this.#queues.get(name);
    if (queue === undefined) return { waiting: 0, handed: 0, refused: 0 };
    const { handed, refused, lastRefusal } = queue;
    const waiting = queue.items.length + (queue.running ? 1 : 0);
    return { waiting, handed, refused, ...(lastRefusal === undefined ? {} : { lastRefusal }) };
  }

  /** Resolves once every queue is handed off (a graceful stop calls it before the delivery engine closes). */
  drain(): Promise<void> {
    if (!this.busy) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  #queue(name: string): Queue {
    let queue = this.#queues.get(name);
    if (queue === undefined) {
      if (this.#queues.size >= MAX_KEPT) {
        for (const [key, kept] of this.#queues) if (!kept.running && kept.items.length === 0) this.#queues.delete(key);
      }
      queue = { name, items: [], room: [], running: false, handed: 0, refused: 0 };
      this.#queues.set(name, queue);
    }
    return queue;
  }

  /** Hands `queue`'s deliveries off one at a time, until none waits. */
  async #run(queue: Queue): Promise<void> {
    queue.running = true;
    let next = queue.items.shift();
    while (next !== undefined) {
      try {
        if (next.delivery instanceof MockpointError) throw next.delivery;
        await this.#deliver(next.delivery, queue.name);
        queue.handed++;
      } catch (error) {
        queue.refused++;
        queue.lastRefusal = {
          code: error instanceof MockpointError ? error.code : 'INTERNAL',
          message: error instanceof Error ? error.message.slice(0, 500) : String(error).slice(0, 500),
          at: new Date().toISOString(),
        };
      }
      next.done?.();
      for (const wake of queue.room.splice(0)) wake();
      next = queue.items.shift();
    }
    queue.running = false;
    if (!this.busy) for (const wake of this.#idle.splice(0)) wake();
  }
}
