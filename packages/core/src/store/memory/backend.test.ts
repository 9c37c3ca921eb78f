// The memory backend through the backend contract, and the parts it is given.
import { describe, expect, it } from 'vitest';
import { createApp } from '../../http/create-app.js';
import { runBackendContract } from '../backend.case.test.js';
import { runNamespacesContract } from '../namespaces.case.test.js';
import { memoryBackend } from './backend.js';
import { MemoryAnswerQueue } from './memory-answer-queue.js';
import { MemoryStore } from './memory-store.js';

runBackendContract(
  'memoryBackend',
  {
    kind: 'memory',
    storeKind: 'memory',
    collectionsKind: 'memory',
    describes: /^memory \(nothing is written to disk\)$/,
  },
  async () => ({ backend: memoryBackend() }),
);

describe('memoryBackend and createApp', () => {
  it('uses the parts it is given and makes the others', () => {
    const store = new MemoryStore();
    const queue = new MemoryAnswerQueue();
    const backend = memoryBackend({ store, queue, journalSize: 7 });
    expect(backend.store).toBe(store);
    expect(backend.queue).toBe(queue);
    expect(backend.journal).toMatchObject({ size: 7 });
  });

  it('createApp takes a backend, or parts, never both', () => {
    const backend = memoryBackend();
    expect(createApp({ backend }).mockpoint.backend).toBe(backend);
    const store = new MemoryStore();
    expect(createApp({ store }).mockpoint.backend.store).toBe(store);
    expect(() => createApp({ backend, store })).toThrow(
      /give either `backend` or its parts, not both \(also given: store\)/,
    );
  });
});

runNamespacesContract('memoryBackend', async () => ({ backend: memoryBackend() }));
