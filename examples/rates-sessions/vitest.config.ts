import { mockpoint } from '@mockpoint/vitest/plugin';
import { defineProject, mergeConfig } from 'vitest/config';
import { sharedProject } from '../../vitest.shared.js';

export default mergeConfig(
  sharedProject,
  defineProject({
    plugins: [
      mockpoint({
        // One instance for the run, a namespace per test (docs/sessions.md).
        sessions: true,
        // The converter's fixed origin reaches endpoint `rates` of the current test's session.
        server: { hosts: { 'rates.example.com': 'rates' } },
        intercept: ['https://rates.example.com'],
        interceptUnmatched: 'error',
      }),
    ],
    test: { name: 'rates-sessions', include: ['src/**/*.test.ts'] },
  }),
);
