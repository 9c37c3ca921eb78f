/**
 * Work run one after another per key: a step for a key starts once the step
 * for that key before it has ended (resolved or rejected); steps for other keys
 * run at once. A key is forgotten once nothing for it is waiting.
 *
 * @module
 */
export class KeyedTurns {
  readonly #last = new Map<string, Promise<unknown>>();

  /** Runs `step` in `key`'s turn. */
  run<T>(key: string, step: () => Promise<T>): Promise<T> {
    const before = this.#last.get(key);
    const result = before === undefined ? step() : before.then(step, step);
    const done = result.catch(() => undefined);
    this.#last.set(key, done);
    void done.then(() => {
      if (this.#last.get(key) === done) this.#last.delete(key);
    });
    return result;
  }

  /** Whether a step for `key` is under way or waiting. */
  has(key: string): boolean {
    return this.#last.has(key);
  }
}
