/**
 * The request journal: every request to `/endpoint/{name}` is kept in a bounded
 * ring per name (known or not), and long-poll waiters are woken on arrival.
 * Recording is cheap (it sits on the read path); entries are formatted only when
 * somebody reads them.
 *
 * @module
 */

import { keep, keptBytes, responseOf } from '../../answer/answer-journal.js';
import type { JournalEntry, JournalPage } from '../../api/journal-json.js';
import { utf8Text } from '../../codec/utf8.js';
import type { Journal, JournalFollower, JournalSince, NamedEntry } from '../../journal/journal.js';
import { Followers } from '../../journal/journal.js';
import { type AnswerMark, type RecordedRequest, toJournalEntry } from '../../journal/journal-entry.js';
import { MockpointError } from '../../registry/errors.js';

/** Items of several rings (each oldest first) as one list in id order. */
function byId(a: NamedRecord, b: NamedRecord): number {
  return a.item.id - b.item.id;
}

/** Options for {@link RequestJournal}. */
export interface RequestJournalOptions {
  /** Entries kept per name; older ones are dropped. @default 100 */
  size?: number;
  /** Names tracked at once; the least recently used name is dropped. @default 10000 */
  maxNames?: number;
  /**
   * Long-poll waits held at once; one more is refused with `TOO_MANY_WAITERS` (503).
   * Names being waited on are never evicted, so this also bounds how far past
   * `maxNames` the journal can grow. @default 20000
   */
  maxWaiters?: number;
  /**
   * Approximate memory all entries may take together; past it the oldest entries
   * of the least recently used names are dropped, so requests to many unknown
   * names cannot exhaust memory. @default 67108864 (64 MiB)
   */
  maxBytes?: number;
}

/** A recorded request with the journal's figures set on it (one object per entry, the request's own). */
interface Recorded extends RecordedRequest {
  id: number;
  statusCode: number;
  receivedAt: number;
  mark: AnswerMark | undefined;
  /** Approximate memory cost, for the byte bound. */
  bytes: number;
}

/** A recorded request of a ring, with the name it was sent to. */
interface NamedRecord {
  name: string;
  item: Recorded;
}

/** The entry the API lists for `item`. */
function entryOf(item: Recorded): JournalEntry {
  return toJournalEntry(item.id, item, item.statusCode, item.receivedAt, item.mark, responseOf(item, utf8Text));
}

interface Waiter {
  count: number;
  /** Only entries with a greater id count. */
  after: number;
  /** Only entries it accepts count; `have` is how many it has accepted so far. */
  match?: (entry: JournalEntry) => boolean;
  have: number;
  resolve: () => void;
}

/** A fixed-capacity ring of recorded requests, oldest first. */
class Ring {
  /** The long-polls waiting on this name: made by the first (most names are never waited on). */
  waiters: Set<Waiter> | undefined;
  #items: (Recorded | undefined)[] = [];
  #start = 0;
  #count = 0;

  get length(): number {
    return this.#count;
  }

  /** Appends; returns the oldest item when the ring was full and it had to go. */
  push(item: Recorded, capacity: number): Recorded | undefined {
    if (capacity <= 0) return item;
    if (this.#count < capacity) {
      this.#items[(this.#start + this.#count) % capacity] = item;
      this.#count++;
      return undefined;
    }
    const dropped = this.#items[this.#start];
    this.#items[this.#start] = item;
    this.#start = (this.#start + 1) % capacity;
    return dropped;
  }

  /** Removes and returns the oldest item. */
  shift(capacity: number): Recorded | undefined {
    if (this.#count === 0) return undefined;
    const item = this.#items[this.#start];
    this.#items[this.#start] = undefined;
    this.#start = (this.#start + 1) % capacity;
    this.#count--;
    return item;
  }

  /** Items with an id greater than `after`, oldest first. */
  toArray(capacity: number, after = 0): Recorded[] {
    const out: Recorded[] = [];
    for (let i = 0; i < this.#count; i++) {
      const item = this.#items[(this.#start + i) % capacity] as Recorded;
      if (item.id > after) out.push(item);
    }
    return out;
  }

  /** The `i`-th item, oldest first. */
  at(capacity: number, i: number): Recorded {
    return this.#items[(this.#start + i) % capacity] as Recorded;
  }

  /** The index of the oldest item with an id greater than `after` (`length` when none): a binary search, ids increase. */
  indexAfter(capacity: number, after: number): number {
    let low = 0;
    let high = this.#count;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.at(capacity, middle).id > after) high = middle;
      else low = middle + 1;
    }
    return low;
  }

