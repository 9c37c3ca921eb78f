/**
 * `levelBackend()`: the {@link Backend} on a LevelDB data directory. Records,
 * collections, state (scenarios) and outgoing deliveries are durable there; the
 * journal, the answer queue and the replay memory are this process's (one
 * process opens a directory). Its namespaces (level-namespaces.ts) are kept in
 * the same directory, each under a key prefix of its own.
 *
 * @module
 */

import { resolveLimits } from '../../registry/limits.js';
import type { Backend, JournalBounds } from '../backend.js';
import { memoryBackend } from '../memory/backend.js';
import type { BackendNamespaces } from '../namespaces.js';
import { LevelStore, type LevelStoreOptions } from './index.js';
import { LevelNamespaceRegistry } from './level-namespace-registry.js';
import { levelNamespaces } from './level-namespaces.js';
import { openDurable } from './open-durable.js';
import { makePrivate, tightenedLine } from './private-dir.js';

/** Options for {@link levelBackend}: the store's and the journal's bounds. */
export interface LevelBackendOptions extends LevelStoreOptions, JournalBounds {}

/**
 * The namespaces kept in `store`'s directory: the registry loaded, entries that
 * cannot be read skipped with a warning; none (and a warning) when the registry
 * itself cannot be read, since creating namespaces over it could overwrite one.
 */
async function openNamespaces(
  store: LevelStore,
  bounds: JournalBounds,
  warnings: string[],
): Promise<BackendNamespaces | undefined> {
  let registry: LevelNamespaceRegistry;
  try {
    registry = await LevelNamespaceRegistry.open(store.namespaceLog());
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    warnings.push(
      `the namespace registry could not be read (${reason}); namespaces are unavailable until the data directory is repaired (mockpoint repair)`,
    );
    return undefined;
  }
  const skipped = registry.unreadableAtOpen;
  if (skipped.length > 0) {
    warnings.push(
      `data directory ${store.dir}: ${skipped.length} namespace(s) in the registry could not be read and were skipped (${skipped.join(', ')})`,
    );
  }
  return levelNamespaces(store, registry, { journalSize: bounds.journalSize, journalMaxBytes: bounds.journalMaxBytes });
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
  const namespaces = await openNamespaces(store, resolveLimits(options), warnings);
  const backend = memoryBackend({ ...options, store, deliveries, collections, states });
  return {
    ...backend,
    kind: 'level',
    warnings,
    describe: () => `level at ${store.dir}`,
    ...(namespaces === undefined ? {} : { namespaces }),
  };
}
