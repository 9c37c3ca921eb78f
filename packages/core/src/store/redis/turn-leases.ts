/**
 * Turns shared by every replica on one Redis (turns/shared-turns.ts): a key's
 * turn is the key `<prefix>turn:<key>`, set to its holder's token with
 * `SET NX PX` for a lease, renewed while the step runs, and deleted by a
 * script that deletes only the holder's own token. A replica that dies holding
 * one frees it when the lease runs out; a waiter asks again with a short,
 * growing pause (never past the holder's lease), and gives up after a bound.
 *
 * A turn is not written to the append-only file nor sent to Redis's replicas
 * (`redis.set_repl(redis.REPL_NONE)`), as rate buckets are not: it is a moment's
 * state, and with `appendfsync always` each take and give-back would wait for an
 * fsync. A restart of Redis drops every connection: a flow under way fails its next
 * call (503) unless the restart fell wholly between two of its calls; the restarted
 * Redis holds no turns.
 *
 * Why a lease and not the whole flow as one optimistic transaction: a twin's
 * flow reads and writes several collections and hands webhooks to the delivery
 * engine, each its own script; retrying it whole on a conflict would send
 * those again.
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { MockpointError } from '../../registry/errors.js';
import type { SharedTurns } from '../../turns/shared-turns.js';
import type { ScriptConnection } from './script-connection.js';

/** How long a turn is held without a renewal: a process that died frees it by then (ms). */
const TURN_LEASE_MS = 5000;
/** How often a held turn's lease is renewed (ms): four renewals may fail or be late before it lapses. */
const RENEW_MS = 1000;
/** The longest a step waits for a turn that other replicas hold (ms). */
const WAIT_MS = 30_000;
/** The first and the longest pause between two asks for a held turn (ms). */
const FIRST_PAUSE_MS = 2;
const LONGEST_PAUSE_MS = 50;

/** KEYS: the turn. ARGV: token, lease (ms). Returns 0 when taken, else the holder's lease left (ms, at least 1). */
const TAKE = `
redis.set_repl(redis.REPL_NONE)
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 0 end
return math.max(1, redis.call('PTTL', KEYS[1]))`;

/** KEYS: the turn. ARGV: token, lease (ms). Renews the lease when the token still holds it; 1 when it did. */
const RENEW = `
redis.set_repl(redis.REPL_NONE)
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;

/** KEYS: the turn. ARGV: token. Deletes the turn when the token still holds it. */
const GIVE_BACK = `
redis.set_repl(redis.REPL_NONE)
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/** The bounds of {@link RedisTurnLeases} (tests shorten them). */
export interface TurnLeaseTimes {
  /** @default {@link TURN_LEASE_MS} */
  leaseMs?: number;
  /** @default 1000 */
  renewMs?: number;
  /** @default 30000 */
  waitMs?: number;
}

export class RedisTurnLeases implements SharedTurns {
  readonly #connection: ScriptConnection;
  readonly #prefix: string;
  readonly #leaseMs: number;
  readonly #renewMs: number;
  readonly #waitMs: number;

  /** Use `RedisStore.openTurns()`. */
  constructor(connection: ScriptConnection, keyPrefix: string, times: TurnLeaseTimes = {}) {
    this.#connection = connection;
    this.#prefix = `${keyPrefix}turn:`;
    this.#leaseMs = times.leaseMs ?? TURN_LEASE_MS;
    this.#renewMs = times.renewMs ?? RENEW_MS;
    this.#waitMs = times.waitMs ?? WAIT_MS;
  }

  async run<T>(key: string, step: () => Promise<T>): Promise<T> {
    const turn = `${this.#prefix}${key}`;
    const token = randomUUID();
    await this.#take(key, turn, token);
    const renewal = this.#renew(turn, token);
    try {
      return await step();
    } finally {
      clearInterval(renewal);
      // Not given back (Redis unreachable): the lease ends it. The step's answer stands either way.
      await this.#connection.eval(GIVE_BACK, [turn], [token]).catch(() => undefined);
    }
  }

  /** Asks for the turn until it is taken, pausing a little longer each time, at most until the wait bound. */
  async #take(key: string, turn: string, token: string): Promise<void> {
    const lease = String(this.#leaseMs);
    const giveUpAt = Date.now() + this.#waitMs;
    let pause = FIRST_PAUSE_MS;
    for (;;) {
      const left = Number(await this.#connection.eval(TAKE, [turn], [token, lease]));
      if (left === 0) return;
      // Jittered, so that waiters on several replicas do not ask in step; never past the holder's lease.
      const wait = Math.min(left, Math.ceil(pause * (0.5 + Math.random())));
      if (Date.now() + wait > giveUpAt) {
        throw new MockpointError(
          'TURN_BUSY',
          `${key}: a change waited ${this.#waitMs / 1000} s for its turn, held all that while by other changes on the replicas of this Redis; retry, or send fewer changes to it at once`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
      pause = Math.min(LONGEST_PAUSE_MS, pause * 2);
    }
  }

  /** Renews the lease every {@link RENEW_MS} while the step runs (one renewal at a time). */
  #renew(turn: string, token: string): ReturnType<typeof setInterval> {
    let renewing = false;
    const lease = String(this.#leaseMs);
    const timer = setInterval(() => {
      if (renewing) return;
      renewing = true;
      // A renewal that fails leaves the lease to run out; the next one tries again.
      void this.#connection
        .eval(RENEW, [turn], [token, lease])
        .catch(() => undefined)
        .finally(() => {
          renewing = false;
        });
    }, this.#renewMs);
    timer.unref?.();
    return timer;
  }
}
