/**
 * Work run one after another per key: a step for a key starts once the step
 * for that key before it has ended (resolved or rejected); steps for other keys
 * run at once. A key is forgotten once nothing for it is waiting.
 *
 * @module
 */
export class KeyedTurns {
  /** The last step of each key: made by the first and dropped with the last (a namespace's parts hold none between steps). */
  #last: Map<string, Promise<unknown>> | undefined;

  /** Runs `step` in `key`'s turn. */
  run<T>(key: string, step: () => Promise<T>): Promise<T> {
    const before = this.#last?.get(key);
    const result = before === undefined ? step() : before.then(step, step);
    const done = result.catch(() => undefined);
    this.#last ??= new Map();
    this.#last.set(key, done);
    void done.then(() => {
      const last = this.#last;
      if (last?.get(key) !== done) return;
      last.delete(key);
      if (last.size === 0) this.#last = undefined;
    });
    return result;
  }

  /** Whether a step for `key` is under way or waiting. */
  has(key: string): boolean {
    return this.#last?.has(key) === true;
  }
}
