/**
 * What an importer could not carry over: one entry per thing, never dropped
 * silently (`mockpoint import` prints them on standard error and in `--json`;
 * `--strict` exits 1 when there is any).
 *
 * @module
 */

/** One thing an import left out: what it is (`GET /users/:id response 2: rule cookie "session"`) and why. */
export interface LeftOut {
  what: string;
  why: string;
}

/** A collection or route id made of `text`: 1–64 of `A-Z a-z 0-9 _ -`, other characters as `-`. */
export function slugOf(text: string, fallback: string): string {
  const slug = text
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48);
  return slug === '' ? fallback : slug;
}

/** Ids handed out once each: `base`, then `base-2`, `base-3`, … */
export class IdSet {
  readonly #taken = new Set<string>();

  take(base: string): string {
    let id = base;
    for (let n = 2; this.#taken.has(id); n++) id = `${base}-${n}`;
    this.#taken.add(id);
    return id;
  }
}
