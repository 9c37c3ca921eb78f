import { defineProject, mergeConfig } from 'vitest/config';
import { sharedProject } from '../../vitest.shared.js';

export default mergeConfig(
  sharedProject,
  defineProject({
    // One instance for the file (useMockServer); the matchers come from the setup entry.
    test: { name: 'openai-stream', include: ['src/**/*.test.ts'], setupFiles: ['@mockpoint/vitest/setup'] },
  }),
);
