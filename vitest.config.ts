import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // One project per package and per example, and the repo's scripts; each has its own vitest.config.ts.
    // server-bun: the daemon's tests again with the daemon run by Bun (docs/runtimes.md).
    projects: ['packages/*', 'packages/server/vitest.bun.config.ts', 'examples/*', 'scripts'],
    // The second prints the "Runtimes" table of docs/runtimes.md after runs that include the runtime contract.
    reporters: ['default', './packages/runtime-contract/table-reporter.ts'],
  },
});
