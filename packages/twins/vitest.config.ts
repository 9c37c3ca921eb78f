import { defineProject, mergeConfig } from 'vitest/config';
import { sharedProject } from '../../vitest.shared.js';

export default mergeConfig(
  sharedProject,
  defineProject({
    test: {
      name: 'twins',
      // Each provider's tests beside its code (stripe/, github/), and the package's own.
      include: ['*/**/*.test.ts'],
      exclude: ['node_modules/**', 'dist/**'],
    },
  }),
);
