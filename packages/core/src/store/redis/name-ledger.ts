/**
 * The {@link NameLedger} of a Redis store: a set of the names held, beside the
 * store's keys, shared by every replica. A claim is one Lua script (check and add
 * as one step), so replicas writing new names at once never pass the cap between
 * them. The set is filled from what the store holds the first time it is used
 * (a store written before it existed): every part's hash, the collections' and
 * the state's names. A release leaves a name counted when one of the store's
 * hashes holds it again (another replica wrote it after the delete).
 *
 * @module
 */
import type { NameLedger } from '../name-ledger.js';
import type { ScriptConnection } from './script-connection.js';

/**
 * KEYS: the ledger set, its "filled" marker, then the sets of names (collections, state),
 * then the hashes of parts by name. ARGV: `claim` (name, max), `keep` (name), `release` (name) or `clear`.
 */
const LEDGER = `
local ledger, filled, sets = KEYS[1], KEYS[2], tonumber(ARGV[4])
if ARGV[1] == 'clear' then
  redis.call('DEL', ledger)
  redis.call('SET', filled, '1')
  return 1
end
if redis.call('EXISTS', filled) == 0 then
  for i = 3, #KEYS do
    local names = i < 3 + sets and redis.call('SMEMBERS', KEYS[i]) or redis.call('HKEYS', KEYS[i])
    for _, name in ipairs(names) do
      -- A key no endpoint can have (a namespace's own setting, such as its chaos) is no name.
      if #name <= 64 and string.find(name, '^[%w_%-]+$') then redis.call('SADD', ledger, name) end
    end
  end
  redis.call('SET', filled, '1')
end
if ARGV[1] == 'keep' then
  redis.call('SADD', ledger, ARGV[2])
  return 1
end
if ARGV[1] == 'release' then
  -- Released only if the store holds nothing for the name now: a write another replica made
  -- after the delete (its claim found the name still counted) keeps it counted. The sets
  -- (collections, state) are emptied beside the store's delete, not before it: not asked.
  for i = 3 + sets, #KEYS do
    if redis.call('HEXISTS', KEYS[i], ARGV[2]) == 1 then return 0 end
  end
  redis.call('SREM', ledger, ARGV[2])
  return 1
end
if redis.call('SISMEMBER', ledger, ARGV[2]) == 1 then return 1 end
if redis.call('SCARD', ledger) >= tonumber(ARGV[3]) then return 0 end
redis.call('SADD', ledger, ARGV[2])
return 1`;

/** Where a Redis store keeps its names: the sets of names and the hashes keyed by name. */
export interface RedisNameSources {
  /** Sets whose members are names (the collections', the state's). */
  sets: string[];
  /** Hashes whose fields are names (records, routes, signature checks, …). */
  hashes: string[];
}

export class RedisNameLedger implements NameLedger {
  readonly #connection: ScriptConnection;
  readonly #keys: string[];
  readonly #sets: string;

  constructor(connection: ScriptConnection, keyPrefix: string, sources: RedisNameSources) {
    this.#connection = connection;
    this.#keys = [`${keyPrefix}ledger`, `${keyPrefix}ledger:filled`, ...sources.sets, ...sources.hashes];
    this.#sets = String(sources.sets.length);
  }

  async claim(name: string, max: number): Promise<boolean> {
    return (await this.#run('claim', name, String(max))) === 1;
  }

  async release(name: string): Promise<void> {
    await this.#run('release', name, '0');
  }

  async keep(name: string): Promise<void> {
    await this.#run('keep', name, '0');
  }

  async releaseAll(): Promise<void> {
    await this.#run('clear', '', '0');
  }

  #run(op: string, name: string, max: string): Promise<unknown> {
    return this.#connection.eval(LEDGER, this.#keys, [op, name, max, this.#sets]);
  }
}
