/**
 * What the Bun and Deno contract entries serve alike: the documented entry
 * with the LevelDB store in `dir` and GraphQL in a worker thread, plus a
 * test-only route that counts the long-poll waiters of one name (for the
 * hang-up check), and one that counts the protobuf modules loaded (for the lazy-loading
 * check). Each entry brings its runtime's `serve` and signal handling.
 */
import { createRequire } from 'node:module';
import { createApp, type MockpointApp } from '@mockpoint/core';
import { LevelStore } from '@mockpoint/core/level';
import { graphqlWorker } from '@mockpoint/core/threads';

/** The part of a runtime entry's served app used here. */
interface Served {
  readonly url: string;
  close(options: { graceMs: number }): Promise<void>;
}

/** Serves the contract app with `serve` on a free port and prints its URL; resolves to what stops it all. */
export async function serveContractApp(
  dir: string,
  serve: (app: MockpointApp, options: { port: number }) => Served,
): Promise<() => Promise<void>> {
  const store = await LevelStore.open({ dir });
  // GraphQL schemas built and answered in a worker thread, as the daemon does.
  const graphqlRunner = graphqlWorker();
  const app = createApp({ store, graphqlRunner });
  app.get('/__contract/waiters/:name', (c) => c.json(app.mockpoint.journal.waitersFor(c.req.param('name'))));
  // How many modules of the protobuf libraries the runtime has loaded: Bun's and Deno's module
  // cache lists them (Bun every module, Deno the CommonJS ones, such as protobufjs).
  const modules = createRequire(import.meta.url).cache;
  app.get('/__contract/protobuf-modules', (c) =>
    c.json(Object.keys(modules).filter((file) => /protobufjs|@bufbuild|@connectrpc/.test(file)).length),
  );
  const served = serve(app, { port: 0 });
  console.log(`mockpoint listening on ${served.url} (store: level)`);
  return async () => {
    await served.close({ graceMs: 5000 });
    await graphqlRunner.close();
    await store.close();
  };
}
