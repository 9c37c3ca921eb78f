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
import { MockServerError } from './errors.js';

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
  const LevelStore = await loadLevelStore();
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

/**
 * `@mockpoint/core/level`, loaded only when asked for, so that memory servers never
 * pay for LevelDB; `level` is an optional peer dependency, so it may be missing.
 */
async function loadLevelStore() {
  try {
    return (await import('@mockpoint/core/level')).LevelStore;
  } catch (error) {
    const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
    if (code === 'ERR_MODULE_NOT_FOUND' && typeof message === 'string' && message.includes("'level'")) {
      throw new MockServerError(
        'MISSING_DEPENDENCY',
        "store: 'level' needs the `level` package (an optional peer dependency): npm install --save-dev level@10",
        { cause: error },
      );
    }
    throw error;
  }
}
