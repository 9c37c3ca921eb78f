import { defineProject, mergeConfig } from 'vitest/config';
import { sharedProject } from '../../vitest.shared.js';

export default mergeConfig(
  sharedProject,
  defineProject({
    // GitHub's description is 13 MB of JSON with 1,000+ operations: its import takes tens of seconds on a busy machine.
    test: { name: 'openapi-documents', include: ['test/**/*.test.ts'], testTimeout: 180_000 },
  }),
);
