/**
 * A byte-bounded LRU cache of pre-serialised endpoint responses, so the read
 * path does no JSON work.
 *
 * @module
 */
import { type PreparedAnswers, prepareAnswers, reuseHeaders } from '../answer/endpoint-answer.js';

import { jsonTextOf } from '../codec/json-text.js';

/** A response ready to send: the stored `data` already serialised. */
export interface CachedResponse {
  /** The stored `data`'s exact JSON text. */
  body: string;
  statusCode: number;
  delay: number;
  /** Approximate memory cost in bytes, used for the bound. */
  bytes: number;
  /** The answers sent for it, built once (they share `body`). */
  answers: PreparedAnswers;
}

/** Fixed per-entry overhead added to the body size (map slot, objects, prepared headers). */
const ENTRY_OVERHEAD = 512;

/** A cached record's answers are sent many times: their headers are marked so (see reuseHeaders). */
function reused(answers: PreparedAnswers): PreparedAnswers {
  reuseHeaders(answers.full.headers);
  reuseHeaders(answers.head.headers);
  return answers;
}

/** Builds the cache entry for a record's fields. */
export function toCachedResponse(name: string, data: unknown, statusCode: number, delay: number): CachedResponse {
  const body = jsonTextOf(data);
  // UTF-16 strings cost two bytes per code unit.
  return {
    body,
    statusCode,
    delay,
    bytes: (body.length + name.length) * 2 + ENTRY_OVERHEAD,
    answers: reused(prepareAnswers(body, statusCode, delay)),
  };
}

/** Least-recently-used eviction once the total size passes `maxBytes`. */
export class ResponseCache {
  readonly maxBytes: number;
  readonly #entries = new Map<string, CachedResponse>();
  #bytes = 0;
  /** The most recently used name: a hit on it again changes nothing (the hot path of one busy name). */
  #newest: string | undefined;

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  /** Total bytes held. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Number of entries held. */
  get size(): number {
    return this.#entries.size;
  }

  get(name: string): CachedResponse | undefined {
    const entry = this.#entries.get(name);
    if (entry !== undefined && name !== this.#newest) {
      // Re-insert to mark as most recently used (Map keeps insertion order). Not for the
      // newest already: a delete and a set on every hit cost a cached GET ~1 µs in a profile
      // (bench/run.mjs "get", 181 of 185 samples of get() on the set).
      this.#entries.delete(name);
      this.#entries.set(name, entry);
      this.#newest = name;
    }
    return entry;
  }

  set(name: string, entry: CachedResponse): void {
    this.delete(name);
    if (entry.bytes > this.maxBytes) return; // would evict everything and still not fit
    this.#entries.set(name, entry);
    this.#newest = name;
    this.#bytes += entry.bytes;
    for (const [oldest, old] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= old.bytes;
    }
  }

  delete(name: string): void {
    const entry = this.#entries.get(name);
    if (entry === undefined) return;
    this.#entries.delete(name);
    if (name === this.#newest) this.#newest = undefined;
    this.#bytes -= entry.bytes;
  }

  clear(): void {
    this.#entries.clear();
    this.#newest = undefined;
    this.#bytes = 0;
  }
}
