/**
 * The {@link DeliveryStore} shared by every replica on one Redis: a pending
 * delivery is attempted by whichever replica claims it first, and each claim is
 * one Lua script, so each attempt is made by exactly one replica. A replica
 * that dies mid-attempt leaves its claim to expire (the lease), after which
 * another makes that attempt.
 *
 * Layout, under the store's key prefix: `deliveries` (hash: id → JSON),
 * `deliveries:version` (hash: id → version, for compare-and-set updates),
 * `deliveries:due` (sorted set: pending ids by due time, moved ahead by a
 * claim), `deliveries:created` (sorted set: every id by creation time, for the
 * newest-first list), `deliveries:lease` (hash: id → lease ms) and `deliveries:finished` (finished ids, the oldest
 * dropped past the number kept).
 *
 * @module
 */
import {
  type DeliveryStore,
  KEPT_FINISHED_DELIVERIES,
  leaseMs,
  type StoredDelivery,
} from '../../webhook/delivery-store.js';
import type { ScriptConnection } from './script-connection.js';

/**
 * KEYS: json, version, due, created, lease, finished. ARGV: id, json, due ('' when finished as made:
 * never due, as a `not-sent` one), created, lease, max pending, keep.
 * Returns 0 (and stores nothing) when max pending are pending already, else 1.
 */
const CREATE = `
if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[6]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[2], ARGV[1], '1')
redis.call('HSET', KEYS[5], ARGV[1], ARGV[5])
redis.call('ZADD', KEYS[4], ARGV[4], ARGV[1])
if ARGV[3] == '' then
  redis.call('ZADD', KEYS[6], ARGV[4], ARGV[1])
  while redis.call('ZCARD', KEYS[6]) > tonumber(ARGV[7]) do
    local oldest = redis.call('ZPOPMIN', KEYS[6])
    redis.call('HDEL', KEYS[1], oldest[1])
    redis.call('HDEL', KEYS[2], oldest[1])
    redis.call('HDEL', KEYS[5], oldest[1])
    redis.call('ZREM', KEYS[4], oldest[1])
  end
else
  redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1])
end
return 1`;

/**
 * KEYS: json, version, due, created, finished, lease. ARGV: id, json, version, due ('' when finished), created, keep.
 * Writes only if the stored version is ARGV[3] - 1; returns 1 if it wrote.
 */
const UPDATE = `
local current = redis.call('HGET', KEYS[2], ARGV[1])
if current == false or tonumber(current) ~= tonumber(ARGV[3]) - 1 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
if ARGV[4] == '' then
  redis.call('ZREM', KEYS[3], ARGV[1])
  redis.call('ZADD', KEYS[5], ARGV[5], ARGV[1])
  while redis.call('ZCARD', KEYS[5]) > tonumber(ARGV[6]) do
    local oldest = redis.call('ZPOPMIN', KEYS[5])
    redis.call('HDEL', KEYS[1], oldest[1])
    redis.call('HDEL', KEYS[2], oldest[1])
    redis.call('HDEL', KEYS[6], oldest[1])
    redis.call('ZREM', KEYS[4], oldest[1])
  end
else
  redis.call('ZADD', KEYS[3], ARGV[4], ARGV[1])
end
return 1`;

/** KEYS: json, due, lease. ARGV: now, max. Moves each due id ahead by its lease and returns their JSON. */
const CLAIM = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
if #ids == 0 then return {} end
for i = 1, #ids do
  local lease = tonumber(redis.call('HGET', KEYS[3], ids[i]) or '20000')
  redis.call('ZADD', KEYS[2], tonumber(ARGV[1]) + lease, ids[i])
end
return redis.call('HMGET', KEYS[1], unpack(ids))`;

/** KEYS: json, created. ARGV: limit. Newest first. */
const LIST = `
local ids = redis.call('ZREVRANGE', KEYS[2], 0, tonumber(ARGV[1]) - 1)
if #ids == 0 then return {} end
return redis.call('HMGET', KEYS[1], unpack(ids))`;

/** KEYS: due. The earliest due time, or false. */
const NEXT_DUE = `
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if #first == 0 then return false end
return first[2]`;

/** KEYS: json. ARGV: id. */
const GET = `return redis.call('HGET', KEYS[1], ARGV[1])`;

/** KEYS: due. */
const COUNT = `return redis.call('ZCARD', KEYS[1])`;

export class RedisDeliveryStore implements DeliveryStore {
  readonly kind = 'redis';
  readonly shared = true;
  readonly #connection: ScriptConnection;
  readonly #keys: { json: string; version: string; due: string; created: string; finished: string; lease: string };
  readonly #keep: number;

  constructor(connection: ScriptConnection, options: { keyPrefix: string; keepFinished?: number }) {
    this.#connection = connection;
    const p = `${options.keyPrefix}deliveries`;
    this.#keys = {
      json: p,
      version: `${p}:version`,
      due: `${p}:due`,
      created: `${p}:created`,
      finished: `${p}:finished`,
      lease: `${p}:lease`,
    };
    this.#keep = options.keepFinished ?? KEPT_FINISHED_DELIVERIES;
  }

  async create(delivery: StoredDelivery, maxPending: number): Promise<boolean> {
    const { json, version, due, created, lease, finished } = this.#keys;
    const reply = await this.#connection.eval(
      CREATE,
      [json, version, due, created, lease, finished],
      [
        delivery.id,
        JSON.stringify(delivery),
        delivery.state === 'pending' ? String(delivery.nextAttemptAt ?? delivery.createdAt) : '',
        String(delivery.createdAt),
        String(leaseMs(delivery)),
        String(maxPending),
        String(this.#keep),
      ],
    );
    return Number(reply) === 1;
  }

  async update(delivery: StoredDelivery): Promise<boolean> {
    const { json, version, due, created, finished, lease } = this.#keys;
    const dueAt = delivery.state === 'pending' ? String(delivery.nextAttemptAt ?? Date.now()) : '';
    const reply = await this.#connection.eval(
      UPDATE,
      [json, version, due, created, finished, lease],
      [
        delivery.id,
        JSON.stringify(delivery),
        String(delivery.version),
        dueAt,
        String(delivery.createdAt),
        String(this.#keep),
      ],
    );
    return Number(reply) === 1;
  }

  async get(id: string): Promise<StoredDelivery | undefined> {
    const text = await this.#connection.eval(GET, [this.#keys.json], [id]);
    return typeof text === 'string' ? (JSON.parse(text) as StoredDelivery) : undefined;
  }

  async list(limit: number): Promise<StoredDelivery[]> {
    return parseAll(await this.#connection.eval(LIST, [this.#keys.json, this.#keys.created], [String(limit)]));
  }

  async claim(now: number, max: number): Promise<StoredDelivery[]> {
    const { json, due, lease } = this.#keys;
    const reply = await this.#connection.eval(CLAIM, [json, due, lease], [String(now), String(max)]);
    return parseAll(reply);
  }

  async nextDue(): Promise<number | undefined> {
    const reply = await this.#connection.eval(NEXT_DUE, [this.#keys.due], []);
    return typeof reply === 'string' ? Number(reply) : undefined;
  }

  async pendingCount(): Promise<number> {
    return Number(await this.#connection.eval(COUNT, [this.#keys.due], []));
  }
}

function parseAll(reply: unknown): StoredDelivery[] {
  if (!Array.isArray(reply)) return [];
  return reply
    .filter((text): text is string => typeof text === 'string')
    .map((text) => JSON.parse(text) as StoredDelivery);
}
