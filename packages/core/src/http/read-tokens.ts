/**
 * Withdrawal tokens for the caches in front of the store: one token per name
 * being read. A write to that name (or a clear) withdraws it, and the read
 * fills its cache only while its token stands, so a slow read can never put back
 * what a concurrent write has superseded; writes to other names do not matter.
 *
 * @module
 */
export class ReadTokens {
  readonly #tokens = new Map<string, symbol>();

  /**
   * Reads with `load` under a fresh token for `name`; `fill` gets the value only
   * if no write withdrew the token meanwhile. Resolves with the value either way.
   */
  async read<T>(name: string, load: () => Promise<T>, fill: (value: T) => void): Promise<T> {
    const token = this.take(name);
    try {
      const value = await load();
      if (this.stands(name, token)) fill(value);
      return value;
    } finally {
      this.release(name, token);
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

  /** Withdraws every token (a clear). */
  clear(): void {
    this.#tokens.clear();
  }
}
