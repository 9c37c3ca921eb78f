/**
 * The clock kept in a shared backend (docs/clock.md, "Namespaces and replicas"):
 * replicas on one Redis show one clock. The backend keeps the clock's
 * {@link ClockState} with a version; a change is a compare-and-set on that
 * version, published to every replica before the backend answers (as a record's
 * invalidation is), and each replica holds the newest state it has seen in its
 * own {@link Clock}, so `{{now}}` reads it without asking the backend.
 *
 * Backends that are not shared (memory, LevelDB) have no such part: the clock is
 * the process's, and a restart returns it to real time.
 *
 * @module
 */
import { MockpointError } from '../registry/errors.js';
import type { Clock, ClockState } from './clock.js';

/** The clock's state as the backend holds it: version 0 is real time, never changed. */
export interface VersionedClock {
  readonly version: number;
  readonly state: ClockState;
}

/** A backend part: where replicas keep their one clock. */
export interface SharedClockStore {
  /** The state held now (version 0, `{ offsetMs: 0 }`, when none was ever written). */
  read(): Promise<VersionedClock>;
  /**
   * Writes `state` as version `version + 1` if the held version is still `version`, telling every
   * replica; answers what is held after (the new state, or the one that stood in the way).
   */
  write(version: number, state: ClockState): Promise<{ written: boolean; current: VersionedClock }>;
  /**
   * Calls `listener` with every state written by any replica (this one's too), and with
   * `undefined` when changes may have been missed (the subscription was lost and is back): read again.
   */
  follow(listener: (written: VersionedClock | undefined) => void): void;
}

/** Changes a compare-and-set may lose in a row before the change is refused: each means another replica's landed. */
const MAX_TRIES = 100;

/**
 * An app's {@link Clock}, kept in step with a {@link SharedClockStore} when the
 * backend has one, and the clock alone when it has not.
 */
export class ClockSync {
  readonly clock: Clock;
  /** Resolves once the clock holds the backend's state (at once without one); rejects when it could not be read. */
  readonly loaded: Promise<void>;
  readonly #store: SharedClockStore | undefined;
  #version = 0;

  constructor(clock: Clock, store: SharedClockStore | undefined, report: (error: unknown) => void = () => {}) {
    this.clock = clock;
    this.#store = store;
    if (store === undefined) {
      this.loaded = Promise.resolve();
      return;
    }
    store.follow((written) => {
      if (written !== undefined) this.#take(written);
      else void this.#reload().catch(report);
    });
    this.loaded = this.#reload();
    this.loaded.catch(() => undefined); // awaited by the server before it serves; never an unhandled rejection
  }

  /** Whether the clock is shared with other replicas. */
  get shared(): boolean {
    return this.#store !== undefined;
  }

  /**
   * Applies `change` (freeze, set, advance, reset on the clock given) to the clock,
   * through the backend when it is shared: done once every replica has been sent it.
   * @throws what `change` throws (RangeError), and MockpointError `STORE_UNAVAILABLE`.
   */
  async change(change: (clock: Clock) => void): Promise<void> {
    const store = this.#store;
    if (store === undefined) {
      change(this.clock);
      return;
    }
    for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
      const next = this.clock.copy();
      change(next);
      const { written, current } = await store.write(this.#version, next.state());
      this.#take(current);
      if (written) return;
    }
    throw new MockpointError('STORE_UNAVAILABLE', 'the clock kept changing under this change (other replicas); retry');
  }

  async #reload(): Promise<void> {
    if (this.#store !== undefined) this.#take(await this.#store.read(), true);
  }

  /** Holds `held` unless a newer state is held already (messages and answers may cross). */
  #take(held: VersionedClock, reread = false): void {
    // A backend emptied (its namespace dropped and made again) starts over at 0: a read believes it.
    if (held.version < this.#version && !(reread && held.version === 0)) return;
    this.#version = held.version;
    this.clock.adopt(held.state);
  }
}
