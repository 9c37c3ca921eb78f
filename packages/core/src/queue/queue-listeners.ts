/**
 * The listeners of a queue's changes ({@link AnswerQueue.onChange}), for every
 * queue implementation.
 *
 * @module
 */
import type { AnswerQueue } from './answer-queue.js';

/** Who is told of a queue's changes: a name, or `undefined` for every name. */
export class QueueListeners {
  readonly #listeners = new Set<(name: string | undefined) => void>();

  /** Adds `listener`; returns a function that removes it (as {@link AnswerQueue.onChange}). */
  add(listener: (name: string | undefined) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Tells every listener that the queue of `name` (`undefined`: every queue) changed. */
  emit(name: string | undefined): void {
    for (const listener of this.#listeners) listener(name);
  }
}
