/**
 * Compiled route tables by name, bounded by bytes (least recently used first
 * out). `null` remembers that a name has no routes, so the read path of a plain
 * record asks the store nothing more.
 *
 * @module
 */
import type { RouteTable } from './route-table.js';

/** What remembering "no routes" costs: the map slot and the name. */
const NONE_BYTES = 96;

export class RouteCache {
  readonly maxBytes: number;
  readonly #entries = new Map<string, RouteTable | null>();
  #bytes = 0;

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  get bytes(): number {
    return this.#bytes;
  }

  /** The table, `null` for "no routes", `undefined` when not known here. */
  get(name: string): RouteTable | null | undefined {
    return this.#entries.get(name);
  }

  set(name: string, table: RouteTable | null): void {
    this.delete(name);
    const bytes = cost(name, table);
    if (bytes > this.maxBytes) return;
    this.#entries.set(name, table);
    this.#bytes += bytes;
    for (const [oldest, old] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= cost(oldest, old);
    }
  }

  delete(name: string): void {
    if (!this.#entries.has(name)) return;
    this.#bytes -= cost(name, this.#entries.get(name) as RouteTable | null);
    this.#entries.delete(name);
  }

  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }
}

function cost(name: string, table: RouteTable | null): number {
  return name.length * 2 + (table === null ? NONE_BYTES : table.bytes);
}
