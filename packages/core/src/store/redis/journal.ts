/**
 * The request journal shared by every replica on one Redis: a Redis Stream per
 * name, bounded like the memory journal (per name, in names, in bytes), ids from
 * one Redis counter (so `after` compares across replicas), and a notification
 * channel that wakes long-polls on every replica.
 *
 * @module
 */

import { keep, responseOf } from '../../answer/answer-journal.js';
import type { AnswerEntry, AnswerTimings, JournalEntry, JournalPage, QueuedMark } from '../../api/journal-json.js';
import { toBase64 } from '../../codec/base64.js';
import { utf8Text } from '../../codec/utf8.js';
import { timingsOf } from '../../journal/answer-record.js';
import type { Journal, JournalFollower, JournalSince, NamedEntry } from '../../journal/journal.js';
import { Followers } from '../../journal/journal.js';
import {
  type AnswerMark,
  BY_NONE,
  byQueue,
  type RecordedRequest,
  toJournalEntry,
} from '../../journal/journal-entry.js';
import { MockpointError } from '../../registry/errors.js';
import type { SignatureMark } from '../../signing/signature-settings.js';

/** What the journal needs from the store's connections (see `RedisStore.openJournal`). */
export interface JournalConnection {
  /** Runs a script, bounded and mapped to STORE_UNAVAILABLE like every store operation. */
  eval(script: string, keys: string[], args: string[]): Promise<unknown>;
  /** Calls `listener(id, name)` for every request recorded by any replica (see {@link decodeRecorded}). */
  onRecorded(listener: (id: number, name: string) => void): void;
  /** A fresh random id, for a journal that starts anew. */
  newId(): string;
  /** Calls `listener` each time the subscription is up again after a drop (notifications may have been missed). */
  onLive?(listener: () => void): void;
}

/** Options for {@link RedisJournal}. */
export interface RedisJournalOptions {
  /** Entries kept per name. @default 100 */
  size?: number;
  /** Names kept at once (least recently used dropped first). @default 10000 */
  maxNames?: number;
  /** Approximate bytes of all entries together. @default 67108864 (64 MiB) */
  maxBytes?: number;
  /** Long-poll waits this replica holds at once; one more is refused with `TOO_MANY_WAITERS`. @default 20000 */
  maxWaiters?: number;
  /** Key prefix, as the store's. */
  keyPrefix: string;
}

/**
 * Appends a batch of requests. KEYS: seq, names (zset name → last id), sizes
 * (hash name → bytes), total bytes, journal id, channel. ARGV: size, maxNames,
 * maxBytes, stream key prefix, a fresh journal id, then name/payload pairs.
 * Returns the journal id.
 */
const RECORD = `
local size, maxNames, maxBytes, pre = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
redis.call('SET', KEYS[5], ARGV[5], 'NX')
local function dropOldest(name, count)
  local old = redis.call('XRANGE', pre .. name, '-', '+', 'COUNT', count)
  if #old == 0 then return false end
  local ids, b = {}, 0
  for i, entry in ipairs(old) do
    ids[i] = entry[1]
    b = b + tonumber(entry[2][4])
  end
  redis.call('XDEL', pre .. name, unpack(ids))
  redis.call('HINCRBY', KEYS[3], name, -b)
  redis.call('DECRBY', KEYS[4], b)
  return true
end
local function dropName(name)
  local b = tonumber(redis.call('HGET', KEYS[3], name) or '0')
  redis.call('DEL', pre .. name)
  redis.call('HDEL', KEYS[3], name)
  redis.call('ZREM', KEYS[2], name)
  redis.call('DECRBY', KEYS[4], b)
end
-- The batch's ids are consecutive: one INCRBY for all of them.
local n = (#ARGV - 5) / 2
if n < 1 then return redis.call('GET', KEYS[5]) end
local first = redis.call('INCRBY', KEYS[1], n) - n + 1
local names, bytes, newest, order, total = {}, {}, {}, {}, 0
for k = 0, n - 1 do
  local name, payload = ARGV[6 + 2 * k], ARGV[7 + 2 * k]
  local b = #payload + 64
  redis.call('XADD', pre .. name, (first + k) .. '-0', 'p', payload, 'b', b)
  names[k + 1] = name
  if bytes[name] == nil then
    bytes[name] = 0
    order[#order + 1] = name
  end
  bytes[name] = bytes[name] + b
  newest[name] = first + k
  total = total + b
end
redis.call('INCRBY', KEYS[4], total)
for _, name in ipairs(order) do
  redis.call('HINCRBY', KEYS[3], name, bytes[name])
  redis.call('ZADD', KEYS[2], newest[name], name)
  local excess = redis.call('XLEN', pre .. name) - size
  if excess > 0 then dropOldest(name, excess) end
end
while redis.call('ZCARD', KEYS[2]) > maxNames do dropName(redis.call('ZRANGE', KEYS[2], 0, 0)[1]) end
-- Past the byte bound: oldest entries of the least recently recorded names first; the
-- newest entry of the name recorded last is always kept.
local current = names[n]
for guard = 1, 100000 do
  if tonumber(redis.call('GET', KEYS[4]) or '0') <= maxBytes then break end
  local victim = redis.call('ZRANGE', KEYS[2], 0, 0)[1]
  if victim == nil then break end
  if victim == current then
    if redis.call('XLEN', pre .. current) <= 1 then break end
    dropOldest(current, 1)
  elseif not dropOldest(victim, 1) or redis.call('XLEN', pre .. victim) == 0 then
    dropName(victim)
  end
end
if size <= 0 then for _, name in ipairs(order) do dropName(name) end end
-- One message per batch: the first id and the names in order.
redis.call('PUBLISH', KEYS[6], first .. ' ' .. cjson.encode(names))
return redis.call('GET', KEYS[5])`;

