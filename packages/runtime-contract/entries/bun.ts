/**
 * What the contract runs on Bun: `bun entries/bun.ts <data dir>`. The documented
 * Bun entry with the LevelDB store, plus a test-only route that counts the
 * long-poll waiters of one name (for the hang-up check).
 */
import { createApp } from '@mockpoint/core';
import { serve } from '@mockpoint/core/bun';
import { LevelStore } from '@mockpoint/core/level';
import { graphqlWorker } from '@mockpoint/core/threads';

const dir = process.argv[2];
if (dir === undefined) throw new Error('usage: bun entries/bun.ts <data dir>');
const store = await LevelStore.open({ dir });
// GraphQL schemas built and answered in a worker thread, as the daemon does.
const graphqlRunner = graphqlWorker();
const app = createApp({ store, graphqlRunner });
app.get('/__contract/waiters/:name', (c) => c.json(app.mockpoint.journal.waitersFor(c.req.param('name'))));
const served = serve(app, { port: 0 });
console.log(`mockpoint listening on ${served.url} (store: level)`);
process.once('SIGTERM', async () => {
  await served.close({ graceMs: 5000 });
  await graphqlRunner.close();
  await store.close();
  process.exit(0);
});
