import { mockpoint } from '@mockpoint/vitest/plugin';
import { defineProject, mergeConfig } from 'vitest/config';
import { sharedProject } from '../../vitest.shared.js';

export default mergeConfig(
  sharedProject,
  defineProject({
    plugins: [
      mockpoint({
        // One instance for the run, a namespace per test (docs/sessions.md): each test its own Stripe.
        sessions: true,
        // stripe-node's fixed https://api.stripe.com reaches endpoint `stripe` of the current test's session.
        server: { hosts: { 'api.stripe.com': 'stripe' } },
        intercept: ['https://api.stripe.com'],
        interceptUnmatched: 'error',
      }),
    ],
    test: { name: 'stripe-checkout-webhook', include: ['src/**/*.test.ts'] },
  }),
);
