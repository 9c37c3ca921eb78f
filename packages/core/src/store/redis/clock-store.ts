/**
 * The clock shared by every replica on one Redis (clock/shared-clock.ts): one
 * key, `<prefix>clock`, holding `<version> <state JSON>`, written by one script
 * that compares the version, sets the next and publishes the new text on
 * `<prefix>clock` before Redis answers — so when `PUT /api/clock` is answered,
 * every subscribed replica has been sent the change (the bound of docs/replicas.md).
 *
 * @module
 */
import type { ClockState } from '../../clock/clock.js';
import type { SharedClockStore, VersionedClock } from '../../clock/shared-clock.js';

/** Compare-and-set: returns {1, new text} when written, {0, held text or ''} when the version moved on. */
const WRITE = `
local held = redis.call('GET', KEYS[1])
local version = 0
if held then version = tonumber(string.match(held, '^(%d+) ')) end
if version ~= tonumber(ARGV[1]) then return {0, held or ''} end
local text = (version + 1) .. ' ' .. ARGV[2]
redis.call('SET', KEYS[1], text)
redis.call('PUBLISH', KEYS[1], text)
return {1, text}`;

const REAL_TIME: VersionedClock = { version: 0, state: { offsetMs: 0 } };

/** What the store's connections give the clock. */
export interface RedisClockConnection {
  eval(script: string, keys: string[], args: string[]): Promise<unknown>;
  get(key: string): Promise<string | undefined>;
  subscribe(channel: string, listener: (message: string) => void): Promise<void>;
  /** Calls `listener` each time the subscription is back after a drop. */
  onLive(listener: () => void): void;
}

/** `<version> <json>` as a versioned state; real time for anything else (never written, or damaged). */
export function decodeClockText(text: string | undefined): VersionedClock {
  const space = text?.indexOf(' ') ?? -1;
  if (text === undefined || space < 1) return REAL_TIME;
  const version = Number(text.slice(0, space));
  try {
    const value = JSON.parse(text.slice(space + 1)) as Record<string, unknown>;
    if (Number.isSafeInteger(version) && Number.isSafeInteger(value.frozenAt)) {
      return { version, state: { frozenAt: value.frozenAt as number } };
    }
    if (Number.isSafeInteger(version) && Number.isSafeInteger(value.offsetMs)) {
      return { version, state: { offsetMs: value.offsetMs as number } };
    }
  } catch {
    // not JSON: as never written
  }
  return REAL_TIME;
}

/** A state as stored after its version: JSON of its one member. */
function stateJson(state: ClockState): string {
  return 'frozenAt' in state
    ? JSON.stringify({ frozenAt: state.frozenAt })
    : JSON.stringify({ offsetMs: state.offsetMs });
}

export class RedisClockStore implements SharedClockStore {
  readonly #key: string;
  readonly #redis: RedisClockConnection;
  readonly #listeners = new Set<(written: VersionedClock | undefined) => void>();

  /** Use `RedisStore.openClock()`. */
  constructor(redis: RedisClockConnection, keyPrefix: string) {
    this.#redis = redis;
    this.#key = `${keyPrefix}clock`;
    redis.onLive(() => {
      for (const listener of this.#listeners) listener(undefined);
    });
  }

  /** Subscribes to the clock's channel (before the store is used). */
  async start(): Promise<void> {
    await this.#redis.subscribe(this.#key, (message) => {
      const written = decodeClockText(message);
      for (const listener of this.#listeners) listener(written);
    });
  }

  async read(): Promise<VersionedClock> {
    return decodeClockText(await this.#redis.get(this.#key));
  }

  async write(version: number, state: ClockState): Promise<{ written: boolean; current: VersionedClock }> {
    const [written, text] = (await this.#redis.eval(WRITE, [this.#key], [String(version), stateJson(state)])) as [
      number,
      string,
    ];
    return { written: Number(written) === 1, current: decodeClockText(text === '' ? undefined : String(text)) };
  }

  follow(listener: (written: VersionedClock | undefined) => void): void {
    this.#listeners.add(listener);
  }
}
