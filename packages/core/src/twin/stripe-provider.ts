/**
 * Stripe as one provider object (twin-provider.ts): its flows, `mockpoint trigger`'s fixtures for
 * the events `stripe trigger` offers, and its receivers' `whsec_` secrets.
 *
 * @module
 */
import { STRIPE } from './stripe-fixtures.js';
import { stripeFlows } from './stripe-flows.js';
import type { TwinProvider } from './twin-provider.js';

export const stripeProvider: TwinProvider = {
  name: 'stripe',
  title: 'Stripe',
  flows: stripeFlows,
  fixtures: STRIPE,
  event: 'payment_intent.succeeded',
  secretPrefix: 'whsec_',
};
