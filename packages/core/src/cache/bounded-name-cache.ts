/**
 * A per-name part cached in front of the store (a signature check, a chaos
 * plan), `null` remembering "none" so the read path of a name without one asks
 * the store nothing more. Bounded by count: past {@link BoundedNameCache.maxNames}
 * the least recently set are forgotten (and read again when asked).
 *
 * @module
 */
export class BoundedNameCache<T> {
  readonly maxNames: number;
  readonly #entries = new Map<string, T | null>();

  constructor(maxNames = 100_000) {
    this.maxNames = maxNames;
  }

  /** The part, `null` for "none", `undefined` when not known here. */
  get(name: string): T | null | undefined {
    return this.#entries.get(name);
  }

  set(name: string, part: T | null): void {
    this.#entries.delete(name);
    this.#entries.set(name, part);
    if (this.#entries.size > this.maxNames) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
  }

  /** Whether some name has a part here (not only "none"). */
  holdsAny(): boolean {
    for (const part of this.#entries.values()) if (part !== null) return true;
    return false;
  }

  delete(name: string): void {
    this.#entries.delete(name);
  }

  clear(): void {
    this.#entries.clear();
  }
}
