/**
 * Where outgoing deliveries are kept, and how an attempt is handed to exactly
 * one sender: this file holds the contract and the stored shape; the memory
 * implementation is beside it (`memory-delivery-store.ts`), the durable ones
 * live with their stores (`LevelStore.openDeliveries()`, `RedisStore.openDeliveries()`).
 *
 * A due delivery is *claimed* before it is attempted: the claim moves its due
 * time a lease ahead ({@link leaseMs}), atomically, so no other sender (another replica on the
 * same Redis) takes the same attempt; writing the attempt's result sets the real
 * next due time. A sender that dies mid-attempt leaves the lease to run out,
 * after which the attempt is made again by whoever claims it then.
 *
 * @module
 */
import type { Delivery, DeliverySign } from '../api/delivery-json.js';

/** A delivery as stored: everything needed to make the next attempt after a restart (the secret too). */
export interface StoredDelivery
  extends Pick<Delivery, 'id' | 'url' | 'method' | 'state' | 'webhookId' | 'tamper' | 'timeoutMs' | 'bodyBytes'>,
    Pick<Delivery, 'attempts' | 'outcome'> {
  /** Request headers as given (the signature headers are added per attempt). */
  headers: Record<string, string>;
  /** The exact body bytes, base64. */
  bodyBase64: string;
  /** The scheme and its secret. */
  sign?: DeliverySign;
  delaysMs: number[];
  /** Milliseconds since the epoch. */
  createdAt: number;
  /** Milliseconds since the epoch, while pending. */
  nextAttemptAt?: number;
  /**
   * While a retry waits: the app's clock time it is due at (delivery-clock.ts), so that
   * moving the clock moves it. Absent in deliveries written before it existed.
   */
  retryClockAt?: number;
  /**
   * The attempt being made: written (durably) before its request goes out, and
   * replaced by its result. Still set when its sender stopped first: the next
   * sender records it as `INTERRUPTED` before making the next attempt, so the
   * history never lacks an attempt that was sent.
   */
  sending?: { n: number; at: number };
  /** The twin's event it carries (a twin's webhook to a subscriber): told to the twin once delivered. */
  twin?: TwinEventRef;
  /** Incremented by every write: a write based on an older version is refused (see {@link DeliveryStore.update}). */
  version: number;
}

/** A twin's event: the name holding the twin and the event's id. */
export interface TwinEventRef {
  name: string;
  event: string;
}

/** Storage for deliveries. */
export interface DeliveryStore {
  /** `memory`, `level` or `redis`. */
  readonly kind: string;
  /** True when other processes add and claim deliveries in it too (so a sender polls it). */
  readonly shared: boolean;
  /**
   * Stores a new delivery (due at its `nextAttemptAt`) unless `maxPending`
   * deliveries are pending already; resolves whether it stored it. The count and
   * the create are one atomic step (concurrent creates never pass the limit, also
   * across the processes sharing the store). Durable on resolve.
   */
  create(delivery: StoredDelivery, maxPending: number): Promise<boolean>;
  /**
   * Replaces a delivery if its stored version is still `delivery.version - 1`;
   * resolves whether it did. Finished deliveries leave the due index. Durable on resolve.
   */
  update(delivery: StoredDelivery): Promise<boolean>;
  get(id: string): Promise<StoredDelivery | undefined>;
  /** Newest first, at most `limit`. */
  list(limit: number): Promise<StoredDelivery[]>;
  /**
   * Up to `max` deliveries due at `now`, each moved {@link leaseMs} ahead in the
   * due index in the same atomic step (so each is claimed by one caller).
   */
  claim(now: number, max: number): Promise<StoredDelivery[]>;
  /** The earliest due time, or `undefined` when nothing is pending. */
  nextDue(): Promise<number | undefined>;
  /** How many deliveries are pending. */
  pendingCount(): Promise<number>;
  /** Lets go of what the store holds open; not the endpoint store it may belong to. */
  close?(): Promise<void>;
}

/**
 * How long a claimed attempt is left to its sender before another may take it:
 * past the attempt's own timeout, so a live sender is never overtaken; a sender
 * that died leaves its attempt to be made again after it.
 */
export function leaseMs(delivery: Pick<StoredDelivery, 'timeoutMs'>): number {
  return delivery.timeoutMs + 5_000;
}

/** Finished deliveries kept (the oldest are dropped past it). */
export const KEPT_FINISHED_DELIVERIES = 1000;

/** A fresh delivery id: `dlv_`, the creation time in base 36 (so ids sort by time), and random hex. */
export function newDeliveryId(now: number): string {
  const random = crypto.getRandomValues(new Uint8Array(6));
  let hex = '';
  for (const byte of random) hex += byte.toString(16).padStart(2, '0');
  return `dlv_${now.toString(36).padStart(9, '0')}${hex}`;
}
