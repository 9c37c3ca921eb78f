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
    // expect.poll's own default (1 s) is tight for a 2-core CI machine running ~300 files: a worker
    // descheduled for a second wakes to its poll timer before the I/O it waits for (timers run before
    // poll in Node's loop), and the test fails though what it waits for had already arrived.
    // A poll still fails when the condition never holds; it only waits longer before saying so.
    expect: { poll: { timeout: 10_000 } },
    // graphql 16 ships CommonJS (main) and ESM (module) side by side: Vite resolves our
    // import to the ESM one, Node resolves @graphql-tools' to the CommonJS one, and graphql
    // refuses a schema "from another module or realm". Inlined, they resolve as ours do.
    server: { deps: { inline: [/@graphql-tools\//] } },
  },
});
