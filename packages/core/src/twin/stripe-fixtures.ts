/**
 * Stripe's fixtures for `mockpoint trigger` (twin-fixtures.ts): the calls `stripe trigger` makes
 * for each event, in the twin's flows.
 *
 * @module
 */
import type { FixtureStep } from './twin-fixtures.js';

const customer = {
  method: 'POST',
  path: '/v1/customers',
  body: { name: 'Jenny Rosen', email: 'jenny.rosen@example.com' },
} as const;
const intent = (extra: Record<string, string | boolean>): FixtureStep => ({
  method: 'POST',
  path: '/v1/payment_intents',
  body: { amount: 2000, currency: 'usd', description: '(created by mockpoint trigger)', ...extra },
});
const paid = intent({ payment_method: 'pm_card_visa', confirm: true });
const declined = intent({ payment_method: 'pm_card_chargeDeclined', confirm: true });
const product = { method: 'POST', path: '/v1/products', body: { name: 'myproduct' } } as const;
const price = (extra: Record<string, string>): FixtureStep => ({
  method: 'POST',
  path: '/v1/prices',
  body: { product: '{id}', unit_amount: 1500, currency: 'usd', ...extra },
});
const session = (mode: 'payment' | 'subscription'): FixtureStep => ({
  method: 'POST',
  path: '/v1/checkout/sessions',
  body: {
    mode,
    'line_items[0][price]': '{id}',
    'line_items[0][quantity]': 1,
    success_url: 'https://example.com/success',
  },
});
/** A Checkout Session of a new price, completed through the twin's test helper (its payment, or its subscription's first invoice). */
const checkout = (mode: 'payment' | 'subscription', recurring: Record<string, string>): FixtureStep[] => [
  product,
  price(recurring),
  session(mode),
  { method: 'POST', path: '/v1/test_helpers/checkout/sessions/{id}/complete' },
];

/** A customer, a monthly price and their subscription, its first invoice charged to `method`. */
const subscription = (method: string): FixtureStep[] => [
  customer,
  product,
  price({ 'recurring[interval]': 'month' }),
  {
    method: 'POST',
    path: '/v1/subscriptions',
    body: { customer: '{customer}', 'items[0][price]': '{price}', default_payment_method: method },
  },
];
const subscribed = subscription('pm_card_visa');
const manual = intent({ payment_method: 'pm_card_visa', confirm: true, capture_method: 'manual' });

/** Stripe's: the calls `stripe trigger` makes for the same event (its fixtures), in the twin's flows. */
export const STRIPE: Record<string, readonly FixtureStep[]> = {
  'customer.created': [customer],
  'customer.updated': [customer, { method: 'POST', path: '/v1/customers/{id}', body: { description: 'updated' } }],
  'customer.deleted': [customer, { method: 'DELETE', path: '/v1/customers/{id}' }],
  'payment_intent.created': [intent({})],
  'payment_intent.succeeded': [paid],
  'charge.succeeded': [paid],
  'payment_intent.payment_failed': [declined],
  'charge.failed': [declined],
  'payment_intent.requires_action': [intent({ payment_method: 'pm_card_authenticationRequired', confirm: true })],
  'payment_intent.amount_capturable_updated': [manual],
  'charge.captured': [manual, { method: 'POST', path: '/v1/payment_intents/{id}/capture' }],
  'setup_intent.succeeded': [
    customer,
    {
      method: 'POST',
      path: '/v1/setup_intents',
      body: { customer: '{id}', payment_method: 'pm_card_visa', confirm: true },
    },
  ],
  'payment_intent.canceled': [intent({}), { method: 'POST', path: '/v1/payment_intents/{id}/cancel' }],
  'product.created': [product],
  'price.created': [product, price({})],
  'checkout.session.completed': checkout('payment', {}),
  'checkout.session.expired': [
    product,
    price({}),
    session('payment'),
    { method: 'POST', path: '/v1/checkout/sessions/{id}/expire' },
  ],
  'customer.subscription.created': checkout('subscription', { 'recurring[interval]': 'month' }),
  'invoice.created': checkout('subscription', { 'recurring[interval]': 'month' }),
  'invoice.finalized': checkout('subscription', { 'recurring[interval]': 'month' }),
  'invoice.paid': checkout('subscription', { 'recurring[interval]': 'month' }),
  'invoice.payment_succeeded': checkout('subscription', { 'recurring[interval]': 'month' }),
  'customer.subscription.updated': [
    ...subscribed,
    { method: 'POST', path: '/v1/subscriptions/{id}', body: { cancel_at_period_end: true } },
  ],
  'customer.subscription.deleted': [...subscribed, { method: 'DELETE', path: '/v1/subscriptions/{id}' }],
  'invoice.payment_failed': subscription('pm_card_chargeDeclined'),
  'charge.refunded': [paid, { method: 'POST', path: '/v1/refunds', body: { payment_intent: '{id}' } }],
  'refund.created': [paid, { method: 'POST', path: '/v1/refunds', body: { payment_intent: '{id}' } }],
};
