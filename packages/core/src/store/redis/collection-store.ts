/**
 * The {@link CollectionStore} shared by every replica on one Redis: a change is
 * computed from the collection as read and written only if no other replica
 * changed it meanwhile (compare-and-set on a version, in one Lua script), else
 * computed again from the new state, so concurrent writers on any replicas
 * never share an id and never lose an item. Within a process, changes to one
 * name also wait for each other, so they do not race at all.
 *
 * Layout, under the store's key prefix, per endpoint name: `collections:<name>`
 * (hash: collection → its items as one JSON array), `collections:<name>:version`
 * (hash: collection → a version that only grows, also across a delete or a clear,
 * so a stale compare-and-set never succeeds) and `collections:<name>:seed` (hash: collection
 * → its seed); `collections` is the set of names with any of them. Each read
 * sends the version it has parsed already, and a collection that has not changed
 * comes back as its version alone.
 *
 * @module
 */
import {
  type ChangeFn,
  type CollectionStore,
  type Collections,
  checkCollectionName,
} from '../../collections/collection-store.js';
import { applyEdit, collectionText, type Item, itemsOf } from '../../collections/item.js';
import { MockpointError } from '../../registry/errors.js';
import { KeyedMutex } from '../store.js';
import { type ScriptConnection, setMembers } from './script-connection.js';

/**
 * KEYS: items, versions. ARGV: collection, the version the caller holds ('' for none).
 * Returns {version} when it is still that version, else {version, text or false}.
 */
const READ_ONE = `
local version = redis.call('HGET', KEYS[2], ARGV[1]) or '0'
if version == ARGV[2] then return {version} end
return {version, redis.call('HGET', KEYS[1], ARGV[1])}`;

/** KEYS: items, versions. Returns {collection, version, text, …} for every collection. */
const READ_ALL = `
local texts = redis.call('HGETALL', KEYS[1])
local out = {}
for i = 1, #texts, 2 do
  out[#out + 1] = texts[i]
  out[#out + 1] = redis.call('HGET', KEYS[2], texts[i]) or '0'
  out[#out + 1] = texts[i + 1]
end
return out`;

/**
 * KEYS: items, versions, names. ARGV: collection, expected version, new text, name.
 * Writes and returns the new version only when the version is still the expected one, else 0.
 */
const WRITE = `
local version = redis.call('HGET', KEYS[2], ARGV[1]) or '0'
if version ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('SADD', KEYS[3], ARGV[4])
return redis.call('HINCRBY', KEYS[2], ARGV[1], 1)`;

/**
 * KEYS: items, versions, seeds, names. ARGV: name, mode ('seed', 'reset' or 'delete'),
 * then collection, text pairs (for 'seed'). Every collection there was gets a new
 * version; returns 1 when the name had collections or a seed.
 */
const REPLACE = `
local had = redis.call('EXISTS', KEYS[1]) + redis.call('EXISTS', KEYS[3])
for _, collection in ipairs(redis.call('HKEYS', KEYS[1])) do redis.call('HINCRBY', KEYS[2], collection, 1) end
redis.call('DEL', KEYS[1])
if ARGV[2] == 'seed' then
  redis.call('DEL', KEYS[3])
  for i = 3, #ARGV, 2 do
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
 * KEYS: items, versions, seeds, names. ARGV: name, collection, its items' text ('' removes it and its seed).
 */
const REPLACE_ONE = `
redis.call('HINCRBY', KEYS[2], ARGV[2], 1)
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
  redis.call('DEL', key, key .. ':seed')
