/**
 * What the contract runs on Deno: `deno run <permissions> entries/deno.ts <data dir>`.
 * The documented Deno entry with the LevelDB store, plus a test-only route (contract-app.ts).
 */
import { serve } from '@mockpoint/core/deno';
import { serveContractApp } from './contract-app.ts';

declare const Deno: {
  args: string[];
  addSignalListener(signal: 'SIGTERM', handler: () => void): void;
  exit(code: number): never;
};

const dir = Deno.args[0];
if (dir === undefined) throw new Error('usage: deno run … entries/deno.ts <data dir>');
const stop = await serveContractApp(dir, serve);
Deno.addSignalListener('SIGTERM', async () => {
  await stop();
  Deno.exit(0);
});
