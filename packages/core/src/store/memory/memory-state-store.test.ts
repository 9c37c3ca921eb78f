import { runStateStoreContract } from '../../state/state-store.case.test.js';
import { MemoryStateStore } from './memory-state-store.js';

runStateStoreContract('MemoryStateStore', async () => ({ store: new MemoryStateStore(), close: async () => {} }), {
  durable: false,
});
