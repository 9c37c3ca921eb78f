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

/** A name's token, with the load it took it for (a write's token has none). */
interface Held<T> {
  readonly token: symbol;
  value: Promise<T> | undefined;
}

export class ReadTokens<T> {
  /**
   * The token of each name being read (or written, with a shared store), with the load under way:
   * later misses share it while the token stands. Made by the first token and dropped with the
   * last, so that a namespace's caches (one app per test session) hold no map between reads.
   */
  #held: Map<string, Held<T>> | undefined;
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
    // Held: its token stands (a write's withdrawal or a newer token replaces it).
    const flight = this.#held?.get(name)?.value;
    if (flight !== undefined) return flight;
    const held = this.#hold(name);
    held.value = this.#load(name, held.token, load);
    return held.value;
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
    }
  }

  /** A fresh token for `name`, replacing any other. */
  take(name: string): symbol {
    return this.#hold(name).token;
  }

  #hold(name: string): Held<T> {
    const held: Held<T> = { token: Symbol(name), value: undefined };
    this.#held ??= new Map();
    this.#held.set(name, held);
    return held;
  }

  /** Whether `token` is still the one of `name` (nothing withdrew it). */
  stands(name: string, token: symbol): boolean {
    return this.#held?.get(name)?.token === token;
  }

  /** Drops `token` if it is still the one of `name`. */
  release(name: string, token: symbol): void {
    if (this.stands(name, token)) this.withdraw(name);
  }

  /** Withdraws the token of `name` (a write to it). */
  withdraw(name: string): void {
    const held = this.#held;
    if (held === undefined) return;
    held.delete(name);
    if (held.size === 0) this.#held = undefined;
  }

  /** Withdraws the token of `name` and drops what the cache holds for it (a write to it). */
  forget(name: string): void {
    this.withdraw(name);
    this.#cache.delete(name);
  }

  /** Withdraws every token and empties the cache (a clear, or changes that may have been missed). */
  forgetAll(): void {
    this.#held = undefined;
    this.#cache.clear();
  }
}
