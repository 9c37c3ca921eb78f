import { defineProject, mergeConfig } from 'vitest/config';
import {
  CLONE_CHANGING,
  QUIET_PROBES,
  SERVER_BROWSER_TESTS,
  SERVER_UNIT_TESTS,
  sharedProject,
} from '../../vitest.shared.js';

export default mergeConfig(
  sharedProject,
  defineProject({
    test: {
      name: 'server',
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      // The files that change the clone run in the root config's `clone` project instead, the
      // responsiveness probes in its `quiet` project, the browser files in `server-web`
      // (vitest.web.config.ts), the in-process files that start nothing in `server-unit` (vitest.unit.config.ts).
      exclude: [
        ...[...CLONE_CHANGING, ...QUIET_PROBES].map((path) => `../../${path}`),
        ...SERVER_BROWSER_TESTS,
        ...SERVER_UNIT_TESTS,
      ],
    },
  }),
);
