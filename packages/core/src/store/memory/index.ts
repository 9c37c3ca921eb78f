/**
 * An in-memory {@link EndpointStore}: for tests, `createMockServer()` and `--memory`.
 *
 * @module
 */
import { MockpointError } from '../../wire/errors.js';
import { JsonText } from '../../wire/json-text.js';
import type { EndpointRecord, ListPage } from '../../wire/schemas.js';
import type { CountOptions, EndpointStore, ListOptions } from '../store.js';

/** A record's own copy; a {@link JsonText} is immutable and shared, a plain value is cloned. */
function copy(record: EndpointRecord): EndpointRecord {
  const data = record.data instanceof JsonText ? record.data : structuredClone(record.data);
  return { name: record.name, data, statusCode: record.statusCode, delay: record.delay };
}

/** Keeps records in a `Map` (never a plain object: names like `__proto__` are ordinary). */
export class MemoryStore implements EndpointStore {
  readonly kind = 'memory';
  readonly #records = new Map<string, EndpointRecord>();
  #closed = false;

  async get(name: string): Promise<EndpointRecord | undefined> {
    this.#assertOpen();
    const record = this.#records.get(name);
    return record && copy(record);
  }

  async create(record: EndpointRecord): Promise<boolean> {
    this.#assertOpen();
    if (this.#records.has(record.name)) return false;
    this.#records.set(record.name, copy(record));
    return true;
  }

  async put(record: EndpointRecord): Promise<{ created: boolean }> {
    this.#assertOpen();
    const created = !this.#records.has(record.name);
    this.#records.set(record.name, copy(record));
    return { created };
  }

  async delete(name: string): Promise<boolean> {
    this.#assertOpen();
    return this.#records.delete(name);
  }

  async list({ limit, after, prefix = '' }: ListOptions): Promise<ListPage> {
    this.#assertOpen();
    const names = [...this.#records.keys()]
      .filter((n) => (after === undefined || n > after) && n.startsWith(prefix))
      .sort();
    const page = names.slice(0, limit);
    const endpoints = page.map((n) => copy(this.#records.get(n) as EndpointRecord));
    const next = names.length > limit ? (page.at(-1) ?? null) : null;
    return { endpoints, next };
  }

  async count({ prefix = '' }: CountOptions = {}): Promise<number> {
    this.#assertOpen();
    let n = 0;
    for (const name of this.#records.keys()) if (name.startsWith(prefix)) n++;
    return n;
  }

  async clear(): Promise<void> {
    this.#assertOpen();
    this.#records.clear();
  }

  async close(): Promise<void> {
    this.#closed = true;
  }

  #assertOpen(): void {
    if (this.#closed) throw new MockpointError('STORE_UNAVAILABLE', 'the memory store is closed');
  }
}