/** KEYS: stream, journal id. ARGV: exclusive start id, a fresh journal id. Returns { journal id, entries }. */
const LIST = `
redis.call('SET', KEYS[2], ARGV[2], 'NX')
return { redis.call('GET', KEYS[2]), redis.call('XRANGE', KEYS[1], ARGV[1], '+') }`;

/** KEYS: stream, sizes, total, names. ARGV: name. */
const CLEAR = `
local b = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0')
redis.call('DEL', KEYS[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[4], ARGV[1])
redis.call('DECRBY', KEYS[3], b)
return 1`;

/** KEYS: names, sizes, total. ARGV: stream key prefix. Ids keep counting up. */
const CLEAR_ALL = `
for _, name in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do redis.call('DEL', ARGV[1] .. name) end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
return 1`;

/**
 * The entries of notified ids, for live followers. KEYS: journal id, then one
 * stream per entry. ARGV: a fresh journal id, then the entry ids. Returns
 * { journal id, payload or false per entry } (false: already dropped by a bound).
 */
const FETCH = `
redis.call('SET', KEYS[1], ARGV[1], 'NX')
local out = { redis.call('GET', KEYS[1]) }
for i = 2, #KEYS do
  local found = redis.call('XRANGE', KEYS[i], ARGV[i] .. '-0', ARGV[i] .. '-0')
  if found[1] then out[i] = found[1][2][2] else out[i] = false end
end
return out`;

/**
 * The oldest entries past a cursor, at most a limit of them, of one name or of
 * every name (those whose newest id is past it). Of every name, the streams are
 * merged through a heap keyed by each one's next id: only each stream's first
 * entry past the cursor and the page's own entries are read, and only the page
 * comes back. KEYS: journal id, seq, names. ARGV: a fresh journal id, the cursor,
 * stream key prefix, the name or '', the limit (-1: none). Returns { journal id,
 * newest id, flat name/id/payload triples in id order }.
 */
