/**
 * The namespaces a test file's sessions take, opened in batches: one `POST /api/namespaces
 * { count }` for several tests instead of one request each (a session's open was one of its
 * three requests to the daemon). The first batch is one namespace, each next one twice the last,
 * up to {@link MAX_BATCH}: a file of one test costs what it did, a long file a request per eight
 * tests. What no test took is deleted after the file; a run killed before that leaves them to
 * their `ttlMs`, as a session of a killed test. One that waited in the pool half its `ttlMs` is
 * deleted rather than taken: the daemon may delete it as idle under the test.
 *
 * @module
 */
import { type CreatedNamespace, createNamespaces, deleteNamespace, type NamespaceApi } from './namespaces.js';

/** The largest batch: at most this many less one are opened for nothing after a file's last test. */
export const MAX_BATCH = 8;

/** A file's pool of fresh namespaces. */
export class NamespacePool {
  readonly #api: NamespaceApi;
  readonly #ttlMs: number;
  readonly #now: () => number;
  /** Fresh namespaces, with when they were opened (by `now`). */
  readonly #ready: { namespace: CreatedNamespace; at: number }[] = [];
  #next = 1;
  #filling: Promise<void> | undefined;

  constructor(api: NamespaceApi, ttlMs: number, now: () => number = Date.now) {
    this.#api = api;
    this.#ttlMs = ttlMs;
    this.#now = now;
  }

  /** A fresh namespace of the pool's, opening the next batch when none is left. */
  async take(): Promise<CreatedNamespace> {
    for (;;) {
      const ready = this.#ready.shift();
      if (ready !== undefined) {
        if (this.#now() - ready.at < this.#ttlMs / 2) return ready.namespace;
        // Too near its idle end: let go of it (the daemon deletes it by its ttlMs if this fails).
        void deleteNamespace(this.#api, ready.namespace.name).catch(() => undefined);
        continue;
      }
      // One batch at a time; tests waiting for it take from it, and those left over ask again.
      this.#filling ??= this.#fill().finally(() => {
        this.#filling = undefined;
      });
      await this.#filling;
    }
  }

  /** Deletes the namespaces no test took (after the file), and starts again from a batch of one. */
  async drain(): Promise<void> {
    await this.#filling?.catch(() => undefined);
    const left = this.#ready.splice(0);
    this.#next = 1;
    await Promise.all(left.map(({ namespace }) => deleteNamespace(this.#api, namespace.name)));
  }

  async #fill(): Promise<void> {
    const count = this.#next;
    this.#next = Math.min(count * 2, MAX_BATCH);
    const at = this.#now();
    const made = await createNamespaces(this.#api, { ttlMs: this.#ttlMs, count });
    this.#ready.push(...made.map((namespace) => ({ namespace, at })));
  }
}
