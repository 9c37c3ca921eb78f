/**
 * Group commit for LevelDB: writes that arrive while a batch is being written
 * (and fsync'd) wait, and all go out together in the next batch — one fsync
 * serves many writes. A lone write is written at once, so it waits for nothing.
 *
 * @module
 */
import type { Level } from 'level';

/** One write of a batch. */
export type Operation = { type: 'put'; key: string; value: string } | { type: 'del'; key: string };

interface Pending {
  operation: Operation;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class GroupCommit {
  readonly #db: Level<string, string>;
  readonly #sync: boolean;
  #queue: Pending[] = [];
  #writing = false;

  constructor(db: Level<string, string>, sync: boolean) {
    this.#db = db;
    this.#sync = sync;
  }

  /**
   * Resolves once `operation` is written (and fsync'd with `sync`), in one atomic
   * batch with whatever else was queued; rejects, like every write of that batch,
   * when the batch fails.
   */
  write(operation: Operation): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ operation, resolve, reject });
      if (!this.#writing) void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#writing = true;
    while (this.#queue.length > 0) {
      const batch = this.#queue;
      this.#queue = [];
      try {
        await this.#db.batch(
          batch.map((pending) => pending.operation),
          { sync: this.#sync },
        );
        for (const pending of batch) pending.resolve();
      } catch (error) {
        for (const pending of batch) pending.reject(error);
      }
    }
    this.#writing = false;
  }
}
