/**
 * Per endpoint name, a signal that aborts at the name's next change (its
 * record, routes, queue or signature check, made here or, on a shared store,
 * by another replica): what a streamed answer that ends with `hang` waits on,
 * so a client held open is let go once what it was answered from is gone.
 *
 * @module
 */

export class EndpointChanges {
  /** One controller per name with someone waiting; dropped when it aborts. */
  readonly #waiting = new Map<string, AbortController>();
  /** Who hears of every change (a table that caches per name, the twins). */
  readonly #listeners: ((name: string | undefined) => void)[] = [];

  /** Calls `listener` at every {@link changed}, for as long as this object lives. */
  follow(listener: (name: string | undefined) => void): void {
    this.#listeners.push(listener);
  }

  /** Aborts at the next {@link changed} of `name` (or of every name); never for an earlier one. */
  signal(name: string): AbortSignal {
    let controller = this.#waiting.get(name);
    if (controller === undefined) {
      controller = new AbortController();
      this.#waiting.set(name, controller);
    }
    return controller.signal;
  }

  /** `name` changed; `undefined`: every name may have changed. */
  changed(name: string | undefined): void {
    for (const listener of this.#listeners) listener(name);
    if (name === undefined) {
      const all = [...this.#waiting.values()];
      this.#waiting.clear();
      for (const controller of all) controller.abort();
      return;
    }
    const controller = this.#waiting.get(name);
    if (controller === undefined) return;
    this.#waiting.delete(name);
    controller.abort();
  }
}