  /** How many items have an id greater than `after` (ids increase, so count from the newest). */
  countAfter(capacity: number, after: number): number {
    let n = 0;
    for (let i = this.#count - 1; i >= 0 && (this.#items[(this.#start + i) % capacity] as Recorded).id > after; i--) {
      n++;
    }
    return n;
  }
}

/** Where a merge of rings stands in one ring: its next item (`i`) and that item's id. */
interface RingCursor {
  name: string;
  ring: Ring;
  i: number;
  id: number;
}

/** A binary min-heap of ring cursors by their next id: the smallest is read, advanced and sifted down. */
class CursorHeap {
  readonly #items: RingCursor[] = [];

  /** The cursor with the smallest next id. */
  peek(): RingCursor | undefined {
    return this.#items[0];
  }

  push(cursor: RingCursor): void {
    const items = this.#items;
    let i = items.length;
    items.push(cursor);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const above = items[parent] as RingCursor;
      if (above.id <= cursor.id) break;
      items[i] = above;
      i = parent;
    }
    items[i] = cursor;
  }

  /** Removes the smallest. */
  pop(): void {
    const last = this.#items.pop();
    if (last !== undefined && this.#items.length > 0) {
      this.#items[0] = last;
      this.sift();
    }
  }

  /** Restores the order after the smallest's id grew. */
  sift(): void {
    const items = this.#items;
    const top = items[0] as RingCursor;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= items.length) break;
      const right = items[child + 1];
      if (right !== undefined && right.id < (items[child] as RingCursor).id) child++;
      const below = items[child] as RingCursor;
      if (below.id >= top.id) break;
      items[i] = below;
      i = child;
    }
    items[i] = top;
  }
}

/** Rough memory cost of a recorded request: its body bytes, its strings (UTF-16) and a fixed overhead. */
function requestBytes(request: RecordedRequest): number {
  let chars = request.target.length;
  for (const part of request.rawHeaders) chars += part.length;
  return request.body.byteLength + chars * 2 + 256 + keptBytes(request);
}

/**
 * Rough memory cost of what a mark adds beyond its shared parts: a proxied request's
 * upstream headers and a validated request's errors (up to 20 messages). Zero for the
 * record's and the queue's marks, so the read path does no work here.
 */
function markBytes(mark: AnswerMark | undefined): number {
  if (mark === undefined || (mark.upstream === undefined && mark.validation === undefined)) return 0;
  let chars = 0;
  if (mark.upstream !== undefined) {
    chars += mark.upstream.url.length;
    for (const [name, value] of Object.entries(mark.upstream.headers ?? {})) {
      chars += name.length + (typeof value === 'string' ? value.length : value.join('').length);
    }
  }
  for (const issue of mark.validation?.errors ?? []) chars += issue.path.length + issue.message.length + 16;
  return chars * 2 + 64;
}

/** The in-memory journal: a bounded ring per name, bounded in names and in bytes. */
export class RequestJournal implements Journal {
  #id: string | undefined;
  readonly size: number;
  readonly maxNames: number;
  readonly maxWaiters: number;
  readonly maxBytes: number;
  readonly #rings = new Map<string, Ring>();
  /** The most recently touched ring, so repeated hits skip the LRU re-insert. */
  #newest: Ring | undefined;
  #nextId = 1;
  #bytes = 0;
  #closed = false;
  #waiterCount = 0;
  readonly #followers = new Followers();

  constructor(options: RequestJournalOptions = {}) {
    this.size = options.size ?? 100;
    this.maxNames = options.maxNames ?? 10_000;
    this.maxWaiters = options.maxWaiters ?? 20_000;
    this.maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  }

  /**
   * Names this journal: a new one (a restarted daemon) gets a new id, so a client
   * holding an `after=<id>` cursor can tell that its cursor is stale. Drawn on its
   * first read (a namespace's journal, one per test session, is seldom read).
   */
  get id(): string {
    this.#id ??= crypto.randomUUID();
    return this.#id;
  }

  /** Approximate bytes held by all entries. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Number of waiters currently held, for tests and diagnostics. */
  get waiterCount(): number {
    return this.#waiterCount;
  }

