import { mockpoint } from '@mockpoint/vitest/plugin';
import { defineProject, mergeConfig } from 'vitest/config';
import { sharedProject } from '../../vitest.shared.js';

export default mergeConfig(
  sharedProject,
  defineProject({
    // One mockpoint instance for the whole run (inject('mockpoint')), plus the matchers.
    plugins: [mockpoint()],
    test: { name: 'webhook-sender', include: ['src/**/*.test.ts'] },
  }),
);
