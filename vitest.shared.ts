// Shared settings for every vitest project in the repo: workspace packages resolve
// to their TypeScript sources (the `@mockpoint/source` export condition), so unit
// tests never need a build. Tests that spawn the daemon use the built dist.
import { defineProject } from 'vitest/config';

export const sharedProject = defineProject({
  ssr: { resolve: { conditions: ['@mockpoint/source'] } },
  test: {
    exclude: ['**/node_modules/**', '**/dist/**', '**/*.case.test.ts', '**/fixtures/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
