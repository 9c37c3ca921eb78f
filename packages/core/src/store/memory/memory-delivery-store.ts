/**
 * The {@link DeliveryStore} of one process: deliveries in a Map, the due index
 * beside it. With a {@link DeliveryBackend} every write also goes to disk (the
 * LevelDB store uses it), and what the backend holds is loaded at open; without
 * one nothing survives the process (the memory store is not durable).
 *
 * @module
 */
import {
  type DeliveryStore,
  KEPT_FINISHED_DELIVERIES,
  leaseMs,
  type StoredDelivery,
} from '../../webhook/delivery-store.js';

/** Where a {@link MemoryDeliveryStore} writes through to, for durability. */
export interface DeliveryBackend {
  readonly kind: string;
  /** Every stored delivery's JSON text. */
  load(): Promise<string[]>;
  /** Writes (text) or removes (`undefined`) deliveries, all in one durable batch. */
  write(changes: ReadonlyArray<{ id: string; text: string | undefined }>): Promise<void>;
}

/** Options for {@link MemoryDeliveryStore}. */
export interface MemoryDeliveryStoreOptions {
  /** Write every change through to it. @default none (nothing survives the process) */
  backend?: DeliveryBackend;
  /** Finished deliveries kept, newest first. @default 1000 */
  keepFinished?: number;
}

export class MemoryDeliveryStore implements DeliveryStore {
  readonly kind: string;
  readonly shared = false;
  readonly #backend: DeliveryBackend | undefined;
  readonly #keep: number;
  /** By id, in creation order (ids sort by time, and are added in that order). */
  readonly #deliveries = new Map<string, StoredDelivery>();
  /** Pending ids and when each is due (moved ahead while claimed). */
  readonly #due = new Map<string, number>();
  #finished = 0;
  /** Creates counted against the pending limit whose write has not resolved yet. */
  #reserved = 0;

  constructor(options: MemoryDeliveryStoreOptions = {}) {
    this.#backend = options.backend;
    this.kind = options.backend?.kind ?? 'memory';
    this.#keep = options.keepFinished ?? KEPT_FINISHED_DELIVERIES;
  }

  /** A store holding what `backend` has, writing through to it. */
  static async open(options: MemoryDeliveryStoreOptions & { backend: DeliveryBackend }): Promise<MemoryDeliveryStore> {
    const store = new MemoryDeliveryStore(options);
    const loaded = (await options.backend.load()).map((text) => JSON.parse(text) as StoredDelivery);
    loaded.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    // An attempt left `sending` was cut short with the process that made it (one process opens
    // a data directory): no lease to wait out, it is due at once (and recorded as interrupted).
    for (const delivery of loaded)
      store.#hold(delivery.sending === undefined ? delivery : { ...delivery, nextAttemptAt: delivery.sending.at });
    return store;
  }

  async create(delivery: StoredDelivery, maxPending: number): Promise<boolean> {
    // Counted and reserved before the write's await: concurrent creates see each other's reservations.
    if (this.#due.size + this.#reserved >= maxPending) return false;
    this.#reserved++;
    try {
      await this.#backend?.write([{ id: delivery.id, text: JSON.stringify(delivery) }]);
    } finally {
      this.#reserved--;
    }
    this.#hold(delivery);
    await this.#trim();
    return true;
  }

  async update(delivery: StoredDelivery): Promise<boolean> {
    const current = this.#deliveries.get(delivery.id);
    if (current === undefined || current.version !== delivery.version - 1) return false;
    // Taken now, before the write's await: a concurrent update of the same version loses.
    this.#deliveries.set(delivery.id, delivery);
    try {
      await this.#backend?.write([{ id: delivery.id, text: JSON.stringify(delivery) }]);
    } catch (error) {
      if (this.#deliveries.get(delivery.id) === delivery) this.#deliveries.set(delivery.id, current);
      throw error;
    }
    if (current.state === 'pending' && delivery.state !== 'pending') this.#finished++;
    if (delivery.state === 'pending' && delivery.nextAttemptAt !== undefined)
      this.#due.set(delivery.id, delivery.nextAttemptAt);
    else this.#due.delete(delivery.id);
    await this.#trim();
    return true;
  }

  async get(id: string): Promise<StoredDelivery | undefined> {
    return this.#deliveries.get(id);
  }

  async list(limit: number): Promise<StoredDelivery[]> {
    const all = [...this.#deliveries.values()];
    return all.slice(Math.max(0, all.length - limit)).reverse();
  }

  async claim(now: number, max: number): Promise<StoredDelivery[]> {
    const claimed: StoredDelivery[] = [];
    for (const [id, due] of this.#due) {
      if (claimed.length >= max) break;
      if (due > now) continue;
      const delivery = this.#deliveries.get(id) as StoredDelivery;
      this.#due.set(id, now + leaseMs(delivery));
      claimed.push(delivery);
    }
    return claimed;
  }

  async nextDue(): Promise<number | undefined> {
    let earliest: number | undefined;
    for (const due of this.#due.values()) if (earliest === undefined || due < earliest) earliest = due;
    return earliest;
  }

  async pendingCount(): Promise<number> {
    return this.#due.size;
  }

  #hold(delivery: StoredDelivery): void {
    this.#deliveries.set(delivery.id, delivery);
    if (delivery.state === 'pending') this.#due.set(delivery.id, delivery.nextAttemptAt ?? delivery.createdAt);
    else this.#finished++;
  }

  /** Drops the oldest finished deliveries past the number kept. */
  async #trim(): Promise<void> {
    if (this.#finished <= this.#keep) return;
    const drop: string[] = [];
    for (const delivery of this.#deliveries.values()) {
      if (this.#finished - drop.length <= this.#keep) break;
      if (delivery.state !== 'pending') drop.push(delivery.id);
    }
    for (const id of drop) this.#deliveries.delete(id);
    this.#finished -= drop.length;
    await this.#backend?.write(drop.map((id) => ({ id, text: undefined })));
  }
}
