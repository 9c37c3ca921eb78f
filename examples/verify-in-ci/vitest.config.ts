import { defineProject, mergeConfig } from 'vitest/config';
import { sharedProject } from '../../vitest.shared.js';

export default mergeConfig(
  sharedProject,
  defineProject({
    test: { name: 'verify-in-ci', include: ['test/**/*.test.ts'] },
  }),
);
