import { defineProject, mergeConfig } from 'vitest/config';
import { CLONE_CHANGING, sharedProject } from '../vitest.shared.js';

export default mergeConfig(
  sharedProject,
  defineProject({
    // The files that change the clone run in the root config's `clone` project instead.
    test: { name: 'scripts', include: ['*.test.ts'], exclude: CLONE_CHANGING.map((path) => `../${path}`) },
  }),
);
