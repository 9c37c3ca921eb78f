// The daemon's own tests with the daemon run by Bun (`bun dist/cli.js`, serving with
// Bun.serve): the test files that start it as a process (helpers/daemon.ts reads
// MOCKPOINT_TEST_RUNTIME). Which files, and why the others are not here: docs/runtimes.md.
import { defineProject, mergeConfig } from 'vitest/config';
import { sharedProject } from '../../vitest.shared.js';

export default mergeConfig(
  sharedProject,
  defineProject({
    test: {
      name: 'server-bun',
      root: import.meta.dirname,
      include: [
        'test/daemon.test.ts',
        'test/allowed-hosts.test.ts',
        'test/api-transfer.test.ts',
        'test/cli-usage.test.ts',
        'test/collections.test.ts',
        'test/exact-data.test.ts',
        'test/hangup.test.ts',
        'test/serve-endpoint.test.ts',
      ],
      env: { MOCKPOINT_TEST_RUNTIME: 'bun' },
    },
  }),
);
