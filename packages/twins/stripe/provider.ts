/**
 * Stripe as one provider object (twin-provider.ts): its flows, `mockpoint trigger`'s fixtures for
 * the events `stripe trigger` offers, and its receivers' `whsec_` secrets.
 *
 * @module
 */

import type { ProviderTrigger, TwinProvider } from '@mockpoint/core/internal';
import { STRIPE } from './fixtures.js';
import { stripeFlows } from './flows.js';

/** A fixture's steps name the objects made before them by kind (`{customer}`, `{price}`). */
const trigger: ProviderTrigger = {
  answered: (value) => {
    // A declined card answers its error with the intent in it.
    const error = value.error as Record<string, unknown> | undefined;
    const object = (error?.payment_intent ?? value) as Record<string, unknown>;
    const named = typeof object.object === 'string' && typeof object.id === 'string';
    return { object, ...(named ? { words: { [object.object as string]: object.id as string } } : {}) };
  },
};

export const stripeProvider: TwinProvider = {
  name: 'stripe',
  title: 'Stripe',
  flows: stripeFlows,
  fixtures: STRIPE,
  event: 'payment_intent.succeeded',
  secretPrefix: 'whsec_',
  trigger,
};
