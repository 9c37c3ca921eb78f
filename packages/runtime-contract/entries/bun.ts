/**
 * What the contract runs on Bun: `bun entries/bun.ts <data dir>`. The documented
 * Bun entry with the LevelDB store, plus a test-only route (contract-app.ts).
 */
import { serve } from '@mockpoint/core/bun';
import { serveContractApp } from './contract-app.ts';

const dir = process.argv[2];
if (dir === undefined) throw new Error('usage: bun entries/bun.ts <data dir>');
const stop = await serveContractApp(dir, serve);
process.once('SIGTERM', async () => {
  await stop();
  process.exit(0);
});
