/**
 * The {@link CollectionStore} shared by every replica on one Redis: a change is
 * computed from the collection as read and written only if no other replica
 * changed it meanwhile (compare-and-set on a version, in one Lua script), else
 * computed again from the new state, so concurrent writers on any replicas
 * never share an id and never lose an item. Within a process, changes to one
 * name also wait for each other, so they do not race at all.
 *
 * Layout, under the store's key prefix, per endpoint name: a collection is kept
 * in one of two forms. As a list (what every change writes): `collections:<name>:items:<collection>`
 * (list: one item's text per element) and its entry in `collections:<name>:lists`
 * (hash: collection → its size in bytes as one JSON array); a change sends and
 * writes only what it changes (an append one item, a rolling collection's put
 * the items dropped from its start and the one added), never the whole
 * collection, so a write's cost is the item's, not the collection's (up to
 * `--max-collection-bytes`). As text: `collections:<name>` (hash: collection →
 * its items as one JSON array), what a seed or a reset writes, and what every
 * version before the lists wrote; the first change of a collection in that form
 * rewrites it as a list. `collections:<name>:version` (hash: collection → a
 * version that only grows, also across a delete or a clear, so a stale
 * compare-and-set never succeeds) and `collections:<name>:seed` (hash:
 * collection → its seed as one JSON array); `collections` is the set of names
 * with any of them. Each read sends the versions it has parsed already, and a
 * collection that has not changed comes back as its version alone.
 *
 * @module
 */
import { innerMap } from '../../cache/inner-map.js';
import type { ChangeFn, CollectionStore, Collections, Edit } from '../../collections/collection-store.js';
import { checkCollectionName } from '../../collections/collection-store.js';
import {
  applyEdit,
  collectionBytes,
  collectionText,
  type Item,
  itemsOf,
  keptRun,
  storedItemOf,
} from '../../collections/item.js';
import { MockpointError } from '../../registry/errors.js';
import { KeyedMutex } from '../store.js';
import { type ScriptConnection, setMembers } from './script-connection.js';

/**
 * KEYS: texts, versions, lists, the collection's list. ARGV: collection, the version the caller
 * holds ('' for none). Returns {version} when it is still that version, else {version, its
 * items' texts (list form), or its text (text form), or false (no such collection)}.
 */
const READ_ONE = `
local version = redis.call('HGET', KEYS[2], ARGV[1]) or '0'
if version == ARGV[2] then return {version} end
if redis.call('HEXISTS', KEYS[3], ARGV[1]) == 1 then return {version, redis.call('LRANGE', KEYS[4], 0, -1)} end
return {version, redis.call('HGET', KEYS[1], ARGV[1])}`;

/**
 * KEYS: texts, versions, lists. ARGV: the start of a collection's list key, then collection,
 * version pairs the caller holds. Returns {collection, version, what, …} for every collection,
 * what being 1 when the caller holds that version, else its items' texts or its text.
 */
const READ_ALL = `
local held = {}
for i = 2, #ARGV, 2 do held[ARGV[i]] = ARGV[i + 1] end
local out = {}
local function add(collection, read)
  local version = redis.call('HGET', KEYS[2], collection) or '0'
  out[#out + 1] = collection
  out[#out + 1] = version
  if held[collection] == version then out[#out + 1] = 1 else out[#out + 1] = read(collection) end
end
for _, collection in ipairs(redis.call('HKEYS', KEYS[1])) do
  add(collection, function(c) return redis.call('HGET', KEYS[1], c) end)
end
for _, collection in ipairs(redis.call('HKEYS', KEYS[3])) do
  add(collection, function(c) return redis.call('LRANGE', ARGV[1] .. c, 0, -1) end)
end
return out`;

/** Texts one RPUSH takes (Lua's `unpack` is bounded by its C stack, about 8,000 values). */
const PUSH_CHUNK = 1000;

/**
 * KEYS: texts, versions, lists, names, the collection's list. ARGV: collection, expected
 * version, name, the collection's size after the change, then the steps of the change:
 * 'R' (forget every item, in either form), 'T' n (drop the first n), 'P' n and n texts
 * (append them), 'S' i text (replace the item at i), 'D' i (remove the item at i).
 * Writes and returns the new version only when the version is still the expected one, else 0.
 */
