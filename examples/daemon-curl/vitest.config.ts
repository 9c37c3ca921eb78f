import { defineProject, mergeConfig } from 'vitest/config';
import { sharedProject } from '../../vitest.shared.js';

export default mergeConfig(
  sharedProject,
  defineProject({
    test: { name: 'daemon-curl', include: ['test/**/*.test.ts'] },
  }),
);
