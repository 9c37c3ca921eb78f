/**
 * Ids an importer hands out: route, scenario and collection names made of a
 * peer's names (1–64 of `A-Z a-z 0-9 _ -`), each once.
 *
 * @module
 */

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

/**
 * One path segment as a pattern's literal: kept when it needs no escape,
 * else percent-encoded (`*` too); `undefined` for text no URL can carry (a
 * lone surrogate).
 */
export function safeEncode(segment: string): string | undefined {
  if (/^[A-Za-z0-9._~!$&'()+,;=@-]*$/.test(segment)) return segment;
  try {
    return encodeURIComponent(segment).replace(/\*/g, '%2A');
  } catch {
    return undefined;
  }
}
