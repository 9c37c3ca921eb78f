/**
 * What one app holds open for its clients right now: each request in flight
 * (a `delay`, a chaos `timeout`, a queued `hang`, a long-poll, a streamed
 * answer, a gRPC call), registered by the adapter that serves it with the way
 * to end it. A namespace with any of it is in use (not idle for its `ttlMs`,
 * never unloaded), and deleting the namespace ends all of it at once
 * (namespace-table.ts).
 *
 * @module
 */

/** Ends one held piece of work now: answers it with an error, or cuts it. */
export type EndHeld = () => void;

export class HeldWork {
  readonly #held = new Set<EndHeld>();
  /** The namespace whose app holds it (`undefined`: the default namespace). */
  readonly namespace: string | undefined;

  constructor(namespace?: string) {
    this.namespace = namespace;
  }

  /** Pieces of work held now. */
  get size(): number {
    return this.#held.size;
  }

  /** Holds `end` until the returned function is called (the work finished on its own). */
  add(end: EndHeld): () => void {
    this.#held.add(end);
    return () => {
      this.#held.delete(end);
    };
  }

  /** Ends every piece held now; one that throws does not keep the others open. */
  endAll(): void {
    const all = [...this.#held];
    this.#held.clear();
    for (const end of all) {
      try {
        end();
      } catch {
        // the connection is gone already: nothing left to end
      }
    }
  }
}
