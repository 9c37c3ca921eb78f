/**
 * The store behind a mock server: memory by default, LevelDB on request (in a
 * fresh temporary directory unless one is given).
 *
 * @module
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EndpointStore, MemoryStore } from '@mockpoint/core';

/** Which store a mock server uses. */
export type MockStoreKind = 'memory' | 'level';

/** An open store and how to release it. */
export interface OpenedStore {
  store: EndpointStore;
  /** The LevelDB directory, when the store is `level`. */
  dir: string | undefined;
  /** Closes the store and removes the directory if it was created here. */
  dispose(): Promise<void>;
}

/** Opens the store for `kind`; `dir` is only used by `level`. */
export async function openStore(kind: MockStoreKind, dir: string | undefined): Promise<OpenedStore> {
  if (kind === 'memory') {
    const store = new MemoryStore();
    return { store, dir: undefined, dispose: () => store.close() };
  }
  // Loaded only when asked for, so that memory servers never pay for LevelDB.
  const { LevelStore } = await import('@mockpoint/core/level');
  const owned = dir === undefined;
  const path = dir ?? (await mkdtemp(join(tmpdir(), 'mockpoint-')));
  let store: EndpointStore;
  try {
    store = await LevelStore.open({ dir: path });
  } catch (error) {
    if (owned) await rm(path, { recursive: true, force: true });
    throw error;
  }
  return {
    store,
    dir: path,
    async dispose() {
      await store.close();
      if (owned) await rm(path, { recursive: true, force: true });
    },
  };
}
