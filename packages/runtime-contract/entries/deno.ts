/**
 * What the contract runs on Deno: `deno run <permissions> entries/deno.ts <data dir>`.
 * The documented Deno entry with the LevelDB store, plus a test-only route that
 * counts the long-poll waiters of one name (for the hang-up check).
 */
import { serve } from '@mockpoint/core/deno';
import { LevelStore } from '@mockpoint/core/level';

declare const Deno: {
  args: string[];
  addSignalListener(signal: 'SIGTERM', handler: () => void): void;
  exit(code: number): never;
};

const dir = Deno.args[0];
if (dir === undefined) throw new Error('usage: deno run … entries/deno.ts <data dir>');
const server = serve({ port: 0, hostname: '127.0.0.1', store: await LevelStore.open({ dir }) });
server.app.get('/__contract/waiters/:name', (c) =>
  c.json(server.app.mockpoint.journal.waitersFor(c.req.param('name'))),
);
console.log(`mockpoint listening on ${server.url} (store: level)`);
Deno.addSignalListener('SIGTERM', () => void server.close().then(() => Deno.exit(0)));
