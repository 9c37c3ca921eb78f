/**
 * The cache of signature checks by endpoint name, in front of the store (as
 * `answer/routes/route-cache.ts` is for route tables).
 *
 * @module
 */
import type { SignatureCheck } from './signature-check.js';

/**
 * The signature checks known here by name, `null` remembering "none" so the read
 * path of a name without one asks the store nothing more. Bounded by count:
 * past {@link SignatureCheckCache.maxNames} the least recently set are forgotten
 * (and read again when asked).
 */
export class SignatureCheckCache {
  readonly maxNames: number;
  readonly #entries = new Map<string, SignatureCheck | null>();

  constructor(maxNames = 100_000) {
    this.maxNames = maxNames;
  }

  /** The check, `null` for "none", `undefined` when not known here. */
  get(name: string): SignatureCheck | null | undefined {
    return this.#entries.get(name);
  }

  set(name: string, check: SignatureCheck | null): void {
    this.#entries.delete(name);
    this.#entries.set(name, check);
    if (this.#entries.size > this.maxNames) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
  }

  delete(name: string): void {
    this.#entries.delete(name);
  }

  clear(): void {
    this.#entries.clear();
  }
}
