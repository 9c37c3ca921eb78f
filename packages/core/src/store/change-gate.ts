/**
 * Changes to one name run one after another, and never while a clear runs: a
 * store in memory that writes through to a log (collections, state) uses one,
 * so that memory and the log agree on what a clear removed (a change either
 * lands before the clear, and is cleared, or after it).
 *
 * @module
 */
import { KeyedMutex } from './store.js';

export class ChangeGate {
  readonly #locks = new KeyedMutex();
  /** Changes under way (a clear waits for them); made by the first (a namespace's store seldom changes). */
  #running: Set<Promise<unknown>> | undefined;
  /** The clear under way (changes wait for it). */
  #clearing: Promise<void> | undefined;

  /** Runs `task` after the changes of `name` before it, and not while a clear runs. */
  change<T>(name: string, task: () => Promise<T>): Promise<T> {
    return this.#locks.run(name, async () => {
      while (this.#clearing !== undefined) await this.#clearing;
      const running = task();
      this.#running ??= new Set();
      this.#running.add(running);
      try {
        return await running;
      } finally {
        this.#running?.delete(running);
      }
    });
  }

  /** Runs `task` once the changes under way have ended, holding new ones back until it has. */
  async clear(task: () => Promise<void>): Promise<void> {
    while (this.#clearing !== undefined) await this.#clearing;
    this.#clearing = (async () => {
      await Promise.allSettled([...(this.#running ?? [])]);
      await task();
    })();
    try {
      await this.#clearing;
    } finally {
      this.#clearing = undefined;
    }
  }
}

/** A log a store in memory writes through to (LevelDB gives one): keys and values in atomic, durable batches. */
export interface WriteLog {
  readonly kind: string;
  /** Every key and value written (and not removed), in any order. */
  load(): Promise<Iterable<readonly [string, string]>>;
  /** Writes (a value) or removes (`undefined`) keys, all in one atomic, durable batch. */
  write(changes: readonly { key: string; value: string | undefined }[]): Promise<void>;
  /** Removes every key. */
  clear(): Promise<void>;
}

/**
 * What a store in memory that writes through to a {@link WriteLog} has: its
 * kind (the log's, else `memory`), the log, and the gate its changes pass.
 */
export abstract class WriteThroughStore<Log extends WriteLog> {
  readonly kind: string;
  protected readonly log: Log | undefined;
  /** Changes to one name run one after another (a check and its write are one step), never during a clear. */
  protected readonly gate = new ChangeGate();

  constructor(options: { log?: Log } = {}) {
    this.log = options.log;
    this.kind = options.log?.kind ?? 'memory';
  }
}
