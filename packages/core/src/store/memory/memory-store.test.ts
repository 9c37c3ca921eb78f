import { runStoreContract } from '../store.case.test.js';
import { MemoryStore } from './memory-store.js';

runStoreContract('MemoryStore', async () => new MemoryStore());
