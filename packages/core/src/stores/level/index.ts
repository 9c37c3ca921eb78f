/**
 * A durable {@link EndpointStore} on LevelDB (the `level` package). Node only:
 * import it from `@mockpoint/core/level` so the main entry stays runtime-agnostic.
 *
 * @module
 */
import { Level } from 'level';
import { MockpointError } from '../../errors.js';
import type { EndpointRecord } from '../../schemas.js';
import { decodeRecord, encodeRecord } from '../../store/record-codec.js';
import { type EndpointStore, KeyedMutex, type ListOptions, type ListPage } from '../../store/store.js';
import { GroupCommit } from './group-commit.js';

/** Options for {@link LevelStore.open}. */
export interface LevelStoreOptions {
  /** Directory of the database; created when missing. */
  dir: string;
  /**
   * fsync every write before it resolves, so an acknowledged write survives a crash.
   * @default true
   */
  sync?: boolean;
}

/**
 * Every write is fsync'd before it resolves, with concurrent writes sharing one
 * fsync (group commit); a create checks and writes under a per-name lock.
 */
export class LevelStore implements EndpointStore {
  readonly kind = 'level';
  readonly dir: string;
  readonly #db: Level<string, string>;
  readonly #writes: GroupCommit;
  readonly #locks = new KeyedMutex();

  private constructor(db: Level<string, string>, options: LevelStoreOptions) {
    this.#db = db;
    this.dir = options.dir;
    this.#writes = new GroupCommit(db, options.sync ?? true);
  }

  /**
   * Opens (or creates) the database in `options.dir`.
   * @throws MockpointError `DATA_DIR_LOCKED` when another process holds the directory.
   * @example const store = await LevelStore.open({ dir: './data' })
   */
  static async open(options: LevelStoreOptions): Promise<LevelStore> {
    const db = new Level<string, string>(options.dir, { keyEncoding: 'utf8', valueEncoding: 'utf8' });
    try {
      await db.open();
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause;
      if (cause?.code === 'LEVEL_LOCKED') {
        throw new MockpointError(
          'DATA_DIR_LOCKED',
          `data directory ${options.dir} is in use by another mockpoint process`,
          { cause: error },
        );
      }
      throw new MockpointError(
        'STORE_UNAVAILABLE',
        `cannot open the data directory ${options.dir}: ${String((cause as Error | undefined)?.message ?? error)}`,
        {
          cause: error,
        },
      );
    }
    return new LevelStore(db, options);
  }

  async get(name: string): Promise<EndpointRecord | undefined> {
    const text = await this.#call(() => this.#db.get(name));
    return text === undefined ? undefined : decodeRecord(text);
  }

  async create(record: EndpointRecord): Promise<boolean> {
    // LevelDB has no put-if-absent; one process owns the directory (LOCK file), so a
    // per-name lock in this process makes the check and the write one step.
    return this.#locks.run(record.name, async () => {
      if ((await this.#call(() => this.#db.has(record.name))) === true) return false;
      await this.#call(() => this.#writes.write({ type: 'put', key: record.name, value: encodeRecord(record) }));
      return true;
    });
  }

  async put(record: EndpointRecord): Promise<{ created: boolean }> {
    return this.#locks.run(record.name, async () => {
      const existed = await this.#call(() => this.#db.has(record.name));
      await this.#call(() => this.#writes.write({ type: 'put', key: record.name, value: encodeRecord(record) }));
      return { created: !existed };
    });
  }

  async delete(name: string): Promise<boolean> {
    return this.#locks.run(name, async () => {
      const existed = await this.#call(() => this.#db.has(name));
      if (existed) await this.#call(() => this.#writes.write({ type: 'del', key: name }));
      return existed;
    });
  }

  async list({ limit, after }: ListOptions): Promise<ListPage> {
    const range = after === undefined ? { limit: limit + 1 } : { gt: after, limit: limit + 1 };
    const entries = await this.#call(() => this.#db.iterator(range).all());
    const page = entries.slice(0, limit).map(([, value]) => decodeRecord(value));
    const next = entries.length > limit ? (page.at(-1)?.name ?? null) : null;
    return { endpoints: page, next };
  }

  async clear(): Promise<void> {
    await this.#call(() => this.#db.clear());
  }

  async close(): Promise<void> {
    await this.#db.close();
  }

  async #call<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      throw new MockpointError(
        'STORE_UNAVAILABLE',
        `LevelDB store in ${this.dir} failed: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
  }
}
