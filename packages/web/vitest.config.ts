import { defineProject, mergeConfig } from 'vitest/config';
import { sharedProject } from '../../vitest.shared.js';

export default mergeConfig(
  sharedProject,
  defineProject({
    test: { name: 'web', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
  }),
);