  /** Number of waiters currently held for `name` (without touching its place in the LRU order). */
  waitersFor(name: string): number {
    return this.#rings.get(name)?.waiters?.size ?? 0;
  }

  /** Records a request (its id is assigned here) and wakes the waiters it satisfies. Returns the id. */
  record(
    name: string,
    request: RecordedRequest,
    statusCode: number,
    mark?: AnswerMark,
    receivedAt: number = Date.now(),
  ): number {
    const ring = this.#ring(name);
    keep(request);
    const item = request as Recorded;
    item.id = this.#nextId++;
    item.statusCode = statusCode;
    item.receivedAt = receivedAt;
    item.mark = mark;
    item.bytes = requestBytes(request) + markBytes(mark);
    this.#bytes += item.bytes;
    const dropped = ring.push(item, this.size);
    if (dropped !== undefined) this.#bytes -= dropped.bytes;
    if (this.#bytes > this.maxBytes) this.#shrink(ring);
    if (ring.waiters !== undefined && ring.waiters.size > 0) this.#wake(ring, item);
    if (this.#followers.size > 0) this.#tell(name, item);
    return item.id;
  }

  /** Hands a new entry to the followers that want its name (formatted once, for all of them). */
  #tell(name: string, item: Recorded): void {
    let batch: NamedEntry[] | undefined;
    for (const follower of this.#followers) {
      if (!follower.wants(name)) continue;
      batch ??= [{ name, entry: entryOf(item) }];
      follower.entries(batch, this.id);
    }
  }

  follow(follower: JournalFollower): () => void {
    return this.#followers.add(follower);
  }

  async since(after: number, name?: string, limit = Number.POSITIVE_INFINITY): Promise<JournalSince> {
    const newest = this.#nextId - 1;
    const one = name === undefined ? undefined : this.#rings.get(name);
    const rings: Iterable<[string, Ring]> = name === undefined ? this.#rings : one === undefined ? [] : [[name, one]];
    // Only the page asked for is collected and formatted (formatting is what costs).
    const items = Number.isFinite(limit) ? this.#page(rings, after, limit) : this.#all(rings, after);
    const entries = items.map(({ name: itemName, item }) => ({ name: itemName, entry: entryOf(item) }));
    return { journalId: this.id, newest, entries };
  }

  async counts(names: readonly string[]): Promise<number[]> {
    return names.map((name) => this.#rings.get(name)?.length ?? 0);
  }

  /** Every item past `after` of `rings`, in id order. */
  #all(rings: Iterable<[string, Ring]>, after: number): NamedRecord[] {
    const items: NamedRecord[] = [];
    for (const [ringName, ring] of rings) {
      for (const item of ring.toArray(this.size, after)) items.push({ name: ringName, item });
    }
    return items.sort(byId);
  }

  /**
   * The oldest `limit` items past `after` of `rings`, in id order: a merge of the
   * rings (each in id order) from where each passes `after`, through a heap keyed
   * by each ring's next id: a page costs a binary search per ring with items past
   * `after` (a ring without costs one comparison of its newest id) plus its own size
   * times log(names), instead of its size times the number of names.
   */
  #page(rings: Iterable<[string, Ring]>, after: number, limit: number): NamedRecord[] {
    const heap = new CursorHeap();
    for (const [ringName, ring] of rings) {
      if (ring.length === 0 || ring.at(this.size, ring.length - 1).id <= after) continue;
      const i = ring.indexAfter(this.size, after);
      heap.push({ name: ringName, ring, i, id: ring.at(this.size, i).id });
    }
    const items: NamedRecord[] = [];
    for (let cursor = heap.peek(); items.length < limit && cursor !== undefined; cursor = heap.peek()) {
      items.push({ name: cursor.name, item: cursor.ring.at(this.size, cursor.i) });
      if (++cursor.i < cursor.ring.length) {
        cursor.id = cursor.ring.at(this.size, cursor.i).id;
        heap.sift();
      } else heap.pop();
    }
    return items;
  }

