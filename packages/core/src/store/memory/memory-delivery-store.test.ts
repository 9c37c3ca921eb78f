import { runDeliveryStoreContract } from '../../webhook/delivery-store.case.test.js';
import { MemoryDeliveryStore } from './memory-delivery-store.js';

runDeliveryStoreContract('MemoryDeliveryStore', async () => ({
  store: new MemoryDeliveryStore(),
  close: async () => undefined,
}));
