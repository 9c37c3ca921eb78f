import { defineProject, mergeConfig } from 'vitest/config';
import { sharedProject } from '../../vitest.shared.js';

export default mergeConfig(
  sharedProject,
  defineProject({
    // Every test file starts its own instance (the `test` fixture); the matchers come from the setup entry.
    test: { name: 'grpc-client', include: ['src/**/*.test.ts'], setupFiles: ['@mockpoint/vitest/setup'] },
  }),
);
