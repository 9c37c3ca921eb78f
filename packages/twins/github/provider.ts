/**
 * GitHub as one provider object (twin-provider.ts): its flows and `mockpoint trigger`'s fixtures
 * for its common webhook events.
 *
 * @module
 */

import type { TwinProvider } from '@mockpoint/core/internal';
import { GITHUB } from './fixtures.js';
import { githubFlows } from './flows.js';

export const githubProvider: TwinProvider = {
  name: 'github',
  title: 'GitHub',
  flows: githubFlows,
  fixtures: GITHUB,
  event: 'issues.opened',
};
