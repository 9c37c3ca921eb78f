/**
 * Withdrawal tokens for the caches in front of the store: one token per name
 * being read. A write to that name (or a clear) withdraws it, and the read
 * fills its cache only while its token stands, so a slow read can never put back
 * what a concurrent write has superseded; writes to other names do not matter.
 * Reads of a name that come while its load is under way (and its token stands)
 * share that load: each miss taking a token of its own would withdraw the one
 * before, so under a steady stream of requests no load would ever fill the cache
 * (a long route list was parsed again for every request, none cached).
 *
 * @module
 */

/** A cache in front of the store (`undefined`: not held). */
export interface NameCache<T> {
  get(name: string): T | undefined;
  set(name: string, value: Exclude<T, undefined>): void;
  delete(name: string): void;
  clear(): void;
}

export class ReadTokens<T> {
  readonly #tokens = new Map<string, symbol>();
  /** The load under way of each name, with the token it took: later misses share it while the token stands. */
  readonly #loading = new Map<string, { token: symbol; value: Promise<T> }>();
  readonly #cache: NameCache<T>;
  readonly #cacheable: () => boolean;

  /** Tokens for reads into `cache`, filled only while `cacheable()` (a shared store delivering changes). */
  constructor(cache: NameCache<T>, cacheable: () => boolean) {
    this.#cache = cache;
    this.#cacheable = cacheable;
  }

  /**
   * What the cache holds for `name`, or else what `load` reads, under a fresh
   * token: it fills the cache (unless `undefined`) only if no write withdrew the
   * token meanwhile.
   */
  read(name: string, load: () => Promise<T>): Promise<T> {
    const hit = this.#cache.get(name);
    if (hit !== undefined) return Promise.resolve(hit);
    const flight = this.#loading.get(name);
    if (flight !== undefined && this.stands(name, flight.token)) return flight.value;
    const token = this.take(name);
    const value = this.#load(name, token, load);
    this.#loading.set(name, { token, value });
    return value;
  }

  async #load(name: string, token: symbol, load: () => Promise<T>): Promise<T> {
    try {
      const value = await load();
      if (value !== undefined && this.stands(name, token) && this.#cacheable()) {
        this.#cache.set(name, value as Exclude<T, undefined>);
      }
      return value;
    } finally {
      this.release(name, token);
      if (this.#loading.get(name)?.token === token) this.#loading.delete(name);
    }
  }

  /** A fresh token for `name`, replacing any other. */
  take(name: string): symbol {
    const token = Symbol(name);
    this.#tokens.set(name, token);
    return token;
  }

  /** Whether `token` is still the one of `name` (nothing withdrew it). */
  stands(name: string, token: symbol): boolean {
    return this.#tokens.get(name) === token;
  }

  /** Drops `token` if it is still the one of `name`. */
  release(name: string, token: symbol): void {
    if (this.#tokens.get(name) === token) this.#tokens.delete(name);
  }

  /** Withdraws the token of `name` (a write to it). */
  withdraw(name: string): void {
    this.#tokens.delete(name);
  }

  /** Withdraws the token of `name` and drops what the cache holds for it (a write to it). */
  forget(name: string): void {
    this.#tokens.delete(name);
    this.#cache.delete(name);
  }

  /** Withdraws every token and empties the cache (a clear, or changes that may have been missed). */
  forgetAll(): void {
    this.#tokens.clear();
    this.#cache.clear();
  }
}