end
redis.call('DEL', KEYS[1])
return 1`;

/** Tries of a compare-and-set before giving up: each retry means another replica's change landed in between. */
const MAX_TRIES = 100;

export class RedisCollectionStore implements CollectionStore {
  /** `<name>\0<collection>` → the version last read and its items, parsed once per version. */
  readonly #parsed = new Map<string, { version: string; items: readonly Item[] }>();
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

  #keys(name: string): string[] {
    const key = `${this.#prefix}${name}`;
    return [key, `${key}:version`, `${key}:seed`, `${this.#prefix.slice(0, -1)}`];
  }

  /** `text` parsed, or the items parsed before at `version`. */
  #items(name: string, collection: string, version: string, text: string): readonly Item[] {
    const key = `${name}\u0000${collection}`;
    const cached = this.#parsed.get(key);
    if (cached?.version === version) return cached.items;
    const items = itemsOf(text);
    this.#parsed.set(key, { version, items });
    return items;
  }

  async get(name: string): Promise<Collections> {
    const [items, versions] = this.#keys(name) as [string, string];
    const reply = (await this.#connection.eval(READ_ALL, [items, versions], [])) as unknown[];
    const collections = new Map<string, readonly Item[]>();
    for (let i = 0; i < reply.length; i += 3) {
      const collection = String(reply[i]);
      collections.set(collection, this.#items(name, collection, String(reply[i + 1]), String(reply[i + 2])));
    }
    return collections;
  }

  async getSeed(name: string): Promise<Collections> {
    const [, , seeds] = this.#keys(name) as [string, string, string];
    const reply = (await this.#connection.eval("return redis.call('HGETALL', KEYS[1])", [seeds], [])) as unknown[];
    const collections = new Map<string, readonly Item[]>();
    for (let i = 0; i < reply.length; i += 2) {
      collections.set(String(reply[i]), itemsOf(String(reply[i + 1])));
    }
    return collections;
  }

  /** The collection as Redis holds it now: its version and items (undefined when absent). */
  async #read(name: string, collection: string): Promise<{ version: string; items: readonly Item[] | undefined }> {
    const [items, versions] = this.#keys(name) as [string, string];
    const cached = this.#parsed.get(`${name}\u0000${collection}`);
    const reply = (await this.#connection.eval(READ_ONE, [items, versions], [collection, cached?.version ?? ''])) as [
      unknown,
      unknown?,
    ];
    const version = String(reply[0]);
    if (reply.length === 1) return { version, items: cached?.items };
    const text = reply[1];
    if (text === null || text === false || text === undefined) {
      this.#parsed.delete(`${name}\u0000${collection}`);
      return { version, items: undefined };
    }
    return { version, items: this.#items(name, collection, version, String(text)) };
  }

  async update<T>(name: string, collection: string, change: ChangeFn<T>): Promise<T> {
    checkCollectionName(collection);
    return this.#locks.run(name, async () => {
      for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
        const { version, items } = await this.#read(name, collection);
        const { edit, result } = change(items);
        if (edit === undefined) return result;
        const next = applyEdit(items ?? [], edit);
        const written = await this.#connection.eval(
          WRITE,
          this.#keys(name).filter((_, i) => i !== 2),
          [collection, version, collectionText(next), name],
        );
        if (Number(written) !== 0) {
          this.#parsed.set(`${name}\u0000${collection}`, { version: String(written), items: next });
          return result;
        }
      }
      throw new MockpointError(
        'STORE_UNAVAILABLE',
        `the collection "${collection}" of "${name}" kept changing under this change (other replicas wrote it ${MAX_TRIES} times meanwhile); retry`,
      );
    });
  }

  async seed(name: string, collections: Collections): Promise<void> {
    const pairs: string[] = [];
    for (const [collection, items] of collections) {
      checkCollectionName(collection);
      pairs.push(collection, collectionText(items));
    }
    await this.#locks.run(name, () => this.#connection.eval(REPLACE, this.#keys(name), [name, 'seed', ...pairs]));
  }

  async seedOne(name: string, collection: string, items: readonly Item[] | undefined): Promise<void> {
    checkCollectionName(collection);
    const text = items === undefined ? '' : collectionText(items);
    await this.#locks.run(name, () => this.#connection.eval(REPLACE_ONE, this.#keys(name), [name, collection, text]));
    if (items === undefined) this.#forget(name, collection);
  }

  async reset(name: string): Promise<void> {
    await this.#locks.run(name, () => this.#connection.eval(REPLACE, this.#keys(name), [name, 'reset']));
  }

  async delete(name: string): Promise<boolean> {
    const had = await this.#locks.run(name, () => this.#connection.eval(REPLACE, this.#keys(name), [name, 'delete']));
    this.#forget(name);
    return Number(had) === 1;
  }

  /** Drops this process's parsed copies of `name`'s collections (of one, when given). */
  #forget(name: string, collection?: string): void {
    const prefix = `${name}\u0000`;
    for (const key of this.#parsed.keys()) {
      if (collection === undefined ? key.startsWith(prefix) : key === `${prefix}${collection}`)
        this.#parsed.delete(key);
    }
  }

  names(): Promise<string[]> {
    return setMembers(this.#connection, this.#prefix.slice(0, -1));
  }

  async clear(): Promise<void> {
    await this.#connection.eval(CLEAR, [this.#prefix.slice(0, -1)], [this.#prefix]);
    this.#parsed.clear();
  }
}
