/**
 * Namespaces in this process's memory: the registry in a map, each namespace's
 * parts a {@link memoryBackend} of their own (nothing survives the process).
 *
 * @module
 */
import type { Backend, JournalBounds } from '../backend.js';
import {
  type BackendNamespaces,
  MapNamespaceRegistry,
  type NamespaceCreated,
  type NamespaceEntry,
  type NamespaceRegistry,
} from '../namespaces.js';

/** The registry in a map. */
export class MemoryNamespaceRegistry extends MapNamespaceRegistry implements NamespaceRegistry {
  create(entry: NamespaceEntry, max: number): Promise<NamespaceCreated> {
    return this.createAll([entry], max);
  }

  async createAll(entries: readonly NamespaceEntry[], max: number): Promise<NamespaceCreated> {
    if (entries.some(({ name }) => this.entries.has(name))) return 'exists';
    if (this.entries.size + entries.length > max) return 'full';
    for (const entry of entries) this.entries.set(entry.name, { ...entry });
    return 'created';
  }

  async delete(name: string): Promise<boolean> {
    return this.entries.delete(name);
  }

  async touch(name: string, at: number): Promise<void> {
    const entry = this.entries.get(name);
    if (entry !== undefined && at > entry.usedAt) entry.usedAt = at;
  }
}

/**
 * Namespaces whose parts live in this process: `open` makes a namespace's
 * backend once (with `make`) and hands the same one back until `drop`, so
 * closing a namespace's app and opening it again finds its data.
 */
export function memoryNamespaces(make: (bounds: JournalBounds) => Backend, bounds: JournalBounds): BackendNamespaces {
  const backends = new Map<string, Backend>();
  return {
    registry: new MemoryNamespaceRegistry(),
    async open(name) {
      let backend = backends.get(name);
      const madeByOpen = backend === undefined;
      if (backend === undefined) {
        backend = make(bounds);
        backends.set(name, backend);
      }
      // Closing it (the caller's part) must not lose the data: a memory backend's close only closes its store.
      return { ...backend, close: async () => undefined, madeByOpen };
    },
    async drop(name) {
      const backend = backends.get(name);
      backends.delete(name);
      await backend?.close();
    },
  };
}
