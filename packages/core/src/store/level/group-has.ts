/**
 * Grouped existence checks for LevelDB: checks that arrive while one is being
 * answered wait, and all go out together in the next `hasMany`.
 *
 * Why: classic-level builds each read's snapshot and iterator on the calling
 * (main) thread, under LevelDB's database mutex, which the write thread holds
 * while it groups and applies batches. Under many concurrent durable writes a
 * `has` per write kept the event loop blocked on that mutex for about a quarter
 * of its time (CPU profile of 50 writers on `PUT /api/endpoint/add`); one
 * `hasMany` per group pays that cost once. A lone check goes out at once.
 *
 * @module
 */
import type { Level } from 'level';

interface Pending {
  key: string;
  resolve: (exists: boolean) => void;
  reject: (error: unknown) => void;
}

export class GroupHas {
  readonly #db: Level<string, string>;
  #queue: Pending[] = [];
  #reading = false;

  constructor(db: Level<string, string>) {
    this.#db = db;
  }

  /**
   * Resolves with whether `key` exists, as seen by a read that started after
   * this call; rejects, like every check of its group, when that read fails.
   */
  has(key: string): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ key, resolve, reject });
      if (!this.#reading) void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#reading = true;
    while (this.#queue.length > 0) {
      const group = this.#queue;
      this.#queue = [];
      try {
        const found = await this.#db.hasMany(group.map((pending) => pending.key));
        for (let i = 0; i < group.length; i++) (group[i] as Pending).resolve(found[i] === true);
      } catch (error) {
        for (const pending of group) pending.reject(error);
      }
    }
    this.#reading = false;
  }
}
