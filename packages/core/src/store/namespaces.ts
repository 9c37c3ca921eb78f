/**
 * Namespaces in a backend (docs/design.md#namespaces): each one a whole mockpoint inside the
 * daemon — its own records, routes, collections, state, queue, journal, hosts
 * and deliveries — kept in the same place as the default namespace (memory,
 * the LevelDB directory, Redis) and invisible to every other namespace. The
 * backend keeps two things: the **registry** (which namespaces exist, the hash
 * of each one's token, its idle time-to-live) and each namespace's **parts**,
 * opened as a {@link Backend} of their own.
 *
 * @module
 */
import type { Backend } from './backend.js';

/** One namespace as the registry keeps it. */
export interface NamespaceEntry {
  /** Its name: the endpoint-name rule (`A–Z a–z 0–9 _ -`, 1–64). */
  name: string;
  /** SHA-256 of its token, as lowercase hex (the token itself is never kept). */
  tokenHash: string;
  /** Deleted after this many milliseconds without a request; absent: kept until deleted. */
  ttlMs?: number;
  /** When it was made, in ms since the epoch. */
  createdAt: number;
  /**
   * When a request last reached it, as written down (each process writes a use
   * down at most once per a quarter of `ttlMs`, at least once a second), in ms since the epoch.
   */
  usedAt: number;
}

/** What {@link NamespaceRegistry.create} did. */
export type NamespaceCreated = 'created' | 'exists' | 'full';

/**
 * Which namespaces exist. Every write is atomic where the backend is shared
 * (Redis: one script), so two replicas never both create one name.
 */
export interface NamespaceRegistry {
  /** Every namespace, sorted by name. */
  list(): Promise<NamespaceEntry[]>;
  /** One namespace, or `undefined`. */
  get(name: string): Promise<NamespaceEntry | undefined>;
  /**
   * Adds `entry` unless its name is taken (`exists`) or `max` namespaces exist
   * already (`full`), as one step.
   */
  create(entry: NamespaceEntry, max: number): Promise<NamespaceCreated>;
  /**
   * Adds every one of `entries` (of distinct names), or none: `exists` when one's name is taken,
   * `full` when they do not all fit under `max`. One step, one write (a batch of sessions).
   */
  createAll(entries: readonly NamespaceEntry[], max: number): Promise<NamespaceCreated>;
  /** Removes it; whether it was there. */
  delete(name: string): Promise<boolean>;
  /** Writes down a use at `at` (ms since the epoch); nothing when it is gone. */
  touch(name: string, at: number): Promise<void>;
}

/** Options for {@link BackendNamespaces.drop}. */
export interface DropOptions {
  /** @default true: durable when it resolves */
  durable?: boolean;
  /**
   * The name was drawn at random here a moment ago (72 random bits) and no one has used it: there
   * is nothing to remove, so nothing is read or written (a backend that keeps track notes the
   * namespace's range empty). @default false
   */
  unused?: boolean;
}

/** The namespaces of a backend: the registry, and each namespace's parts. */
export interface BackendNamespaces {
  readonly registry: NamespaceRegistry;
  /**
   * The parts of namespace `name`, kept apart from the default namespace's and
   * every other's (the registry is not consulted: the caller checks it). Closing
   * the returned backend closes what this opened (connections, timers), never
   * the data; opening it again finds the data as it was.
   */
  open(name: string): Promise<Backend>;
  /**
   * Removes every byte namespace `name` holds (its backend closed first, by the caller).
   * `durable: false` (the delete of a namespace of a random name, once the registry's delete is
   * durable): the removal need not be on disk when this resolves. No entry names the namespace,
   * and no namespace of its name is made again (72 random bits), so a power cut that loses the
   * removal leaves keys on disk that nothing reads.
   */
  drop(name: string, options?: DropOptions): Promise<void>;
}

/**
 * A registry that holds its entries in a map (the memory one; LevelDB's, which also writes
 * them through): `list` and `get` answer copies, listed by name.
 */
export abstract class MapNamespaceRegistry {
  protected readonly entries = new Map<string, NamespaceEntry>();

  async list(): Promise<NamespaceEntry[]> {
    return [...this.entries.values()].sort((a, b) => (a.name < b.name ? -1 : 1)).map((entry) => ({ ...entry }));
  }

  async get(name: string): Promise<NamespaceEntry | undefined> {
    const entry = this.entries.get(name);
    return entry && { ...entry };
  }
}

/** An entry as stored text (LevelDB, Redis): JSON with its fields in a fixed order. */
export function namespaceEntryJson(entry: NamespaceEntry): string {
  const { name, tokenHash, ttlMs, createdAt, usedAt } = entry;
  return JSON.stringify(
    ttlMs === undefined ? { name, tokenHash, createdAt, usedAt } : { name, tokenHash, ttlMs, createdAt, usedAt },
  );
}

/** An entry read back from {@link namespaceEntryJson}'s text; throws on text that is not one. */
export function decodeNamespaceEntry(text: string): NamespaceEntry {
  const value = JSON.parse(text) as Partial<NamespaceEntry> | null;
  if (
    value === null ||
    typeof value !== 'object' ||
    typeof value.name !== 'string' ||
    typeof value.tokenHash !== 'string' ||
    typeof value.createdAt !== 'number' ||
    typeof value.usedAt !== 'number' ||
    (value.ttlMs !== undefined && typeof value.ttlMs !== 'number')
  ) {
    throw new TypeError('not a stored namespace');
  }
  const entry: NamespaceEntry = {
    name: value.name,
    tokenHash: value.tokenHash,
    createdAt: value.createdAt,
    usedAt: value.usedAt,
  };
  if (value.ttlMs !== undefined) entry.ttlMs = value.ttlMs;
  return entry;
}
