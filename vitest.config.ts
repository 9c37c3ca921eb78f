import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // One project per package and per example, and the repo's scripts; each has its own vitest.config.ts.
    // server-bun: the daemon's tests again with the daemon run by Bun (docs/runtimes.md).
    projects: ['packages/*', 'packages/server/vitest.bun.config.ts', 'examples/*', 'scripts'],
    // Test files at once. Vitest's own default is one less than the cores: one file at a time on a
    // 2-core machine, where a file mostly waits (a daemon starting, an answer due, a long-poll, a
    // child tsc) and one core stood idle. Three at a time there (docs/development.md#the-tests-time).
    maxWorkers: Math.max(3, availableParallelism() - 1),
    // The second prints the "Runtimes" table of docs/runtimes.md after runs that include the runtime contract.
    reporters: ['default', './packages/runtime-contract/table-reporter.ts'],
  },
});
