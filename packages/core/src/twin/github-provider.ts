/**
 * GitHub as one provider object (twin-provider.ts): its flows and `mockpoint trigger`'s fixtures
 * for its common webhook events.
 *
 * @module
 */
import { GITHUB } from './github-fixtures.js';
import { githubFlows } from './github-flows.js';
import type { TwinProvider } from './twin-provider.js';

export const githubProvider: TwinProvider = {
  name: 'github',
  title: 'GitHub',
  flows: githubFlows,
  fixtures: GITHUB,
  event: 'issues.opened',
};
