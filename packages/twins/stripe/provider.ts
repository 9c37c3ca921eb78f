/**
 * Stripe as one provider object (twin-provider.ts): its flows, `mockpoint trigger`'s fixtures for
 * the events `stripe trigger` offers, and its receivers' `whsec_` secrets.
 *
 * @module
 */

import type { TwinProvider } from '@mockpoint/core/internal';
import { STRIPE } from './fixtures.js';
import { stripeFlows } from './flows.js';

export const stripeProvider: TwinProvider = {
  name: 'stripe',
  title: 'Stripe',
  flows: stripeFlows,
  fixtures: STRIPE,
  event: 'payment_intent.succeeded',
  secretPrefix: 'whsec_',
};
