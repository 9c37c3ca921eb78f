/**
 * The request journal: every request to `/endpoint/{name}` is kept in a bounded
 * ring per name (known or not), and long-poll waiters are woken on arrival.
 *
 * @module
 */

/** One request received at `/endpoint/{name}`. */
export interface JournalEntry {
  /** Increasing sequence number across the whole journal. */
  id: number;
  method: string;
  /** The request path, without the query string. */
  path: string;
  /** Query parameters; repeated keys become arrays. */
  query: Record<string, string | string[]>;
  /** Request headers, lower-cased names. */
  headers: Record<string, string>;
  /** The body as text (UTF-8), possibly truncated (see `bodyTruncated`). */
  body: string;
  /** True when the body was longer than the journal keeps. */
  bodyTruncated: boolean;
  /** The body parsed as JSON, when it parses; otherwise absent. */
  json?: unknown;
  /** ISO 8601 time of arrival. */
  receivedAt: string;
  /** The status mockpoint answered with (404 for an unknown name). */
  statusCode: number;
}

/** The journal keeps at most this many bytes of each request body. */
export const JOURNAL_BODY_LIMIT = 64 * 1024;

/**
 * Reads at most `limit` bytes of the body as UTF-8. Past the limit the rest of
 * the stream is cancelled (never buffered) and the prefix is kept.
 */
async function readBodyPrefix(request: Request, limit: number): Promise<{ body: string; bodyTruncated: boolean }> {
  // `request.body` rather than Content-Length: a Request built in-process
  // (`app.request()`, the client's `app` option) carries a body without one.
  if (request.body === null) return { body: '', bodyTruncated: false };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let bodyTruncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (total + value.byteLength > limit) {
      chunks.push(value.subarray(0, limit - total));
      total = limit;
      bodyTruncated = true;
      await reader.cancel().catch(() => undefined);
      break;
    }
    chunks.push(value);
    total += value.byteLength;
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  // `stream: true` drops a multi-byte character cut in half by the limit
  // instead of turning it into U+FFFD.
  return { body: new TextDecoder().decode(bytes, { stream: bodyTruncated }), bodyTruncated };
}