const SINCE = `
redis.call('SET', KEYS[1], ARGV[1], 'NX')
local pre, limit = ARGV[3], tonumber(ARGV[5])
local out = {}
local function add(name, e)
  out[#out + 1] = name
  out[#out + 1] = e[1]
  out[#out + 1] = e[2][2]
end
if limit == 0 then
elseif ARGV[4] ~= '' then
  local entries
  if limit > 0 then
    entries = redis.call('XRANGE', pre .. ARGV[4], '(' .. ARGV[2] .. '-0', '+', 'COUNT', limit)
  else
    entries = redis.call('XRANGE', pre .. ARGV[4], '(' .. ARGV[2] .. '-0', '+')
  end
  for _, e in ipairs(entries) do add(ARGV[4], e) end
else
  -- heap[i] = { id, name, entry }: the next entry of one stream; the smallest id on top.
  local heap = {}
  local function nextOf(name, from)
    local e = redis.call('XRANGE', pre .. name, '(' .. from, '+', 'COUNT', 1)[1]
    if e then return { tonumber(string.match(e[1], '^%d+')), name, e } end
    return nil
  end
  local function push(item)
    local i = #heap + 1
    while i > 1 do
      local parent = math.floor(i / 2)
      if heap[parent][1] <= item[1] then break end
      heap[i] = heap[parent]
      i = parent
    end
    heap[i] = item
  end
  local function down()
    local n = #heap
    if n == 0 then return end
    local item, i = heap[1], 1
    while true do
      local child = 2 * i
      if child > n then break end
      if child < n and heap[child + 1][1] < heap[child][1] then child = child + 1 end
      if heap[child][1] >= item[1] then break end
      heap[i] = heap[child]
      i = child
    end
    heap[i] = item
  end
  for _, name in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], '(' .. ARGV[2], '+inf')) do
    local item = nextOf(name, ARGV[2] .. '-0')
    if item then push(item) end
  end
  while #heap > 0 and (limit < 0 or #out < 3 * limit) do
    local top = heap[1]
    add(top[2], top[3])
    local item = nextOf(top[2], top[3][1])
    if item then
      heap[1] = item
    else
      heap[1] = heap[#heap]
      heap[#heap] = nil
    end
    down()
  end
end
return { redis.call('GET', KEYS[1]), redis.call('GET', KEYS[2]) or '0', out }`;

/** KEYS: one stream per name. Returns the length of each (0 for a name with none). */
const COUNTS = `
local out = {}
for i, key in ipairs(KEYS) do out[i] = redis.call('XLEN', key) end
return out`;

/** How a request travels through Redis. */
interface Stored {
  m: string;
  t: string;
  h: readonly string[];
  /** The body bytes in base64. */
  b: string;
  x: boolean;
  s: number;
  r: number;
  /** Who answered (absent: nobody, or written before marks). */
  a?: AnswerMark;
  /** Written before marks: answered by a queued one-shot answer. */
  q?: QueuedMark;
  /** The signature check's outcome, when the name checks signatures. */
  g?: SignatureMark;
  /** A WebSocket message's or close's connection and direction. */
  w?: RecordedRequest['socket'];
  /** The host it was sent to (through a mapping, absolute-form or CONNECT). */
  o?: string;
  /** What was sent back, and the times measured (as far as they were when the batch was written). */
  p?: AnswerEntry;
  i?: AnswerTimings;
}

/** A request waiting to be written: its stored form, and the request (its answer and times are read at the write). */
interface PendingRequest {
  stored: Stored;
  request: RecordedRequest;
}

/** The payload of a pending request, as it is written (the answer's times measured so far). */
function payloadOf(pending: string | PendingRequest): string {
  if (typeof pending === 'string') return pending;
  const { stored, request } = pending;
  const response = responseOf(request, utf8Text);
  if (response !== undefined) stored.p = response;
  const timings = timingsOf(request);
  if (timings !== undefined) stored.i = timings;
  return JSON.stringify(stored);
}

/** The mark of a stored request, also of one written before marks existed. */
function markOf(stored: Stored): AnswerMark {
  if (stored.a !== undefined) return stored.a;
  if (stored.q !== undefined) return byQueue(stored.q.fault);
  return BY_NONE;
}

interface Waiter {
  name: string;
  after: number;
  count: number;
  /** Ids seen after `after`: from the first read and from notifications. */
  ids: Set<number>;
  resolve: () => void;
  /** Called on every notification for the name (used with a `match` filter). */
  onNotify?: () => void;
}

/** The `(id, name)` pairs of one recorded-batch message: `<first id> <JSON array of names>`. */
export function decodeRecorded(message: string): [number, string][] {
  const space = message.indexOf(' ');
  const first = Number(message.slice(0, space));
  const names = JSON.parse(message.slice(space + 1)) as string[] | Record<string, never>;
  // cjson encodes an empty table as {}; a batch is never empty, but be safe.
  return Array.isArray(names) ? names.map((name, i) => [first + i, name]) : [];
}

