/**
 * The listeners of a queue's changes ({@link AnswerQueue.onChange}), for every
 * queue implementation.
 *
 * @module
 */
import type { AnswerQueue } from './answer-queue.js';

/** Who is told of a queue's changes: a name, or `undefined` for every name. */
export class QueueListeners {
  /** A queue has one listener as a rule (its app's endpoint service): it is kept as it is, a set made for more. */
  #one: Listener | undefined;
  #more: Set<Listener> | undefined;

  /** Adds `listener`; returns a function that removes it (as {@link AnswerQueue.onChange}). */
  add(listener: Listener): () => void {
    if (this.#one === undefined && this.#more === undefined) {
      this.#one = listener;
    } else {
      this.#more ??= new Set(this.#one === undefined ? [] : [this.#one]);
      this.#one = undefined;
      this.#more.add(listener);
    }
    return () => {
      if (this.#one === listener) this.#one = undefined;
      else this.#more?.delete(listener);
    };
  }

  /** Tells every listener that the queue of `name` (`undefined`: every queue) changed. */
  emit(name: string | undefined): void {
    if (this.#one !== undefined) this.#one(name);
    else if (this.#more !== undefined) for (const listener of this.#more) listener(name);
  }
}

type Listener = (name: string | undefined) => void;
