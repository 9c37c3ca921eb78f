/**
 * The namespace registry on Redis, shared by every replica on it.
 *
 * Layout, under the store's key prefix: `namespaces` (hash: name →
 * {@link namespaceEntryJson} text, as created) and `namespaces:used` (hash:
 * name → the latest use written down, ms since the epoch). Every write is one
 * Lua script: two replicas never both create one name nor pass the bound, and a
 * use is written only forward and only while the namespace exists. Reads give
 * the later of the two `usedAt`s.
 *
 * @module
 */
import {
  decodeNamespaceEntry,
  type NamespaceCreated,
  type NamespaceEntry,
  type NamespaceRegistry,
  namespaceEntryJson,
} from '../namespaces.js';
import type { ScriptConnection } from './script-connection.js';

/** KEYS: entries, uses. ARGV: name, entry text, bound. */
const CREATE = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 'exists' end
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then return 'full' end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('HDEL', KEYS[2], ARGV[1])
return 'created'`;

/** KEYS: entries, uses. ARGV: bound, then each entry's name and text. All of them or none. */
const CREATE_ALL = `
local count = (#ARGV - 1) / 2
for i = 2, #ARGV, 2 do
  if redis.call('HEXISTS', KEYS[1], ARGV[i]) == 1 then return 'exists' end
end
if redis.call('HLEN', KEYS[1]) + count > tonumber(ARGV[1]) then return 'full' end
for i = 2, #ARGV, 2 do
  redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
  redis.call('HDEL', KEYS[2], ARGV[i])
end
return 'created'`;

/** KEYS: entries, uses. ARGV: name, time (ms). Raises the use only forward, only while the name exists. */
const TOUCH = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
local used = redis.call('HGET', KEYS[2], ARGV[1])
if used and tonumber(used) >= tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return 1`;

/** KEYS: entries, uses. ARGV: name. Returns 1 when it existed. */
const DELETE = `
redis.call('HDEL', KEYS[2], ARGV[1])
return redis.call('HDEL', KEYS[1], ARGV[1])`;

/** KEYS: entries, uses. ARGV: name. Returns { entry text or nil, use or nil }, read at one instant. */
const GET = `return { redis.call('HGET', KEYS[1], ARGV[1]), redis.call('HGET', KEYS[2], ARGV[1]) }`;

/** KEYS: entries, uses. Returns { entries' HGETALL, uses' HGETALL }, read at one instant. */
const LIST = `return { redis.call('HGETALL', KEYS[1]), redis.call('HGETALL', KEYS[2]) }`;

/** `entry` with the later of its own `usedAt` and the use written down since (`used`, text or nil). */
function withUse(entry: NamespaceEntry, used: unknown): NamespaceEntry {
  const at = used === null || used === undefined ? Number.NaN : Number(used);
  if (at > entry.usedAt) entry.usedAt = at;
  return entry;
}

/** The registry in two hashes under the store's key prefix. */
export class RedisNamespaceRegistry implements NamespaceRegistry {
  readonly #connection: ScriptConnection;
  readonly #keys: [string, string];

  constructor(connection: ScriptConnection, keyPrefix: string) {
    this.#connection = connection;
    this.#keys = [`${keyPrefix}namespaces`, `${keyPrefix}namespaces:used`];
  }

  async list(): Promise<NamespaceEntry[]> {
    const [entries, uses] = (await this.#connection.eval(LIST, this.#keys, [])) as [unknown[], unknown[]];
    const used = new Map<string, unknown>();
    for (let i = 0; i + 1 < uses.length; i += 2) used.set(String(uses[i]), uses[i + 1]);
    const out: NamespaceEntry[] = [];
    for (let i = 0; i + 1 < entries.length; i += 2) {
      const name = String(entries[i]);
      out.push(withUse(decodeNamespaceEntry(String(entries[i + 1])), used.get(name)));
    }
    return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async get(name: string): Promise<NamespaceEntry | undefined> {
    const [text, used] = (await this.#connection.eval(GET, this.#keys, [name])) as [unknown, unknown];
    return text === null || text === undefined ? undefined : withUse(decodeNamespaceEntry(String(text)), used);
  }

  async create(entry: NamespaceEntry, max: number): Promise<NamespaceCreated> {
    const reply = await this.#connection.eval(CREATE, this.#keys, [
      entry.name,
      namespaceEntryJson(entry),
      // Lua reads no "Infinity": an unbounded registry is bounded by the largest exact integer.
      String(Math.min(Math.floor(max), Number.MAX_SAFE_INTEGER)),
    ]);
    return String(reply) as NamespaceCreated;
  }

  async createAll(entries: readonly NamespaceEntry[], max: number): Promise<NamespaceCreated> {
    const args = [String(Math.min(Math.floor(max), Number.MAX_SAFE_INTEGER))];
    for (const entry of entries) args.push(entry.name, namespaceEntryJson(entry));
    return String(await this.#connection.eval(CREATE_ALL, this.#keys, args)) as NamespaceCreated;
  }

  async delete(name: string): Promise<boolean> {
    return Number(await this.#connection.eval(DELETE, this.#keys, [name])) === 1;
  }

  async touch(name: string, at: number): Promise<void> {
    await this.#connection.eval(TOUCH, this.#keys, [name, String(Math.floor(at))]);
  }
}