/** The entry of a stream id (`<id>-0`) and its stored payload. */
function decodeEntry(rawId: string, payload: string): JournalEntry {
  const stored = JSON.parse(payload) as Stored;
  const request: RecordedRequest = {
    method: stored.m,
    target: stored.t,
    rawHeaders: stored.h,
    body: Buffer.from(stored.b, 'base64'),
    bodyTruncated: stored.x,
  };
  if (stored.g !== undefined) request.signature = stored.g;
  if (stored.w !== undefined) request.socket = stored.w;
  if (stored.o !== undefined) request.host = stored.o;
  const entry = toJournalEntry(Number.parseInt(rawId, 10), request, stored.s, stored.r, markOf(stored));
  if (stored.p !== undefined) entry.response = stored.p;
  if (stored.i !== undefined) entry.timings = stored.i;
  return entry;
}

/** Most requests one script call appends. */
const BATCH = 256;
/** Most requests waiting to be written; past it the oldest waiting ones are dropped (counted in `lost`). */
const MAX_PENDING = 20_000;

export class RedisJournal implements Journal {
  readonly size: number;
  readonly maxNames: number;
  readonly maxBytes: number;
  readonly maxWaiters: number;
  readonly #connection: JournalConnection;
  readonly #prefix: string;
  readonly #keys: string[];
  readonly #waiters = new Map<string, Set<Waiter>>();
  /** Name and request, alternating. */
  #pending: (string | PendingRequest)[] = [];
  #flushing = false;
  #released = false;
  #journalId: string | undefined;
  readonly #followers = new Followers();
  /** Notified `(id, name)` pairs whose entries followers want, not fetched yet. */
  #toFetch: [number, string][] = [];
  #fetching = false;
  /** Newest id handed to followers, and the journal it belongs to (undefined before the first). */
  #followed: { id: number; journalId: string } | undefined;
  /** The subscription dropped: notifications may have been missed, so followers are caught up by a read. */
  #resync = false;
  /** Requests that could not be written (Redis unreachable). */
  lost = 0;

