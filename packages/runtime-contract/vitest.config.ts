import { defineProject, mergeConfig } from 'vitest/config';
import { sharedProject } from '../../vitest.shared.js';

export default mergeConfig(
  sharedProject,
  defineProject({
    test: {
      name: 'runtime-contract',
      include: ['test/**/*.test.ts'],
      // Every check of every runtime runs at once, so the 15 s hold and the 12 s
      // delay overlap the rest instead of adding up.
      maxConcurrency: 100,
      testTimeout: 120_000,
      hookTimeout: 90_000,
    },
  }),
);