const WRITE = `
local version = redis.call('HGET', KEYS[2], ARGV[1]) or '0'
if version ~= ARGV[2] then return 0 end
local i = 5
while i <= #ARGV do
  local step = ARGV[i]
  if step == 'R' then
    redis.call('DEL', KEYS[5])
    redis.call('HDEL', KEYS[1], ARGV[1])
    i = i + 1
  elseif step == 'T' then
    redis.call('LTRIM', KEYS[5], tonumber(ARGV[i + 1]), -1)
    i = i + 2
  elseif step == 'S' then
    redis.call('LSET', KEYS[5], tonumber(ARGV[i + 1]), ARGV[i + 2])
    i = i + 3
  elseif step == 'D' then
    -- An item's text is never empty: the one marked is the one removed.
    redis.call('LSET', KEYS[5], tonumber(ARGV[i + 1]), '')
    redis.call('LREM', KEYS[5], 1, '')
    i = i + 2
  elseif step == 'P' then
    local last = i + 1 + tonumber(ARGV[i + 1])
    local from = i + 2
    while from <= last do
      local to = math.min(from + ${PUSH_CHUNK - 1}, last)
      redis.call('RPUSH', KEYS[5], unpack(ARGV, from, to))
      from = to + 1
    end
    i = last + 1
  else
    return redis.error_reply('unknown step ' .. tostring(step))
  end
end
redis.call('HSET', KEYS[3], ARGV[1], ARGV[4])
redis.call('SADD', KEYS[4], ARGV[3])
return redis.call('HINCRBY', KEYS[2], ARGV[1], 1)`;

/**
 * KEYS: texts, versions, seeds, names, lists. ARGV: name, mode ('seed', 'reset' or 'delete'),
 * the start of a collection's list key, then collection, text pairs (for 'seed'). Every
 * collection there was gets a new version; returns 1 when the name had collections or a seed.
 */
const REPLACE = `
local had = redis.call('EXISTS', KEYS[1]) + redis.call('EXISTS', KEYS[3]) + redis.call('EXISTS', KEYS[5])
for _, collection in ipairs(redis.call('HKEYS', KEYS[1])) do redis.call('HINCRBY', KEYS[2], collection, 1) end
for _, collection in ipairs(redis.call('HKEYS', KEYS[5])) do
  redis.call('HINCRBY', KEYS[2], collection, 1)
  redis.call('DEL', ARGV[3] .. collection)
end
redis.call('DEL', KEYS[1], KEYS[5])
if ARGV[2] == 'seed' then
  redis.call('DEL', KEYS[3])
  for i = 4, #ARGV, 2 do
    redis.call('HSET', KEYS[3], ARGV[i], ARGV[i + 1])
  end
elseif ARGV[2] == 'delete' then
  redis.call('DEL', KEYS[3])
  redis.call('SREM', KEYS[4], ARGV[1])
  return had > 0 and 1 or 0
end
local seeds = redis.call('HGETALL', KEYS[3])
for i = 1, #seeds, 2 do
  redis.call('HSET', KEYS[1], seeds[i], seeds[i + 1])
  redis.call('HINCRBY', KEYS[2], seeds[i], 1)
end
redis.call('SADD', KEYS[4], ARGV[1])
return had > 0 and 1 or 0`;

/**
 * KEYS: texts, versions, seeds, names, lists, the collection's list. ARGV: name, collection,
 * its items' text ('' removes it and its seed).
 */
const REPLACE_ONE = `
redis.call('HINCRBY', KEYS[2], ARGV[2], 1)
redis.call('DEL', KEYS[6])
redis.call('HDEL', KEYS[5], ARGV[2])
if ARGV[3] == '' then
  redis.call('HDEL', KEYS[1], ARGV[2])
  redis.call('HDEL', KEYS[3], ARGV[2])
else
  redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
  redis.call('HSET', KEYS[3], ARGV[2], ARGV[3])
  redis.call('SADD', KEYS[4], ARGV[1])
end
return 1`;

/**
 * KEYS: names. ARGV: the key prefix of one name's keys (`<prefix>collections:`).
 * Forgets every name's collections and seeds; each version only grows (a
 * replica's parsed copy, or its compare-and-set, from before the clear never
 * matches what comes after it).
 */
