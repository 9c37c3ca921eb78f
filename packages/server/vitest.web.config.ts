// The server's test files that drive Chromium (SERVER_BROWSER_TESTS): a worker runs file after file
// without starting a new process (isolate: false), so it launches one Chromium for all of them rather
// than one per file (~1.2 s of CPU each), and imports the in-process daemon once. Each file still
// gets fresh browser contexts, closed after it (test/web-support.ts), and restores what it changes.
import { defineProject, mergeConfig } from 'vitest/config';
import { SERVER_BROWSER_TESTS, sharedProject } from '../../vitest.shared.js';

export default mergeConfig(
  sharedProject,
  defineProject({
    test: {
      name: 'server-web',
      root: import.meta.dirname,
      include: SERVER_BROWSER_TESTS,
      isolate: false,
    },
  }),
);