  constructor(connection: JournalConnection, options: RedisJournalOptions) {
    this.#connection = connection;
    this.size = options.size ?? 100;
    this.maxNames = options.maxNames ?? 10_000;
    this.maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
    this.maxWaiters = options.maxWaiters ?? 20_000;
    this.#prefix = `${options.keyPrefix}journal:`;
    this.#keys = ['seq', 'names', 'sizes', 'bytes', 'id', 'recorded'].map((k) => `${this.#prefix}${k}`);
    connection.onRecorded((id, name) => this.#recorded(id, name));
    connection.onLive?.(() => {
      if (this.#followers.size === 0 || this.#followed === undefined) return;
      this.#resync = true;
      void this.#pump();
    });
  }

  /**
   * The journal id last seen in Redis (shared by every replica; new when Redis lost
   * the journal), so as of the last read or write; `''` before Redis was first reached.
   */
  get id(): string {
    return this.#journalId ?? '';
  }

  /** Number of waiters held on this replica for `name`. */
  waitersFor(name: string): number {
    return this.#waiters.get(name)?.size ?? 0;
  }

  /** Number of waiters held on this replica. */
  get waiterCount(): number {
    let n = 0;
    for (const set of this.#waiters.values()) n += set.size;
    return n;
  }

  record(name: string, request: RecordedRequest, statusCode: number, mark?: AnswerMark): void {
    const receivedAt = Date.now();
    keep(request);
    const stored: Stored = {
      m: request.method,
      t: request.target,
      h: request.rawHeaders,
      b: toBase64(request.body),
      x: request.bodyTruncated,
      s: statusCode,
      r: receivedAt,
    };
    if (mark !== undefined) stored.a = mark;
    if (request.signature !== undefined) stored.g = request.signature;
    if (request.socket !== undefined) stored.w = request.socket;
    if (request.host !== undefined) stored.o = request.host;
    // Written a turn later: by then an answer sent at once has its times.
    this.#pending.push(name, request.answer === undefined ? JSON.stringify(stored) : { stored, request });
    if (this.#pending.length > MAX_PENDING * 2) {
      // Redis is slower than the requests (or away): memory stays bounded.
      this.#pending.splice(0, BATCH * 2);
      this.lost += BATCH;
    }
    if (!this.#flushing) {
      this.#flushing = true;
      setImmediate(() => void this.#flush());
    }
  }

  /** Resolves once everything recorded so far has been written (or given up on). */
  async flushed(): Promise<void> {
    while (this.#flushing || this.#pending.length > 0) await new Promise((resolve) => setImmediate(resolve));
  }

  // The parameters as the Journal interface declares them.
  async wait(...[name, count, timeoutMs, signal, after = 0, match]: Parameters<Journal['wait']>): Promise<JournalPage> {
    if (timeoutMs <= 0 || signal?.aborted || this.#released) return this.#page(name, after, count, match);
    if (this.waiterCount >= this.maxWaiters) {
      throw new MockpointError(
        'TOO_MANY_WAITERS',
        `${this.waiterCount} long-polls are already waiting (the limit); retry later, or read without wait`,
      );
    }
    // Registered before the first read, so a request recorded meanwhile is not missed.
    // With a filter only re-reads decide; notifications alone never end the wait.
    const waiter: Waiter = {
      name,
      after,
      count: match === undefined ? count : Number.POSITIVE_INFINITY,
      ids: new Set(),
      resolve: () => undefined,
    };
    const woken = new Promise<void>((resolve) => {
      waiter.resolve = resolve;
    });
    let set = this.#waiters.get(name);
    if (set === undefined) {
      set = new Set();
      this.#waiters.set(name, set);
    }
    set.add(waiter);
    const timer = setTimeout(() => waiter.resolve(), timeoutMs);
    const onAbort = () => waiter.resolve();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      let page = await this.#page(name, after, count, match);
      if (match !== undefined) {
        // Notifications carry no request: re-read on each until enough match (or the wait ends).
        while (!page.complete && !(await Promise.race([woken.then(() => true), this.#next(waiter)]))) {
          page = await this.#page(name, after, count, match);
        }
        return await this.#page(name, after, count, match);
      }
      if (page.complete) return page;
      for (const entry of page.requests) waiter.ids.add(entry.id);
      if (waiter.ids.size < count) await woken;
      return await this.#page(name, after, count);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      set.delete(waiter);
      if (set.size === 0 && this.#waiters.get(name) === set) this.#waiters.delete(name);
    }
  }

  async clear(name: string): Promise<void> {
    await this.flushed();
    await this.#connection.eval(
      CLEAR,
      [`${this.#prefix}n:${name}`, this.#keys[2] as string, this.#keys[3] as string, this.#keys[1] as string],
      [name],
    );
  }

  async clearAll(): Promise<void> {
    await this.flushed();
    await this.#connection.eval(
      CLEAR_ALL,
      [this.#keys[1] as string, this.#keys[2] as string, this.#keys[3] as string],
      [`${this.#prefix}n:`],
    );
  }

  releaseWaiters(): void {
    this.#released = true;
    for (const set of this.#waiters.values()) for (const waiter of set) waiter.resolve();
    this.#toFetch = [];
    this.#followers.end();
  }

  reopen(): void {
    this.#released = false;
    this.#followers.reopen();
  }

  follow(follower: JournalFollower): () => void {
    return this.#followers.add(follower);
  }

  async since(after: number, name?: string, limit = Number.POSITIVE_INFINITY): Promise<JournalSince> {
    const reply = (await this.#connection.eval(
      SINCE,
      [this.#keys[4] as string, this.#keys[0] as string, this.#keys[1] as string],
      [
        this.#connection.newId(),
        String(after),
        `${this.#prefix}n:`,
        name ?? '',
        Number.isFinite(limit) ? String(Math.max(0, Math.floor(limit))) : '-1',
      ],
    )) as [string, string, string[]];
    this.#journalId = reply[0];
    // Already the page asked for, in id order (the script merges the names' streams).
    const flat = reply[2];
    const entries: NamedEntry[] = [];
    for (let i = 0; i + 2 < flat.length; i += 3) {
      entries.push({ name: flat[i] as string, entry: decodeEntry(flat[i + 1] as string, flat[i + 2] as string) });
    }
    return { journalId: reply[0], newest: Number(reply[1]), entries };
  }

  async counts(names: readonly string[]): Promise<number[]> {
    if (names.length === 0) return [];
    await this.flushed();
    const reply = (await this.#connection.eval(
      COUNTS,
      names.map((name) => `${this.#prefix}n:${name}`),
      [],
    )) as number[];
    return reply.map(Number);
  }

  /** Whether some follower wants entries of `name`. */
  #wanted(name: string): boolean {
    for (const follower of this.#followers) if (follower.wants(name)) return true;
    return false;
  }

  /**
   * Fetches what followers want, one batch at a time, so entries are handed on in
   * the order they were notified (which is id order: one script records and publishes).
   */
  async #pump(): Promise<void> {
    if (this.#fetching) return;
    this.#fetching = true;
    try {
      while ((this.#toFetch.length > 0 || this.#resync) && this.#followers.size > 0) {
        if (this.#resync) {
          this.#resync = false;
          this.#toFetch = [];
          await this.#catchUp();
          continue;
        }
        const batch = this.#toFetch.splice(0, BATCH);
        let reply: (string | null)[];
        try {
          reply = (await this.#connection.eval(
            FETCH,
            [this.#keys[4] as string, ...batch.map(([, name]) => `${this.#prefix}n:${name}`)],
            [this.#connection.newId(), ...batch.map(([id]) => String(id))],
          )) as (string | null)[];
        } catch {
          // Redis is away: read what was missed once the subscription is back.
          this.#resync = this.#followed !== undefined;
          return;
        }
        const entries: NamedEntry[] = [];
        batch.forEach(([id, name], i) => {
          const payload = reply[i + 1];
          if (payload) entries.push({ name, entry: decodeEntry(`${id}-0`, payload) });
        });
        this.#hand(entries, reply[0] as string);
      }
    } finally {
      this.#fetching = false;
    }
  }

  /** After a dropped subscription: everything past the last handed-on id, from Redis. */
  async #catchUp(): Promise<void> {
    const followed = this.#followed;
    if (followed === undefined) return;
    let since: JournalSince;
    try {
      since = await this.since(followed.id);
    } catch {
      this.#resync = true;
      return;
    }
    if (since.journalId !== followed.journalId) since = await this.since(0);
    this.#hand(
      since.entries.filter((e) => this.#wanted(e.name)),
      since.journalId,
    );
  }

  /** Hands entries to followers, each id once and in order (a new journal starts the count again). */
  #hand(entries: NamedEntry[], journalId: string): void {
    this.#journalId = journalId;
    if (this.#followed?.journalId !== journalId) this.#followed = { id: 0, journalId };
    const followed = this.#followed;
    const fresh = entries.filter((e) => e.entry.id > followed.id);
    if (fresh.length === 0) return;
    followed.id = (fresh.at(-1) as NamedEntry).entry.id;
    for (const follower of this.#followers) {
      const wanted = fresh.filter((e) => follower.wants(e.name));
      if (wanted.length > 0) follower.entries(wanted, journalId);
    }
  }

  #recorded(id: number, name: string): void {
    if (this.#followers.size > 0 && this.#wanted(name)) {
      this.#toFetch.push([id, name]);
      if (!this.#fetching) queueMicrotask(() => void this.#pump());
    }
    const set = this.#waiters.get(name);
    if (set === undefined) return;
    for (const waiter of set) {
      if (id > waiter.after) {
        waiter.onNotify?.();
        waiter.ids.add(id);
        if (waiter.ids.size >= waiter.count) waiter.resolve();
      }
    }
  }

  /** Resolves `false` at the next notification for the waiter's name. */
  #next(waiter: Waiter): Promise<boolean> {
    return new Promise((resolve) => {
      waiter.onNotify = () => resolve(false);
    });
  }

  async #page(
    name: string,
    after: number,
    count: number,
    match?: (entry: JournalEntry) => boolean,
  ): Promise<JournalPage> {
    const reply = (await this.#connection.eval(
      LIST,
      [`${this.#prefix}n:${name}`, this.#keys[4] as string],
      [`(${after}-0`, this.#connection.newId()],
    )) as [string, [string, string[]][]];
    this.#journalId = reply[0];
    const requests: JournalEntry[] = reply[1].map(([rawId, fields]) => decodeEntry(rawId, fields[1] as string));
    if (match !== undefined) {
      const matching = requests.filter(match);
      return { requests: matching, complete: matching.length >= count };
    }
    return { requests, complete: requests.length >= count };
  }

  async #flush(): Promise<void> {
    try {
      while (this.#pending.length > 0) {
        const batch = this.#pending.splice(0, BATCH * 2).map(payloadOf);
        try {
          this.#journalId = String(
            await this.#connection.eval(RECORD, this.#keys, [
              String(this.size),
              String(this.maxNames),
              String(this.maxBytes),
              `${this.#prefix}n:`,
              this.#connection.newId(),
              ...batch,
            ]),
          );
        } catch {
          // Redis is unreachable: the journal is best-effort; the endpoint was answered.
          this.lost += batch.length / 2;
        }
      }
    } finally {
      this.#flushing = false;
    }
  }
}