/** Query parameters as a record; repeated keys become arrays. */
export function parseQuery(params: URLSearchParams): Record<string, string | string[]> {
  // A null-prototype object while collecting, so `__proto__` is an ordinary key.
  const query: Record<string, string | string[]> = Object.create(null);
  for (const [key, value] of params) {
    const seen = query[key];
    query[key] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return { ...query };
}

/**
 * Builds the journal entry for a request to `/endpoint/{name}` (reading up to
 * `bodyLimit` bytes of its body) answered with `statusCode`.
 */
export async function toJournalEntry(
  request: Request,
  statusCode: number,
  bodyLimit: number = JOURNAL_BODY_LIMIT,
): Promise<Omit<JournalEntry, 'id'>> {
  const url = new URL(request.url);
  const headers: Record<string, string> = Object.create(null);
  request.headers.forEach((value, key) => {
    headers[key] = value;
  });
  const { body, bodyTruncated } = await readBodyPrefix(request, bodyLimit);
  const entry: Omit<JournalEntry, 'id'> = {
    method: request.method,
    path: url.pathname,
    query: parseQuery(url.searchParams),
    headers: { ...headers },
    body,
    bodyTruncated,
    receivedAt: new Date().toISOString(),
    statusCode,
  };
  if (body !== '' && !bodyTruncated) {
    try {
      entry.json = JSON.parse(body);
    } catch {
      // not JSON: the text is kept as it is
    }
  }
  return entry;
}

/** The answer of a (possibly long-polling) journal read. */
export interface JournalPage {
  requests: JournalEntry[];
  /** Whether at least the requested count had arrived (always true without `count`). */
  complete: boolean;
}

/** Options for {@link RequestJournal}. */
export interface RequestJournalOptions {
  /** Entries kept per name; older ones are dropped. @default 100 */
  size?: number;
  /** Names tracked at once; the least recently used name is dropped. @default 10000 */
  maxNames?: number;
  /**
   * Approximate memory all entries may take together; past it the oldest entries
   * of the least recently used names are dropped, so requests to many unknown
   * names cannot exhaust memory. @default 67108864 (64 MiB)
   */
  maxBytes?: number;
}

/** Rough memory cost of an entry: its strings (UTF-16) plus a fixed overhead. */
function entryBytes(entry: JournalEntry): number {
  let chars = entry.body.length + entry.path.length;
  for (const key in entry.headers) chars += key.length + (entry.headers[key] as string).length;
  return chars * 2 + 256;
}

/** How many of `entries` (in id order) have an id greater than `after`. */
function countAfter(entries: JournalEntry[], after: number): number {
  let n = 0;
  for (let i = entries.length - 1; i >= 0 && (entries[i] as JournalEntry).id > after; i--) n++;
  return n;
}

interface Waiter {
  count: number;
  /** Only entries with a greater id count. */
  after: number;
  resolve: () => void;
}

interface Ring {
  entries: JournalEntry[];
  /** `entryBytes` of each entry, in the same order. */
  sizes: number[];
  waiters: Set<Waiter>;
}

export class RequestJournal {
  readonly size: number;
  readonly maxNames: number;
  readonly maxBytes: number;
  readonly #rings = new Map<string, Ring>();
  #nextId = 1;
  #bytes = 0;

  constructor(options: RequestJournalOptions = {}) {
    this.size = options.size ?? 100;
    this.maxNames = options.maxNames ?? 10_000;
    this.maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  }

  /** Approximate bytes held by all entries. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Appends an entry (its `id` is assigned here) and wakes the waiters it satisfies. */
  record(name: string, entry: Omit<JournalEntry, 'id'>): JournalEntry {
    const ring = this.#ring(name, true);
    const full: JournalEntry = { id: this.#nextId++, ...entry };
    const bytes = entryBytes(full);
    ring.entries.push(full);
    ring.sizes.push(bytes);
    this.#bytes += bytes;
    if (ring.entries.length > this.size) this.#dropOldest(ring, ring.entries.length - this.size);
    if (this.#bytes > this.maxBytes) this.#shrink(ring);
    for (const waiter of ring.waiters) {
      if (countAfter(ring.entries, waiter.after) >= waiter.count) waiter.resolve();
    }
    return full;
  }

  /** The entries for `name` whose id is greater than `after`, oldest first. */
  list(name: string, after = 0): JournalEntry[] {
    const entries = this.#rings.get(name)?.entries ?? [];
    return after === 0 ? [...entries] : entries.filter((entry) => entry.id > after);
  }

  /**
   * Resolves once `name` has at least `count` entries with an id greater than
   * `after`, or `timeoutMs` passes, or `signal` aborts (the client went away).
   * Never polls: waiters are woken by {@link record}. With `after` set to the last
   * id seen, a caller waits for new requests even when the ring is full.
   */
  async wait(name: string, count: number, timeoutMs: number, signal?: AbortSignal, after = 0): Promise<JournalPage> {
    const have = this.list(name, after);
    if (have.length >= count || timeoutMs <= 0 || signal?.aborted) {
      return { requests: have, complete: have.length >= count };
    }
    const ring = this.#ring(name, true);
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        ring.waiters.delete(waiter);
        resolve();
      };
      const waiter: Waiter = { count, after, resolve: done };
      const timer = setTimeout(done, timeoutMs);
      signal?.addEventListener('abort', done, { once: true });
      ring.waiters.add(waiter);
    });
    const requests = this.list(name, after);
    return { requests, complete: requests.length >= count };
  }

  /** Removes the entries for `name` (waiters stay). */
  clear(name: string): void {
    const ring = this.#rings.get(name);
    if (ring) this.#dropOldest(ring, ring.entries.length);
  }

  /** Removes every entry of every name (waiters stay). */
  clearAll(): void {
    for (const ring of this.#rings.values()) this.#dropOldest(ring, ring.entries.length);
  }

  /** Number of waiters currently held, for tests and diagnostics. */
  get waiterCount(): number {
    let n = 0;
    for (const ring of this.#rings.values()) n += ring.waiters.size;
    return n;
  }

  #ring(name: string, touch: boolean): Ring {
    let ring = this.#rings.get(name);
    if (ring === undefined) {
      ring = { entries: [], sizes: [], waiters: new Set() };
      this.#rings.set(name, ring);
      if (this.#rings.size > this.maxNames) this.#evictOne();
    } else if (touch) {
      this.#rings.delete(name);
      this.#rings.set(name, ring);
    }
    return ring;
  }

  #evictOne(): void {
    for (const [name, ring] of this.#rings) {
      if (ring.waiters.size === 0) {
        this.#dropOldest(ring, ring.entries.length);
        this.#rings.delete(name);
        return;
      }
    }
  }

  #dropOldest(ring: Ring, count: number): void {
    ring.entries.splice(0, count);
    for (const bytes of ring.sizes.splice(0, count)) this.#bytes -= bytes;
  }

  /** Drops the oldest entries, least recently used names first, until under the byte bound. */
  #shrink(current: Ring): void {
    for (const ring of this.#rings.values()) {
      // The newest entry of the ring just written to is always kept.
      const keep = ring === current ? 1 : 0;
      while (this.#bytes > this.maxBytes && ring.entries.length > keep) this.#dropOldest(ring, 1);
      if (this.#bytes <= this.maxBytes) return;
    }
  }
}
