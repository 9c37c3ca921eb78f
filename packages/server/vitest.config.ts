import { defineProject, mergeConfig } from 'vitest/config';
import { CLONE_CHANGING, SERVER_BROWSER_TESTS, sharedProject } from '../../vitest.shared.js';

export default mergeConfig(
  sharedProject,
  defineProject({
    test: {
      name: 'server',
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      // The files that change the clone run in the root config's `clone` project instead, the
      // browser files in `server-web` (vitest.web.config.ts).
      exclude: [...CLONE_CHANGING.map((path) => `../../${path}`), ...SERVER_BROWSER_TESTS],
    },
  }),
);
