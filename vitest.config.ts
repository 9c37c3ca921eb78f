import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // One project per package and per example, and the repo's scripts; each has its own vitest.config.ts.
    projects: ['packages/*', 'examples/*', 'scripts'],
    // The second prints the "Runtimes" table of docs/runtimes.md after runs that include the runtime contract.
    reporters: ['default', './packages/runtime-contract/table-reporter.ts'],
  },
});
