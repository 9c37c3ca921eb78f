/**
 * The runtime contract on every runtime, all at once: each runtime starts in its
 * own suite, then every check runs concurrently against it (so the 15 s hold and
 * the 12 s delay overlap the rest). Suites are named `<id>: <label> — <entry>`
 * and tests by check title: the "Runtimes" table of docs/runtimes.md is made from them
 * (see ../table-reporter.ts).
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { CHECKS, SHUTDOWN } from '../src/contract.js';
import { GRPC_LAZY } from '../src/grpc-contract.js';
import { RUNTIMES, type Running } from '../src/runtimes.js';

describe.concurrent('runtime contract', () => {
  for (const runtime of RUNTIMES) {
    describe(`${runtime.id}: ${runtime.label} — ${runtime.entry}`, () => {
      let running: Running | undefined;
      beforeAll(async () => {
        running = await runtime.start();
      });
      afterAll(async () => {
        await running?.stop();
      });

      for (const check of CHECKS) {
        // The hang-up check needs to see the waiters; the daemon has no such route.
        if (check.probe && runtime.id === 'node') continue;
        // What only a Fetch-API runtime does: the daemon answers native gRPC itself.
        if (check.fetchOnly && runtime.id === 'node') continue;
        it(check.title, async () => {
          if (running === undefined) throw new Error(`${runtime.label} did not start`);
          await check.run(running);
        });
      }

      // Lazy loading needs an instance that nothing has put definitions to; only where the
      // entry can count the modules loaded (the daemon's: lazy-modules.test.ts in the server).
      if (runtime.countsModules) {
        it(GRPC_LAZY.title, async () => {
          const fresh = await runtime.start();
          try {
            await GRPC_LAZY.run(fresh);
          } finally {
            await fresh.stop();
          }
        });
      }

      // Closing ends the runtime: this check gets an instance of its own.
      it(SHUTDOWN.title, async () => {
        const closing = await runtime.start();
        let stopped = false;
        try {
          await SHUTDOWN.run(closing, async () => {
            stopped = true;
            await closing.stop();
          });
        } finally {
          if (!stopped) await closing.stop().catch(() => undefined);
        }
      });
    });
  }
});
