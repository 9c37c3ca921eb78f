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
 * (the `clone` project of vitest.config.ts, after `quiet`; the other test files run three at a time):
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
 * Test files whose bound is the daemon's responsiveness under heavy work of their own (the slowest
 * /api/health answer under 1 s while a big import, a fan-out, a flood of sockets or an amplified
 * query runs): they run one at a time after the rest, before `clone` (the `quiet` project of
 * vitest.config.ts), so their second is measured on a machine their own work loads, not on one
 * three other files already hold (stop 75's CI run saw 1,090 ms there while the same apply alone
 * takes 200-400 ms). A stall these tests catch takes seconds (4-54 s in the issues that added them).
 * The fuzz files keep running with the rest, on the fuzz bound (5 s, test/helpers/watch-health.ts).
 * Paths from the repo's root; the projects they live in leave them out.
 */
export const QUIET_PROBES = [
  'packages/openapi-documents/test/import-whole.test.ts',
  'packages/server/test/base64-bodies.test.ts',
  'packages/server/test/collections-amplify.test.ts',
  'packages/server/test/graphql-amplify.test.ts',
  'packages/server/test/grpc-amplify.test.ts',
  'packages/server/test/mcp-bounds.test.ts',
  'packages/server/test/mcp-import-responsive.test.ts',
  // Not a health bound: V8's young generation at start and under a load, which the phase of the
  // scavenges decides, and three files at a time moved (8 MB after the load, where it grows to 32).
  'packages/server/test/start-footprint.test.ts',
  'packages/server/test/twin-bounds.test.ts',
  'packages/server/test/twin-budget.test.ts',
  'packages/server/test/twin-document.test.ts',
  'packages/server/test/twin-stripe-bounds.test.ts',
  'packages/server/test/twin-write-flood.test.ts',
  'packages/server/test/verify-responsive.test.ts',
  'packages/server/test/websocket-limits.test.ts',
  // Not a health bound: a child Vitest of every docs test file, bounded at 280 s, that takes 22 s
  // alone and took 204 s (stop 75's CI) to past 280 s (a loaded run here) three files at a time.
  'packages/vitest-plugin/test/doc-snippets.test.ts',
];

/**
 * The server's test files that drive Chromium, from packages/server: they run in the `server-web`
 * project (packages/server/vitest.web.config.ts), whose workers each keep one browser for all their
 * files (test/web-support.ts), and the `server` project leaves them out.
 */
export const SERVER_BROWSER_TESTS = ['test/web-*.test.ts', 'test/har.test.ts', 'test/session-carry-e2e.test.ts'];

/**
 * The server's test files that run in process and start nothing (no daemon, no browser, no child
 * process) and leave nothing global behind: they run in the `server-unit` project
 * (packages/server/vitest.unit.config.ts) without isolation, so that a worker imports the server's
 * and the core's sources once rather than once a file (alone, errors.test.ts took 21 s, 19.5 s of
 * it import), and the `server` project leaves them out. A file joins only if it changes no global
 * (process.env, fake timers, mocks, listeners) or restores it in its own hooks.
 */
export const SERVER_UNIT_TESTS = [
  'src/commands/tail-forward.test.ts',
  'src/mcp/text-imports.test.ts',
  'src/mock-file/watch-mock-file.test.ts',
  'src/openapi/import-work.test.ts',
  'src/openapi/load-openapi.test.ts',
  'test/config.test.ts',
  'test/docs.test.ts',
  'test/errors.test.ts',
  'test/openapi-request-schemas.test.ts',
  'test/openapi-skipped.test.ts',
  'test/session-carry-frameworks.test.ts',
  'test/twin-third-provider.test.ts',
  'test/verify-junit.test.ts',
];
