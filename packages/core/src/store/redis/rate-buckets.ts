/**
 * Routes' rate buckets shared by every replica on one Redis (engine/rate-buckets.ts):
 * `<prefix>rates:<name>` is a hash of bucket → `<level> <at>` (level in tokens ×
 * windowMs, `at` the app's clock in ms), and `<prefix>rates` the set of names
 * with buckets. A take is one script running the in-process arithmetic, so
 * replicas together let `limit` requests through per window. The clock is the
 * caller's (the shared clock): the script never reads Redis's time.
 *
 * The store's own scripts start a name's buckets full when its routes are
 * written or it is deleted, and all of them on a clear (store/redis/index.ts).
 * A hash expires a day after its last take's window: a bucket left that long is
 * full again anyway, unless the clock stood still meanwhile.
 *
 * A take is not written to the append-only file nor sent to Redis's replicas
 * (`redis.set_repl(redis.REPL_NONE)`): buckets are counts of the moment, not
 * acknowledged data, and with `appendfsync always` each take would otherwise
 * wait for an fsync (340 µs a take against 100 µs without, measured alone). A
 * restarted Redis starts every bucket full, as a restarted daemon does in memory.
 *
 * @module
 */
import type { RateBucketStore } from '../backend.js';

/** How long past a take's window its name's buckets are kept (ms of real time). */
const KEPT_MS = 24 * 60 * 60 * 1000;

/**
 * KEYS: the name's hash, the set of names. ARGV: bucket, limit, windowMs, now, keep (ms), name.
 * Returns {1 or 0 (allowed), level after (text)}.
 */
const TAKE = `
redis.set_repl(redis.REPL_NONE)
local limit = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local now = tonumber(ARGV[4])
local full = limit * window
local level = full
local held = redis.call('HGET', KEYS[1], ARGV[1])
if held then
  local l, at = string.match(held, '^(%d+) (%-?%d+)$')
  if l then
    local elapsed = math.max(0, now - tonumber(at))
    level = math.min(full, tonumber(l) + elapsed * limit)
  end
end
local allowed = 0
if level >= window then
  level = level - window
  allowed = 1
end
redis.call('HSET', KEYS[1], ARGV[1], string.format('%.0f %.0f', level, now))
local keep = tonumber(ARGV[5])
if redis.call('PTTL', KEYS[1]) < keep then redis.call('PEXPIRE', KEYS[1], keep) end
redis.call('SADD', KEYS[2], ARGV[6])
return {allowed, string.format('%.0f', level)}`;

/** Removes one name's buckets (ARGV[1]), or every name's (no ARGV). KEYS: the set of names. */
const RESET = `
local names = ARGV
if #names == 0 then names = redis.call('SMEMBERS', KEYS[1]) end
for _, name in ipairs(names) do
  redis.call('DEL', KEYS[1] .. ':' .. name)
  redis.call('SREM', KEYS[1], name)
end
return 1`;

export class RedisRateBuckets implements RateBucketStore {
  readonly #eval: (script: string, keys: string[], args: string[]) => Promise<unknown>;
  /** `<prefix>rates`; a name's hash is this and `:<name>`. */
  readonly #names: string;

  /** Use `RedisStore.openRateBuckets()`. */
  constructor(evaluate: (script: string, keys: string[], args: string[]) => Promise<unknown>, keyPrefix: string) {
    this.#eval = evaluate;
    this.#names = `${keyPrefix}rates`;
  }

  async take(
    name: string,
    bucket: string,
    limit: number,
    windowMs: number,
    now: number,
  ): Promise<{ allowed: boolean; level: number }> {
    const [allowed, level] = (await this.#eval(
      TAKE,
      [`${this.#names}:${name}`, this.#names],
      [bucket, String(limit), String(windowMs), String(now), String(windowMs + KEPT_MS), name],
    )) as [number, string];
    return { allowed: Number(allowed) === 1, level: Number(level) };
  }

  async reset(name: string): Promise<void> {
    await this.#eval(RESET, [this.#names], [name]);
  }

  async resetAll(): Promise<void> {
    await this.#eval(RESET, [this.#names], []);
  }
}
