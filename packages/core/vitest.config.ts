import { defineProject, mergeConfig } from 'vitest/config';
import { sharedProject } from '../../vitest.shared.js';

export default mergeConfig(
  sharedProject,
  defineProject({
    test: {
      name: 'core',
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      // Core's files are in-process unit tests: a worker runs file after file without starting a new
      // process and importing the engine again for each one (about half the CPU time and the wall
      // time of the project, docs/development.md#the-tests-time). So a test leaves no global state
      // behind: it restores what it changes (fake timers, process.env, globals) in its own hooks.
      isolate: false,
      // …and the fetch globals an adapter may have swapped are put back before each file.
      setupFiles: ['./vitest.setup.ts'],
    },
  }),
);
