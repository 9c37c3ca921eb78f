import { runStoreContract } from '../store.case.test.js';
import { MemoryStore } from './index.js';

runStoreContract('MemoryStore', async () => new MemoryStore());
