import { availableParallelism } from 'node:os';
import { defineConfig, defineProject, mergeConfig } from 'vitest/config';
import { SlowFirstSequencer } from './scripts/vitest-sequencer.js';
import { CLONE_CHANGING, QUIET_PROBES, sharedProject } from './vitest.shared.js';

export default defineConfig({
  test: {
    // One project per package and per example, and the repo's scripts; each has its own vitest.config.ts.
    // server-bun: the daemon's tests again with the daemon run by Bun (docs/runtimes.md).
    // server-web: the server's browser files, one Chromium per worker (packages/server/vitest.web.config.ts).
    // server-unit: the server's in-process files that start nothing, without isolation (vitest.unit.config.ts).
    // quiet: the files that bound the daemon's responsiveness under their own heavy work, one at a time
    // after the rest (vitest.shared.ts); clone: the files that change the clone the others run from,
    // alone and last (vitest.shared.ts).
    projects: [
      'packages/*',
      'packages/server/vitest.bun.config.ts',
      'packages/server/vitest.web.config.ts',
      'packages/server/vitest.unit.config.ts',
      'examples/*',
      'scripts',
      mergeConfig(
        sharedProject,
        defineProject({
          test: {
            name: 'quiet',
            root: import.meta.dirname,
            include: QUIET_PROBES,
            // import-whole imports GitHub's 13 MB description (openapi-documents' own timeout).
            testTimeout: 180_000,
            maxWorkers: 1,
            sequence: { groupOrder: 1 },
          },
        }),
      ),
      mergeConfig(
        sharedProject,
        defineProject({
          test: {
            name: 'clone',
            root: import.meta.dirname,
            include: CLONE_CHANGING,
            maxWorkers: 1,
            sequence: { groupOrder: 2 },
          },
        }),
      ),
    ],
    // Test files at once. Vitest's own default is one less than the cores: one file at a time on a
    // 2-core machine, where a file mostly waits (a daemon starting, an answer due, a long-poll, a
    // child tsc) and one core stood idle. Three at a time there (docs/development.md#the-tests-time).
    maxWorkers: Math.max(3, availableParallelism() - 1),
    // The known slow files first, longest first, and `clone` still last (scripts/vitest-sequencer.ts):
    // a fresh clone has no results cache, and Vitest's own order left a long file for the end.
    sequence: { sequencer: SlowFirstSequencer },
    // The second prints the "Runtimes" table of docs/runtimes.md after runs that include the runtime contract.
    reporters: ['default', './packages/runtime-contract/table-reporter.ts'],
  },
});
