import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // One project per package and per example, and the repo's scripts; each has its own vitest.config.ts.
    projects: ['packages/*', 'examples/*', 'scripts'],
  },
});
