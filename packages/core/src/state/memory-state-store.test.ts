import { MemoryStateStore } from './memory-state-store.js';
import { runStateStoreContract } from './state-store.case.test.js';

runStateStoreContract('MemoryStateStore', async () => ({ store: new MemoryStateStore(), close: async () => {} }), {
  durable: false,
});
