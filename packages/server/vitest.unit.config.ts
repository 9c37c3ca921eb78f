// The server's in-process test files that start nothing (SERVER_UNIT_TESTS): a worker runs file after
// file without starting a new process (isolate: false), so it imports the server's and the core's
// sources once rather than once a file, as core's own project does.
import { defineProject, mergeConfig } from 'vitest/config';
import { SERVER_UNIT_TESTS, sharedProject } from '../../vitest.shared.js';

export default mergeConfig(
  sharedProject,
  defineProject({
    test: {
      name: 'server-unit',
      root: import.meta.dirname,
      include: SERVER_UNIT_TESTS,
      isolate: false,
    },
  }),
);
