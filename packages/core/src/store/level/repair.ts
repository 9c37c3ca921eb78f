/**
 * `mockpoint repair`: LevelDB's own repair (RepairDB) on a data directory the
 * daemon does not hold. It rebuilds the database from every log and table it can
 * read, keeps every record that can still be read, and moves the files it cannot
 * use into `<dir>/lost`, where they stay. Then it counts what survived, so the
 * result is never an empty database without a word.
 *
 * @module
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Level } from 'level';
import { MockpointError } from '../../registry/errors.js';
import { checkTables, type DamagedTable } from './table-check.js';

/** What {@link repairLevelStore} did. */
export interface RepairResult {
  /**
   * Records of the default namespace the repaired database holds (the
   * namespaces' keys and their registry, `\u0003…` and `\u0004…`, sort before
   * every name: kept like every other key, not counted).
   */
  records: number;
  /** Table files found damaged before the repair. */
  damaged: DamagedTable[];
  /** Files the repair set aside in `<dir>/lost` (kept, not deleted). */
  setAside: string[];
}

/** The smallest character an endpoint name can start with: records are the keys from here on (see index.ts). */
const FIRST_NAME = '-';

async function list(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => []);
}

/**
 * Repairs the LevelDB database in `dir`.
 * @throws MockpointError `DATA_DIR_LOCKED` while a daemon holds the directory;
 *   `NOT_FOUND` when it holds no LevelDB database.
 * @example const { records } = await repairLevelStore('./data')
 */
export async function repairLevelStore(dir: string): Promise<RepairResult> {
  const files = await list(dir);
  if (!files.some((name) => /^(CURRENT|MANIFEST-\d+|\d+\.(log|ldb|sst))$/.test(name))) {
    throw new MockpointError('NOT_FOUND', `${dir} holds no LevelDB database: nothing to repair`);
  }
  // Takes the lock and gives it back without touching anything (the directory
  // exists, or does not, either way an error): only a daemon's lock gets through.
  const probe = new Level<string, string>(dir, { createIfMissing: false, errorIfExists: true });
  await probe.open().then(
    () => probe.close(),
    (error: { cause?: { code?: string } }) => {
      if (error.cause?.code === 'LEVEL_LOCKED') {
        throw new MockpointError(
          'DATA_DIR_LOCKED',
          `data directory ${dir} is in use by another mockpoint process; stop it, then repair`,
        );
      }
    },
  );
  const damaged = await checkTables(dir);
  const lostBefore = new Set(await list(join(dir, 'lost')));
  // `level` is classic-level on Node, whose static repair its typings do not list.
  await (Level as unknown as { repair(location: string): Promise<void> }).repair(dir);
  const setAside = (await list(join(dir, 'lost'))).filter((name) => !lostBefore.has(name));
  const db = new Level<string, string>(dir, { createIfMissing: false });
  await db.open();
  let records = 0;
  try {
    // Records only: every name sorts at or after `-`; route lists, signature checks,
    // the other parts (collections, deliveries, state) and the namespaces are keyed before it.
    for await (const _ of db.keys({ gte: FIRST_NAME })) records++;
  } finally {
    await db.close();
  }
  return { records, damaged, setAside };
}
