import { describe, expect, it } from 'vitest';
import { stripeEventTypes, subscribes } from './events.js';

const intent = (status: string, error: unknown = null) => ({
  object: 'payment_intent',
  status,
  last_payment_error: error,
});

const T0 = 1_700_000_000;
const DAY = 86_400;
/** A subscription made at T0 whose trial ends `length` seconds later. */
const trial = (status: string, length: number) => ({
  object: 'subscription',
  status,
  created: T0,
  trial_end: T0 + length,
});

describe("Stripe's events of a change", () => {
  it.each([
    [{ kind: 'created', object: { object: 'customer' } }, ['customer.created']],
    [{ kind: 'deleted', object: { object: 'customer' } }, ['customer.deleted']],
    [{ kind: 'created', object: { object: 'subscription' } }, ['customer.subscription.created']],
    [{ kind: 'created', object: { object: 'checkout.session' } }, []],
    [{ kind: 'created', object: intent('requires_payment_method') }, ['payment_intent.created']],
    [
      { kind: 'created', object: intent('succeeded') },
      // `charge.succeeded` is the Charge's own event, written beside the intent.
      ['payment_intent.created', 'payment_intent.succeeded'],
    ],
    [
      {
        kind: 'action',
        object: intent('requires_payment_method', { code: 'card_declined' }),
        before: 'requires_payment_method',
      },
      ['payment_intent.payment_failed'],
    ],
    [
      { kind: 'action', object: intent('requires_action'), before: 'requires_payment_method' },
      ['payment_intent.requires_action'],
    ],
    [{ kind: 'action', object: intent('canceled'), before: 'requires_payment_method' }, ['payment_intent.canceled']],
    [{ kind: 'created', object: { object: 'webhook_endpoint' } }, []],
    // A trial ending within 3 days says so at once; a longer one when a clock's advance reaches it.
    [
      { kind: 'created', object: trial('trialing', DAY * 3) },
      ['customer.subscription.created', 'customer.subscription.trial_will_end'],
    ],
    [{ kind: 'created', object: trial('trialing', DAY * 7) }, ['customer.subscription.created']],
    [
      { kind: 'updated', object: trial('paused', 0), previous: { status: 'trialing', trial_end: T0 + DAY * 7 } },
      ['customer.subscription.updated', 'customer.subscription.trial_will_end', 'customer.subscription.paused'],
    ],
    // A trial that ended at its time (a renewal) moved its status, not its `trial_end`.
    [
      { kind: 'updated', object: trial('active', DAY * 7), previous: { status: 'trialing' } },
      ['customer.subscription.updated'],
    ],
  ] as const)('%j emits %j', (change, types) => {
    expect(stripeEventTypes({ template: '/v1/x', ...change } as Parameters<typeof stripeEventTypes>[0])).toEqual(types);
  });

  it('sends to an enabled endpoint that takes the type or every type', () => {
    const endpoint = { url: 'http://127.0.0.1:1/', secret: 'whsec_x', status: 'enabled' };
    expect(subscribes({ ...endpoint, enabled_events: ['*'] }, 'customer.created')).toBe(true);
    expect(subscribes({ ...endpoint, enabled_events: ['charge.succeeded'] }, 'customer.created')).toBe(false);
    expect(subscribes({ ...endpoint, status: 'disabled', enabled_events: ['*'] }, 'customer.created')).toBe(false);
  });
});
