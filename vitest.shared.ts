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

/**
 * Test files that change the clone every other test runs from, so they run alone, after the rest
 * (the `clone` project of vitest.config.ts; the other test files run three at a time):
 * start.test.ts deletes the server's build stamp and lets `pnpm start` rebuild its dist/,
 * pack-packages.test.ts rewrites the install stamp and checks that dist/ and node_modules/ do not
 * change meanwhile, installed-package.test.ts packs the packages, whose prepack rewrites each dist/types/.
 * Paths from the repo's root; the projects they live in leave them out.
 */
export const CLONE_CHANGING = [
  'scripts/start.test.ts',
  'scripts/pack-packages.test.ts',
  'packages/server/test/installed-package.test.ts',
];

/**
 * The server's test files that drive Chromium, from packages/server: they run in the `server-web`
 * project (packages/server/vitest.web.config.ts), whose workers each keep one browser for all their
 * files (test/web-support.ts), and the `server` project leaves them out.
 */
export const SERVER_BROWSER_TESTS = ['test/web-*.test.ts', 'test/har.test.ts', 'test/session-carry-e2e.test.ts'];
