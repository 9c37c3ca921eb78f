/**
 * `openBackend()`: the daemon's state, chosen by its settings — `redisUrl`,
 * `memory`, or else the LevelDB `dataDir` — by a lookup on the kind. The LevelDB
 * and Redis entries (and the memory one) are imported only when chosen, so the CLI
 * starts opening the store before the rest of the daemon's modules have loaded.
 *
 * @module
 */
import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Backend } from '@mockpoint/core';
import { type LimitOptions, SETTINGS } from '@mockpoint/core/defaults';
import { isOwnError } from '@mockpoint/core/internal';
import { DEFAULTS, type ServerConfig } from './config.js';
import { dataDirLocked } from './daemon-note.js';
import { StartError } from './start-error.js';

/** The settings {@link openBackend} reads. */
export interface BackendSettings
  extends Pick<Partial<ServerConfig>, 'memory' | 'dataDir' | 'redisUrl'>,
    Pick<LimitOptions, 'journalSize' | 'journalMaxBytes'> {
  /** How long start-up waits for `redisUrl` before it fails. @default 5000 */
  redisConnectTimeoutMs?: number;
}

/**
 * Creates `dir` and its missing parents. Not `mkdirSync(dir, { recursive: true })`:
 * on some file systems (procfs) that loops forever instead of failing.
 */
function ensureDir(dir: string, mode = 0o777): void {
  try {
    mkdirSync(dir, mode);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      if (!statSync(dir).isDirectory()) throw new Error('it exists and is not a directory');
      return;
    }
    const parent = dirname(dir);
    if (code !== 'ENOENT' || parent === dir) throw error;
    ensureDir(parent);
    mkdirSync(dir, mode); // fails (once) if the parent still refuses it
  }
}

/** The kinds of backend the daemon opens. */
type BackendKind = 'memory' | 'level' | 'redis';

/** The journal bounds of the settings. */
function bounds(settings: BackendSettings): Pick<LimitOptions, 'journalSize' | 'journalMaxBytes'> {
  return { journalSize: settings.journalSize, journalMaxBytes: settings.journalMaxBytes };
}

/** The Redis client: an optional peer dependency, installed only by who uses `--redis-url`. */
const REDIS_CLIENT = '@redis/client';

/**
 * `@mockpoint/core/redis`, whose first import is the Redis client.
 * @throws StartError `REDIS_CLIENT_MISSING` when the client is not installed (one line naming it).
 */
async function loadRedisStore(): Promise<typeof import('@mockpoint/core/redis')> {
  try {
    return await import('@mockpoint/core/redis');
  } catch (error) {
    const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
    if (code === 'ERR_MODULE_NOT_FOUND' && String(message).startsWith(`Cannot find package '${REDIS_CLIENT}'`)) {
      throw new StartError(
        'REDIS_CLIENT_MISSING',
        `${SETTINGS.redisUrl.flag} (${SETTINGS.redisUrl.env}) needs ${REDIS_CLIENT}, which is not installed: npm install -g ${REDIS_CLIENT}@6 (next to a global mockpoint; in a project: npm install ${REDIS_CLIENT}@6)`,
        error,
      );
    }
    throw error;
  }
}

/** What opens a backend of one kind, once its modules are loaded. */
type Open = () => Promise<Backend>;

/** How each kind is opened: its modules loaded (and its directory made), then what opens it. */
const OPENERS: Record<BackendKind, (settings: BackendSettings) => Promise<Open>> = {
  // Imported here, not at the top: the CLI imports this module to open LevelDB before core's main
  // entry (most of the daemon's modules) loads (cli.ts).
  memory: async (settings) => {
    const { memoryBackend } = await import('@mockpoint/core');
    return async () => memoryBackend(bounds(settings));
  },
  level: async (settings) => {
    const dir = settings.dataDir ?? DEFAULTS.dataDir;
    try {
      // Its owner's alone (levelBackend keeps it so: docs/safety.md#files-on-disk).
      ensureDir(dir, 0o700);
    } catch (error) {
      throw new StartError(
        'DATA_DIR_UNUSABLE',
        `cannot create data directory ${dir}: ${(error as Error).message}`,
        error,
      );
    }
    let level: typeof import('@mockpoint/core/level');
    try {
      level = await import('@mockpoint/core/level');
    } catch (error) {
      // classic-level loads its native addon when imported; the single executable unpacks it first.
      throw new StartError(
        'LEVELDB_UNAVAILABLE',
        `the LevelDB store cannot load its native addon (${(error as Error).message.split('\n')[0]}): set TMPDIR to a writable directory that allows running files, or start with --memory or MOCKPOINT_REDIS_URL`,
        error,
      );
    }
    return async () => {
      try {
        return await level.levelBackend({ ...bounds(settings), dir });
      } catch (error) {
        throw isOwnError(error) && error.code === 'DATA_DIR_LOCKED' ? dataDirLocked(dir, error) : error;
      }
    };
  },
  redis: async (settings) => {
    const { redisBackend } = await loadRedisStore();
    return async () => {
      try {
        return await redisBackend({
          ...bounds(settings),
          url: settings.redisUrl as string,
          connectTimeoutMs: settings.redisConnectTimeoutMs,
        });
      } catch (error) {
        throw new StartError('REDIS_UNREACHABLE', `${SETTINGS.redisUrl.env}: ${(error as Error).message}`, error);
      }
    };
  },
};

/** Which kind the settings choose: Redis when it has a URL, memory when asked, LevelDB otherwise. */
export function backendKind(settings: BackendSettings): BackendKind {
  if (settings.redisUrl !== undefined) return 'redis';
  return settings.memory ? 'memory' : 'level';
}

/**
 * Loads the modules of the backend the settings choose (and makes the data directory); returns what
 * opens it. The CLI calls it before the daemon's other modules are imported, and has the store open
 * while they load (LevelDB reads its files on a thread of its own).
 * @throws StartError `DATA_DIR_UNUSABLE` (the data directory cannot be made),
 *   `LEVELDB_UNAVAILABLE` (its native addon cannot be loaded), `REDIS_CLIENT_MISSING`
 * @example const open = await prepareBackend(config); const opening = open();
 */
export function prepareBackend(settings: BackendSettings): Promise<() => Promise<Backend>> {
  return OPENERS[backendKind(settings)](settings);
}

/**
 * Opens the backend the settings choose.
 * @throws StartError `DATA_DIR_UNUSABLE` (the data directory cannot be made),
 *   `LEVELDB_UNAVAILABLE` (its native addon cannot be loaded), `REDIS_CLIENT_MISSING` or `REDIS_UNREACHABLE`; MockpointError as the LevelDB store's open does.
 * @example const backend = await openBackend({ memory: true })
 */
export async function openBackend(settings: BackendSettings): Promise<Backend> {
  return (await prepareBackend(settings))();
}
