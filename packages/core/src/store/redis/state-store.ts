/**
 * The {@link StateStore} shared by every replica on one Redis: each change is
 * one Lua script, so a move checks the scenarios it expects and sets the new
 * values in one atomic step — of two moves from the same state, on any
 * replicas, only one lands.
 *
 * Layout, under the store's key prefix, per endpoint name: `state:<name>` (hash:
 * scenario → its value now; a scenario absent is at `started`) and
 * `state:<name>:start` (hash: scenario → its start, what a reset returns to);
 * `state` is the set of names with any of them (what a clear forgets). Names
 * are `A–Z a–z 0–9 _ -`, so no name's keys meet another's.
 *
 * @module
 */

import { STARTED } from '../../api/state-json.js';
import { checkStates, type StateStore, type States } from '../../state/state-store.js';
import { type ScriptConnection, setMembers } from './script-connection.js';

/**
 * KEYS: current, names. ARGV: name, how many expected scenarios (n), n scenario,
 * value pairs expected, then scenario, value pairs to set. Moves only when every
 * expected scenario is at its value (absent: `started`), and returns the
 * scenarios after as {scenario, value, …}; else false (a nil reply), changing nothing.
 */
const MOVE = `
local n = tonumber(ARGV[2])
for i = 3, 2 + 2 * n, 2 do
  local now = redis.call('HGET', KEYS[1], ARGV[i]) or '${STARTED}'
  if now ~= ARGV[i + 1] then return false end
end
local first = 3 + 2 * n
if first <= #ARGV then
  for i = first, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
  redis.call('SADD', KEYS[2], ARGV[1])
end
return redis.call('HGETALL', KEYS[1])`;

/** KEYS: current, start, names. ARGV: name, then scenario, value pairs: both current and start (none: no state at all). */
const PUT = `
redis.call('DEL', KEYS[1], KEYS[2])
for i = 2, #ARGV, 2 do
  redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
  redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1])
end
if #ARGV >= 2 then redis.call('SADD', KEYS[3], ARGV[1]) else redis.call('SREM', KEYS[3], ARGV[1]) end
return 1`;

/** KEYS: current, start. The start copied over the current values. */
const RESET = `
local start = redis.call('HGETALL', KEYS[2])
redis.call('DEL', KEYS[1])
for i = 1, #start, 2 do redis.call('HSET', KEYS[1], start[i], start[i + 1]) end
return 1`;

/** KEYS: current, start, names. ARGV: name. Returns 1 when the name had any of them. */
const DELETE = `
local had = redis.call('SREM', KEYS[3], ARGV[1]) + redis.call('DEL', KEYS[1], KEYS[2])
return had > 0 and 1 or 0`;

/** KEYS: names. ARGV: the key prefix of one name's keys (`<prefix>state:`). Forgets every name's. */
const CLEAR = `
for _, name in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local key = ARGV[1] .. name
  redis.call('DEL', key, key .. ':start')
end
redis.call('DEL', KEYS[1])
return 1`;

const HGETALL = "return redis.call('HGETALL', KEYS[1])";

/** A flat {scenario, value, …} reply as scenario → value (own properties, whatever the scenario is called). */
function statesOf(reply: unknown): States {
  const flat = reply as unknown[];
  const entries: [string, string][] = [];
  for (let i = 0; i < flat.length; i += 2) entries.push([String(flat[i]), String(flat[i + 1])]);
  return Object.fromEntries(entries);
}

/** `states` as scenario, value pairs. */
function pairs(states: States): string[] {
  return Object.entries(states).flat();
}

export class RedisStateStore implements StateStore {
  readonly kind = 'redis';
  readonly #connection: ScriptConnection;
  /** `<store prefix>state:`, the start of every key of this part. */
  readonly #prefix: string;

  /** Use `RedisStore.openStates()`. */
  constructor(connection: ScriptConnection, keyPrefix: string) {
    this.#connection = connection;
    this.#prefix = `${keyPrefix}state:`;
  }

  /** The current values, the start and the set of names. */
  #keys(name: string): [string, string, string] {
    const key = `${this.#prefix}${name}`;
    return [key, `${key}:start`, this.#prefix.slice(0, -1)];
  }

  async get(name: string): Promise<States> {
    const [current] = this.#keys(name);
    return statesOf(await this.#connection.eval(HGETALL, [current], []));
  }

  async getStart(name: string): Promise<States> {
    const [, start] = this.#keys(name);
    return statesOf(await this.#connection.eval(HGETALL, [start], []));
  }

  async move(name: string, expect: States, to: States): Promise<States | undefined> {
    checkStates(to);
    const [current, , names] = this.#keys(name);
    const expected = pairs(expect);
    const reply = await this.#connection.eval(
      MOVE,
      [current, names],
      [name, String(expected.length / 2), ...expected, ...pairs(to)],
    );
    return reply === null || reply === undefined || reply === false ? undefined : statesOf(reply);
  }

  async put(name: string, states: States): Promise<void> {
    checkStates(states);
    await this.#connection.eval(PUT, this.#keys(name), [name, ...pairs(states)]);
  }

  async reset(name: string): Promise<void> {
    const [current, start] = this.#keys(name);
    await this.#connection.eval(RESET, [current, start], []);
  }

  async delete(name: string): Promise<boolean> {
    return Number(await this.#connection.eval(DELETE, this.#keys(name), [name])) === 1;
  }

  names(): Promise<string[]> {
    return setMembers(this.#connection, this.#prefix.slice(0, -1));
  }

  async clear(): Promise<void> {
    await this.#connection.eval(CLEAR, [this.#prefix.slice(0, -1)], [this.#prefix]);
  }
}
