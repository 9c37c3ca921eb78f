/**
 * `levelBackend()`: the {@link Backend} on a LevelDB data directory. Records,
 * collections, state (scenarios) and outgoing deliveries are durable there; the
 * journal, the answer queue and the replay memory are this process's (one
 * process opens a directory).
 *
 * @module
 */

import type { Backend, JournalBounds } from '../backend.js';
import { memoryBackend } from '../memory/backend.js';
import { LevelStore, type LevelStoreOptions } from './index.js';
import { makePrivate, tightenedLine } from './private-dir.js';

/** Options for {@link levelBackend}: the store's and the journal's bounds. */
export interface LevelBackendOptions extends LevelStoreOptions, JournalBounds {}

/**
 * A durable part of the store (`open`); when damaged data keeps it from being
 * read, the backend still opens (degraded, as health says) with that part kept
 * in memory (`undefined`: memoryBackend fills it in), and says so in one
 * warning naming `what` could not be read and `kept` in memory: `mockpoint
 * repair` is the way back.
 */
async function openDurable<T>(
  open: () => Promise<T>,
  what: string,
  kept: string,
  warnings: string[],
): Promise<T | undefined> {
  try {
    return await open();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    warnings.push(
      `${what} could not be read (${reason}); ${kept} kept in memory until the data directory is repaired (mockpoint repair)`,
    );
    return undefined;
  }
}

/** What the store found at open that a person should know. */
function openWarnings(store: LevelStore): string[] {
  const warnings: string[] = [];
  if (store.unreadableAtOpen > 0) {
    warnings.push(
      `data directory ${store.dir}: ${store.unreadableAtOpen} endpoint write(s) in the write-ahead log could not be read (damaged, or torn by a failed write) and were skipped; everything else was loaded`,
    );
  }
  if (store.damagedTables.length > 0) {
    warnings.push(`data directory ${store.dir}: ${store.health().reason ?? 'damaged table files'}`);
  }
  return warnings;
}

/**
 * Opens (or creates) the LevelDB store in `options.dir` and its durable deliveries, collections and state;
 * the folder is made its owner's alone (0700, its files 0600; a looser one is tightened and said in `warnings`).
 * @throws MockpointError as {@link LevelStore.open} does.
 * @example createApp({ backend: await levelBackend({ dir: './data' }) })
 */
export async function levelBackend(options: LevelBackendOptions): Promise<Backend> {
  // Secrets live here (signing and delivery secrets, the CA's key): the folder 0700, its files 0600.
  const loose = await makePrivate(options.dir);
  const store = await LevelStore.open(options);
  // The files the open made, under whatever umask this process has.
  await makePrivate(options.dir);
  const warnings = openWarnings(store);
  if (loose !== undefined) warnings.push(tightenedLine(options.dir, loose));
  const deliveries = await openDurable(
    () => store.openDeliveries(),
    'the pending deliveries',
    'new deliveries are',
    warnings,
  );
  const collections = await openDurable(
    () => store.openCollections(),
    'the collections',
    'collection writes are',
    warnings,
  );
  const states = await openDurable(() => store.openStates(), 'the state', 'state changes are', warnings);
  return {
    ...memoryBackend({ ...options, store, deliveries, collections, states }),
    kind: 'level',
    warnings,
    describe: () => `level at ${store.dir}`,
  };
}
