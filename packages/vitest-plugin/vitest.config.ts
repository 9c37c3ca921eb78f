import { defineProject, mergeConfig } from 'vitest/config';
import { QUIET_PROBES, sharedProject } from '../../vitest.shared.js';

export default mergeConfig(
  sharedProject,
  defineProject({
    test: {
      name: 'vitest-plugin',
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      // doc-snippets runs in the root's `quiet` project (vitest.shared.ts).
      exclude: QUIET_PROBES.map((path) => `../../${path}`),
    },
  }),
);