const CLEAR = `
for _, name in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local key = ARGV[1] .. name
  for _, collection in ipairs(redis.call('HKEYS', key)) do redis.call('HINCRBY', key .. ':version', collection, 1) end
  for _, collection in ipairs(redis.call('HKEYS', key .. ':lists')) do
    redis.call('HINCRBY', key .. ':version', collection, 1)
    redis.call('DEL', key .. ':items:' .. collection)
  end
  redis.call('DEL', key, key .. ':seed', key .. ':lists')
end
redis.call('DEL', KEYS[1])
return 1`;

/** Tries of a compare-and-set before giving up: each retry means another replica's change landed in between. */
const MAX_TRIES = 100;

/** A collection as this process last read it: its version, its items and the form Redis holds it in. */
interface Parsed {
  version: string;
  items: readonly Item[];
  form: 'list' | 'text';
}

/**
 * The steps of {@link WRITE} that take the collection from `before` (as held in
 * `form`; undefined: none) to `after` by `edit`: only what changed when it is a
 * list, the whole collection when it is text (the first change after a seed, a
 * reset or an earlier version's write) or a put that keeps no run of its items.
 */
function writeSteps(
  before: readonly Item[] | undefined,
  form: Parsed['form'] | undefined,
  edit: Edit,
  after: readonly Item[],
): string[] {
  const push = (items: readonly Item[]) =>
    items.length === 0 ? [] : ['P', String(items.length), ...items.map((item) => item.text)];
  if (before === undefined || form !== 'list') return ['R', ...push(after)];
  if ('append' in edit) return push([edit.append]);
  if ('set' in edit) return edit.set >= 0 && edit.set < before.length ? ['S', String(edit.set), edit.item.text] : [];
  if ('remove' in edit) return edit.remove >= 0 && edit.remove < before.length ? ['D', String(edit.remove)] : [];
  // A put that keeps the items from some index on and adds after them (a rolling collection's: events, idempotency answers).
  const run = after.length === 0 ? undefined : keptRun(before, after);
  if (run !== undefined) return [...(run.from > 0 ? ['T', String(run.from)] : []), ...push(run.added)];
  return ['R', ...push(after)];
}

/** A collection's items from what a read script answered: its items' texts (list form) or its text. */
function parsedOf(version: string, what: unknown): Parsed {
  if (Array.isArray(what)) return { version, items: what.map((text) => storedItemOf(String(text))), form: 'list' };
  return { version, items: itemsOf(String(what)), form: 'text' };
}

export class RedisCollectionStore implements CollectionStore {
  /** name → collection → the version last read and its items, parsed once per version. */
  readonly #parsed = new Map<string, Map<string, Parsed>>();
  /** Changes to one name in this process wait for each other (fewer compare-and-set retries). */
  readonly #locks = new KeyedMutex();
  readonly #connection: ScriptConnection;
  /** `<store prefix>collections:`, the start of every key of this part. */
  readonly #prefix: string;
  readonly kind = 'redis';

  /** Use `RedisStore.openCollections()`. */
  constructor(connection: ScriptConnection, keyPrefix: string) {
    this.#connection = connection;
    this.#prefix = `${keyPrefix}collections:`;
  }