  #wake(ring: Ring, item: Recorded): void {
    let entry: JournalEntry | undefined; // formatted only when a filtering waiter needs it
    for (const waiter of ring.waiters ?? []) {
      if (waiter.match === undefined) {
        if (ring.countAfter(this.size, waiter.after) >= waiter.count) waiter.resolve();
      } else {
        entry ??= entryOf(item);
        if (waiter.match(entry) && ++waiter.have >= waiter.count) waiter.resolve();
      }
    }
  }

  /** The entries for `name` whose id is greater than `after` (and that `match` accepts), oldest first. */
  list(name: string, after = 0, match?: (entry: JournalEntry) => boolean): JournalEntry[] {
    const ring = this.#rings.get(name);
    if (ring === undefined) return [];
    // Formatted on every read and not kept, so the byte bound counts all there is.
    const entries = ring.toArray(this.size, after).map(entryOf);
    return match === undefined ? entries : entries.filter(match);
  }

  /**
   * Resolves once `name` has at least `count` entries with an id greater than
   * `after`, or `timeoutMs` passes, or `signal` aborts (the client went away).
   * Never polls: waiters are woken by {@link record}. With `after` set to the last
   * id seen, a caller waits for new requests even when the ring is full. With
   * `match`, only the entries it accepts are counted and listed.
   */
  // The parameters as the Journal interface declares them.
  async wait(...[name, count, timeoutMs, signal, after = 0, match]: Parameters<Journal['wait']>): Promise<JournalPage> {
    const have =
      match === undefined
        ? (this.#rings.get(name)?.countAfter(this.size, after) ?? 0)
        : this.list(name, after, match).length;
    if (have < count && timeoutMs > 0 && !signal?.aborted && !this.#closed) {
      if (this.#waiterCount >= this.maxWaiters) {
        throw new MockpointError(
          'TOO_MANY_WAITERS',
          `${this.#waiterCount} long-polls are already waiting (the limit); retry later, or read without wait`,
        );
      }
      // Only a waiter makes a ring for a name nobody has requested yet: plain reads
      // never create rings, so they cannot push real journals out.
      const ring = this.#ring(name);
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', done);
          if (ring.waiters?.delete(waiter) === true) this.#waiterCount--;
          resolve();
        };
        const waiter: Waiter = { count, after, match, have, resolve: done };
        const timer = setTimeout(done, timeoutMs);
        signal?.addEventListener('abort', done, { once: true });
        ring.waiters ??= new Set();
        ring.waiters.add(waiter);
        this.#waiterCount++;
      });
    }
    const requests = this.list(name, after, match);
    return { requests, complete: requests.length >= count };
  }

  /**
   * Answers every pending wait now (with what there is) and every later one at
   * once: for shutting down without holding long-polls open.
   */
  releaseWaiters(): void {
    this.#closed = true;
    for (const ring of this.#rings.values()) for (const waiter of [...(ring.waiters ?? [])]) waiter.resolve();
    this.#followers.end();
  }

  reopen(): void {
    this.#closed = false;
    this.#followers.reopen();
  }

  /** Removes the entries for `name` (waiters stay). */
  clear(name: string): void {
    const ring = this.#rings.get(name);
    if (ring) this.#drain(ring, ring.length);
  }

  /** Removes every entry of every name (waiters stay). */
  clearAll(): void {
    for (const ring of this.#rings.values()) this.#drain(ring, ring.length);
  }

  /** The ring for `name`, created if needed and marked most recently used. */
  #ring(name: string): Ring {
    let ring = this.#rings.get(name);
    if (ring === undefined) {
      ring = new Ring();
      this.#rings.set(name, ring);
      if (this.#rings.size > this.maxNames) this.#evictOne(ring);
    } else if (ring !== this.#newest) {
      this.#rings.delete(name);
      this.#rings.set(name, ring);
    }
    this.#newest = ring;
    return ring;
  }

  /** Drops the least recently used name that nobody waits on, never `keep` (the ring just made). */
  #evictOne(keep: Ring): void {
    for (const [name, ring] of this.#rings) {
      if ((ring.waiters?.size ?? 0) === 0 && ring !== keep) {
        this.#drain(ring, ring.length);
        this.#rings.delete(name);
        return;
      }
    }
  }

  #drain(ring: Ring, count: number): void {
    for (let i = 0; i < count; i++) {
      const item = ring.shift(this.size);
      if (item !== undefined) this.#bytes -= item.bytes;
    }
  }

  /** Drops the oldest entries, least recently used names first, until under the byte bound. */
  #shrink(current: Ring): void {
    for (const ring of this.#rings.values()) {
      // The newest entry of the ring just written to is always kept.
      const keep = ring === current ? 1 : 0;
      while (this.#bytes > this.maxBytes && ring.length > keep) this.#drain(ring, 1);
      if (this.#bytes <= this.maxBytes) return;
    }
  }
}
