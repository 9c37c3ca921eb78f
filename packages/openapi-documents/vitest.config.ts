import { defineProject, mergeConfig } from 'vitest/config';
import { QUIET_PROBES, sharedProject } from '../../vitest.shared.js';

export default mergeConfig(
  sharedProject,
  defineProject({
    // GitHub's description is 13 MB of JSON with 1,000+ operations: its import takes tens of seconds on a busy machine.
    test: {
      name: 'openapi-documents',
      include: ['test/**/*.test.ts'],
      // import-whole's apply bounds the daemon's health: it runs in the root config's `quiet` project.
      exclude: QUIET_PROBES.map((path) => `../../${path}`),
      testTimeout: 180_000,
    },
  }),
);
