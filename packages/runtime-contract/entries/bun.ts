/**
 * What the contract runs on Bun: `bun entries/bun.ts <data dir>`. The documented
 * Bun entry with the LevelDB store, plus a test-only route that counts the
 * long-poll waiters of one name (for the hang-up check).
 */
import { serve } from '@mockpoint/core/bun';
import { LevelStore } from '@mockpoint/core/level';

const dir = process.argv[2];
if (dir === undefined) throw new Error('usage: bun entries/bun.ts <data dir>');
const server = serve({ port: 0, hostname: '127.0.0.1', store: await LevelStore.open({ dir }) });
server.app.get('/__contract/waiters/:name', (c) =>
  c.json(server.app.mockpoint.journal.waitersFor(c.req.param('name'))),
);
console.log(`mockpoint listening on ${server.url} (store: level)`);
process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