  /** The keys of `name`: its texts, versions, seeds, lists, the set of names, and the start of a collection's list key. */
  #keys(name: string) {
    const key = `${this.#prefix}${name}`;
    return {
      texts: key,
      versions: `${key}:version`,
      seeds: `${key}:seed`,
      lists: `${key}:lists`,
      names: this.#prefix.slice(0, -1),
      list: `${key}:items:`,
    };
  }

  #held(name: string): Map<string, Parsed> {
    return innerMap(this.#parsed, name);
  }

  async get(name: string): Promise<Collections> {
    const keys = this.#keys(name);
    const held = this.#held(name);
    const versions = [...held].flatMap(([collection, parsed]) => [collection, parsed.version]);
    const reply = (await this.#connection.eval(
      READ_ALL,
      [keys.texts, keys.versions, keys.lists],
      [keys.list, ...versions],
    )) as unknown[];
    const collections = new Map<string, readonly Item[]>();
    for (let i = 0; i < reply.length; i += 3) {
      const collection = String(reply[i]);
      const version = String(reply[i + 1]);
      const kept = held.get(collection);
      const parsed = reply[i + 2] === 1 && kept?.version === version ? kept : parsedOf(version, reply[i + 2]);
      held.set(collection, parsed);
      collections.set(collection, parsed.items);
    }
    // Collections gone since: their parsed copies too.
    for (const collection of held.keys()) if (!collections.has(collection)) held.delete(collection);
    return collections;
  }

  async getSeed(name: string): Promise<Collections> {
    const { seeds } = this.#keys(name);
    const reply = (await this.#connection.eval("return redis.call('HGETALL', KEYS[1])", [seeds], [])) as unknown[];
    const collections = new Map<string, readonly Item[]>();
    for (let i = 0; i < reply.length; i += 2) {
      collections.set(String(reply[i]), itemsOf(String(reply[i + 1])));
    }
    return collections;
  }

  /** The collection as Redis holds it now: its version, items and form (no items when absent). */
  async #read(name: string, collection: string): Promise<{ version: string; parsed: Parsed | undefined }> {
    const keys = this.#keys(name);
    const held = this.#held(name);
    const cached = held.get(collection);
    const reply = (await this.#connection.eval(
      READ_ONE,
      [keys.texts, keys.versions, keys.lists, `${keys.list}${collection}`],
      [collection, cached?.version ?? ''],
    )) as [unknown, unknown?];
    const version = String(reply[0]);
    if (reply.length === 1) return { version, parsed: cached };
    const what = reply[1];
    if (what === null || what === false || what === undefined) {
      held.delete(collection);
      return { version, parsed: undefined };
    }
    const parsed = parsedOf(version, what);
    held.set(collection, parsed);
    return { version, parsed };
  }

  async update<T>(name: string, collection: string, change: ChangeFn<T>): Promise<T> {
    checkCollectionName(collection);
    const keys = this.#keys(name);
    return this.#locks.run(name, async () => {
      for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
        const { version, parsed } = await this.#read(name, collection);
        const { edit, result } = change(parsed?.items);
        if (edit === undefined) return result;
        const next = applyEdit(parsed?.items ?? [], edit);
        const steps = writeSteps(parsed?.items, parsed?.form, edit, next);
        const written = await this.#connection.eval(
          WRITE,
          [keys.texts, keys.versions, keys.lists, keys.names, `${keys.list}${collection}`],
          [collection, version, name, String(collectionBytes(next)), ...steps],
        );
        if (Number(written) !== 0) {
          this.#held(name).set(collection, { version: String(written), items: next, form: 'list' });
          return result;
        }
      }
      throw new MockpointError(
        'STORE_UNAVAILABLE',
        `the collection "${collection}" of "${name}" kept changing under this change (other replicas wrote it ${MAX_TRIES} times meanwhile); retry`,
      );
    });
  }

  #replaceKeys(name: string): string[] {
    const keys = this.#keys(name);
    return [keys.texts, keys.versions, keys.seeds, keys.names, keys.lists];
  }

  async seed(name: string, collections: Collections): Promise<void> {
    const pairs: string[] = [];
    for (const [collection, items] of collections) {
      checkCollectionName(collection);
      pairs.push(collection, collectionText(items));
    }
    await this.#locks.run(name, () =>
      this.#connection.eval(REPLACE, this.#replaceKeys(name), [name, 'seed', this.#keys(name).list, ...pairs]),
    );
  }

  async seedOne(name: string, collection: string, items: readonly Item[] | undefined): Promise<void> {
    checkCollectionName(collection);
    const text = items === undefined ? '' : collectionText(items);
    await this.#locks.run(name, () =>
      this.#connection.eval(
        REPLACE_ONE,
        [...this.#replaceKeys(name), `${this.#keys(name).list}${collection}`],
        [name, collection, text],
      ),
    );
    if (items === undefined) this.#parsed.get(name)?.delete(collection);
  }

  async reset(name: string): Promise<void> {
    await this.#locks.run(name, () =>
      this.#connection.eval(REPLACE, this.#replaceKeys(name), [name, 'reset', this.#keys(name).list]),
    );
  }

  async delete(name: string): Promise<boolean> {
    const had = await this.#locks.run(name, () =>
      this.#connection.eval(REPLACE, this.#replaceKeys(name), [name, 'delete', this.#keys(name).list]),
    );
    this.#parsed.delete(name);
    return Number(had) === 1;
  }

  names(): Promise<string[]> {
    return setMembers(this.#connection, this.#prefix.slice(0, -1));
  }

  async clear(): Promise<void> {
    await this.#connection.eval(CLEAR, [this.#prefix.slice(0, -1)], [this.#prefix]);
    this.#parsed.clear();
  }
}
