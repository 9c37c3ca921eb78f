import { defineProject, mergeConfig } from 'vitest/config';
import { sharedProject } from '../../vitest.shared.js';

export default mergeConfig(
  sharedProject,
  defineProject({
    // No plugin here: every test file starts its own instance (the `test` fixture or
    // useMockServer()); the matchers come from the setup entry.
    test: { name: 'api-client', include: ['src/**/*.test.ts'], setupFiles: ['@mockpoint/vitest/setup'] },
  }),
);
