/**
 * Grouped calls for LevelDB: calls that arrive while a group is being answered
 * wait, and all go out together in the next one. A lone call goes out at once,
 * so it waits for nothing. Two uses:
 *
 * - Group commit ({@link groupCommit}): writes that arrive while a batch is being
 *   written (and fsync'd) go out together in the next batch — one fsync serves
 *   many writes.
 * - Grouped existence checks ({@link groupHas}): one `hasMany` per group. Why:
 *   classic-level builds each read's snapshot and iterator on the calling (main)
 *   thread, under LevelDB's database mutex, which the write thread holds while it
 *   groups and applies batches. Under many concurrent durable writes a `has` per
 *   write kept the event loop blocked on that mutex for about a quarter of its
 *   time (CPU profile of 50 writers on `PUT /api/endpoint/add`); one `hasMany`
 *   per group pays that cost once.
 *
 * @module
 */
import type { Level } from 'level';

/** One write of a batch. */
export type Operation = { type: 'put'; key: string; value: string } | { type: 'del'; key: string };

interface Pending<I, O> {
  input: I;
  resolve: (output: O) => void;
  reject: (error: unknown) => void;
}

/** Answers calls in groups: `answer` gets every input of a group and gives one output per input, in order. */
export class Grouped<I, O> {
  readonly #answer: (inputs: I[]) => Promise<O[]>;
  #queue: Pending<I, O>[] = [];
  #running = false;

  constructor(answer: (inputs: I[]) => Promise<O[]>) {
    this.#answer = answer;
  }

  /**
   * Resolves with the output for `input`, from a group that started after this
   * call; rejects, like every call of its group, when the group fails.
   */
  run(input: I): Promise<O> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ input, resolve, reject });
      if (!this.#running) void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#running = true;
    while (this.#queue.length > 0) {
      const group = this.#queue;
      this.#queue = [];
      try {
        const outputs = await this.#answer(group.map((pending) => pending.input));
        for (let i = 0; i < group.length; i++) (group[i] as Pending<I, O>).resolve(outputs[i] as O);
      } catch (error) {
        for (const pending of group) pending.reject(error);
      }
    }
    this.#running = false;
  }
}

/**
 * Writes in one atomic batch (fsync'd with `sync`) per group. A call may bring
 * several operations that must land together: they go in the same batch.
 */
export function groupCommit(db: Level<string, string>, sync: boolean): Grouped<Operation | readonly Operation[], void> {
  return new Grouped<Operation | readonly Operation[], void>(async (operations) => {
    await db.batch(operations.flat(), { sync });
    return [];
  });
}

/** Whether each key exists, one `hasMany` per group. */
export function groupHas(db: Level<string, string>): Grouped<string, boolean> {
  return new Grouped(async (keys) => (await db.hasMany(keys)).map((found) => found === true));
}
