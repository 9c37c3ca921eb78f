/**
 * The replay memory shared by every replica on one Redis: a delivery id seen by
 * one replica is a replay on any other. Each id is one key,
 * `<prefix>replay:<sha-256 of name, scheme and id>`, set with `NX` and an expiry of
 * the check's tolerance, so Redis forgets it by itself and memory stays bounded
 * by the ids of one tolerance window.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import type { ReplayGuard } from '../../webhook/replay-guard.js';

/** Sets `key` unless it exists, expiring after `ttlSec`; resolves `true` when it was set. */
export type SetIfAbsent = (key: string, ttlSec: number) => Promise<boolean>;

export class RedisReplayGuard implements ReplayGuard {
  readonly #prefix: string;
  readonly #setIfAbsent: SetIfAbsent;

  /** Use `RedisStore.openReplayGuard()`. */
  constructor(keyPrefix: string, setIfAbsent: SetIfAbsent) {
    this.#prefix = `${keyPrefix}replay:`;
    this.#setIfAbsent = setIfAbsent;
  }

  async seen(key: string, ttlSec: number): Promise<boolean> {
    // Hashed: ids come from request headers, of any length and content.
    const digest = createHash('sha256').update(key).digest('hex');
    return !(await this.#setIfAbsent(`${this.#prefix}${digest}`, Math.max(ttlSec, 1)));
  }
}
