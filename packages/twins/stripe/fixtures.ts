/**
 * Stripe's fixtures for `mockpoint trigger` (twin-fixtures.ts): the calls `stripe trigger` makes
 * for each event, in the twin's flows.
 *
 * @module
 */
import type { FixtureStep } from '@mockpoint/core/internal';

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
/** A 7-day trial of a customer with no payment method, told to pause when it ends so, ended now. */
const paused: FixtureStep[] = [
  customer,
  product,
  price({ 'recurring[interval]': 'month' }),
  {
    method: 'POST',
    path: '/v1/subscriptions',
    body: {
      customer: '{customer}',
      'items[0][price]': '{price}',
      trial_period_days: 7,
      'trial_settings[end_behavior][missing_payment_method]': 'pause',
    },
  },
  { method: 'POST', path: '/v1/subscriptions/{id}', body: { trial_end: 'now' } },
];
/** The paused subscription's customer given a card (`pm_card_visa` attached, the subscription's default), then resumed. */
const resumed: FixtureStep[] = [
  ...paused,
  attachTo('{customer}'),
  {
    method: 'POST',
    path: '/v1/subscriptions/{subscription}',
    body: { default_payment_method: '{payment_method}' },
  },
  { method: 'POST', path: '/v1/subscriptions/{subscription}/resume' },
];
const manual = intent({ payment_method: 'pm_card_visa', confirm: true, capture_method: 'manual' });
/** `pm_card_visa` attached to the customer before it: a new `pm_` of that customer, as Stripe clones it. */
function attachTo(customer: string): FixtureStep {
  return { method: 'POST', path: '/v1/payment_methods/pm_card_visa/attach', body: { customer } };
}
const attach = attachTo('{customer}');
const tagged = { 'metadata[foo]': 'bar' };
/** A test clock at 2020-01-01 and its advance by a month, as the Stripe CLI's fixtures make them. */
const clock: FixtureStep = {
  method: 'POST',
  path: '/v1/test_helpers/test_clocks',
  body: { frozen_time: 1577836800, name: '(created by mockpoint trigger)' },
};
const advance: FixtureStep = {
  method: 'POST',
  path: '/v1/test_helpers/test_clocks/{id}/advance',
  body: { frozen_time: 1580515200 },
};
const setup = (extra: Record<string, string | boolean>): FixtureStep => ({
  method: 'POST',
  path: '/v1/setup_intents',
  body: { description: '(created by mockpoint trigger)', 'allowed_payment_method_types[0]': 'card', ...extra },
});

/** A customer's pending invoice item of $20 and a draft invoice that includes it. */
const invoiced: FixtureStep[] = [
  customer,
  {
    method: 'POST',
    path: '/v1/invoiceitems',
    body: { amount: 2000, currency: 'usd', customer: '{customer}', description: '(created by mockpoint trigger)' },
  },
  {
    method: 'POST',
    path: '/v1/invoices',
    body: {
      customer: '{customer}',
      description: '(created by mockpoint trigger)',
      pending_invoice_items_behavior: 'include',
    },
  },
];
/** The draft above finalized (open, its PaymentIntent made: invoice-actions.ts). */
const finalized: FixtureStep[] = [...invoiced, { method: 'POST', path: '/v1/invoices/{id}/finalize' }];
/** A customer's pending invoice item of $20. */
const invoiceItem: FixtureStep[] = [customer, invoiced[1] as FixtureStep];
/** A draft of a customer's invoice item sent for payment by email (`send_invoice`, due in 30 days), finalized. */
const emailed: FixtureStep[] = [
  ...invoiceItem,
  {
    method: 'POST',
    path: '/v1/invoices',
    body: {
      customer: '{customer}',
      collection_method: 'send_invoice',
      days_until_due: 30,
      pending_invoice_items_behavior: 'include',
    },
  },
  { method: 'POST', path: '/v1/invoices/{id}/finalize' },
];
/** A 25%-off coupon, once (the Stripe CLI's `coupon.created`). */
const coupon: FixtureStep = { method: 'POST', path: '/v1/coupons', body: { percent_off: 25, duration: 'once' } };
/** A monthly plan of $20 of the product just made. */
const plan: FixtureStep = {
  method: 'POST',
  path: '/v1/plans',
  body: { product: '{id}', amount: 2000, currency: 'usd', interval: 'month' },
};
/** A promotion code of the coupon just made (today's `promotion[coupon]`). */
const promotionCode: FixtureStep = {
  method: 'POST',
  path: '/v1/promotion_codes',
  body: { 'promotion[type]': 'coupon', 'promotion[coupon]': '{id}' },
};
/** A 7.25% exclusive sales tax rate. */
const taxRate: FixtureStep = {
  method: 'POST',
  path: '/v1/tax_rates',
  body: { display_name: 'Sales tax', percentage: 7.25, inclusive: false, jurisdiction: 'CA' },
};
/** A customer portal's configuration: its headline, invoices shown. */
const portal: FixtureStep = {
  method: 'POST',
  path: '/v1/billing_portal/configurations',
  body: {
    'business_profile[headline]': 'Cactus Practice partners with Stripe for simplified billing.',
    'features[invoice_history][enabled]': true,
  },
};
/** A payment that succeeds, then a payout of $11 (paid at once, payouts.ts). */
const payout: FixtureStep[] = [
  paid,
  {
    method: 'POST',
    path: '/v1/payouts',
    body: { amount: 1100, currency: 'usd', description: '(created by mockpoint trigger)' },
  },
];
/** A payment link of a new monthly price. */
const link: FixtureStep[] = [
  product,
  price({ 'recurring[interval]': 'month' }),
  { method: 'POST', path: '/v1/payment_links', body: { 'line_items[0][price]': '{id}', 'line_items[0][quantity]': 1 } },
];

/** Stripe's: the calls `stripe trigger` makes for the same event (its fixtures), in the twin's flows. */
/** A SEPA Direct Debit PaymentMethod of Stripe's test IBAN `iban` (sepa.ts), as the Stripe CLI's fixtures make one. */
const sepaMethod = (iban: string): FixtureStep => ({
  method: 'POST',
  path: '/v1/payment_methods',
  body: {
    type: 'sepa_debit',
    'sepa_debit[iban]': iban,
    'billing_details[name]': 'Jenny Rosen',
    'billing_details[email]': 'jenny.rosen@example.com',
  },
});
/** A SEPA debit of €10 by the PaymentMethod just made, confirmed with an offline mandate (the Stripe CLI's `payment_intent.processing`). */
const sepaDebit: FixtureStep = {
  method: 'POST',
  path: '/v1/payment_intents',
  body: {
    amount: 1000,
    currency: 'eur',
    'allowed_payment_method_types[0]': 'sepa_debit',
    payment_method: '{payment_method}',
    confirm: true,
    'mandate_data[customer_acceptance][type]': 'offline',
  },
};
/** A payment-mode Checkout Session in eur taking SEPA debits, completed by the payer's debit of `iban`. */
const sepaCheckout = (iban: string): FixtureStep[] => [
  product,
  {
    method: 'POST',
    path: '/v1/prices',
    body: { product: '{id}', unit_amount: 1500, currency: 'eur' },
  },
  sepaMethod(iban),
  {
    method: 'POST',
    path: '/v1/checkout/sessions',
    body: {
      mode: 'payment',
      'allowed_payment_method_types[0]': 'sepa_debit',
      'line_items[0][price]': '{price}',
      'line_items[0][quantity]': 2,
      success_url: 'https://example.com/success',
    },
  },
  {
    method: 'POST',
    path: '/v1/test_helpers/checkout/sessions/{id}/complete',
    body: { payment_method: '{payment_method}' },
  },
];

export const STRIPE: Record<string, readonly FixtureStep[]> = {
  // SEPA Direct Debit (sepa.ts): the Stripe CLI's IBAN that stays processing; one that settles; one that fails.
  'payment_intent.processing': [sepaMethod('AT321904300235473204'), sepaDebit],
  'charge.pending': [sepaMethod('AT321904300235473204'), sepaDebit],
  'checkout.session.async_payment_succeeded': sepaCheckout('AT611904300234573201'),
  'checkout.session.async_payment_failed': sepaCheckout('AT861904300235473202'),
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
  'customer.subscription.trial_will_end': [
    customer,
    product,
    price({ 'recurring[interval]': 'month' }),
    {
      method: 'POST',
      path: '/v1/subscriptions',
      body: { customer: '{customer}', 'items[0][price]': '{price}', trial_period_days: 1 },
    },
  ],
  'customer.subscription.paused': paused,
  'customer.subscription.resumed': resumed,
  'charge.dispute.created': [intent({ payment_method: 'pm_card_createDispute', confirm: true })],
  'payment_method.attached': [customer, attach],
  'payment_method.detached': [customer, attach, { method: 'POST', path: '/v1/payment_methods/{id}/detach' }],
  'payment_method.updated': [customer, attach, { method: 'POST', path: '/v1/payment_methods/{id}', body: tagged }],
  'setup_intent.created': [setup({})],
  'setup_intent.canceled': [
    setup({}),
    { method: 'POST', path: '/v1/setup_intents/{id}/cancel', body: { cancellation_reason: 'requested_by_customer' } },
  ],
  'setup_intent.setup_failed': [setup({ payment_method: 'pm_card_chargeDeclined', confirm: true })],
  'product.updated': [product, { method: 'POST', path: '/v1/products/{id}', body: tagged }],
  'product.deleted': [product, { method: 'DELETE', path: '/v1/products/{id}' }],
  'test_helpers.test_clock.created': [clock],
  'test_helpers.test_clock.advancing': [clock, advance],
  'test_helpers.test_clock.ready': [clock, advance],
  'test_helpers.test_clock.deleted': [clock, { method: 'DELETE', path: '/v1/test_helpers/test_clocks/{id}' }],
  'invoice.updated': [...invoiced, { method: 'POST', path: '/v1/invoices/{id}', body: tagged }],
  'invoice.voided': [...finalized, { method: 'POST', path: '/v1/invoices/{id}/void' }],
  'invoice.marked_uncollectible': [...finalized, { method: 'POST', path: '/v1/invoices/{id}/mark_uncollectible' }],
  'invoice.sent': [...emailed, { method: 'POST', path: '/v1/invoices/{id}/send' }],
  'invoice.deleted': [...invoiced, { method: 'DELETE', path: '/v1/invoices/{id}' }],
  // 3-D Secure asked: the `402` is the fixture's expected answer.
  'invoice.payment_action_required': [
    ...finalized,
    { method: 'POST', path: '/v1/invoices/{id}/pay', body: { payment_method: 'pm_card_authenticationRequired' } },
  ],
  'invoiceitem.created': invoiceItem,
  'invoiceitem.updated': [...invoiceItem, { method: 'POST', path: '/v1/invoiceitems/{id}', body: tagged }],
  'invoiceitem.deleted': [...invoiceItem, { method: 'DELETE', path: '/v1/invoiceitems/{id}' }],
  'payout.created': payout,
  'payout.paid': payout,
  'payout.updated': [...payout, { method: 'POST', path: '/v1/payouts/{id}', body: tagged }],
  'payment_link.created': link,
  'payment_link.updated': [
    ...link,
    { method: 'POST', path: '/v1/payment_links/{id}', body: { allow_promotion_codes: true } },
  ],
  'price.updated': [product, price({}), { method: 'POST', path: '/v1/prices/{id}', body: tagged }],
  // Objects the twin keeps as any collection: made, updated (metadata[foo]=bar) and deleted.
  'coupon.created': [coupon],
  'coupon.updated': [coupon, { method: 'POST', path: '/v1/coupons/{id}', body: tagged }],
  'coupon.deleted': [coupon, { method: 'DELETE', path: '/v1/coupons/{id}' }],
  'plan.created': [product, plan],
  'plan.updated': [product, plan, { method: 'POST', path: '/v1/plans/{id}', body: tagged }],
  'plan.deleted': [product, plan, { method: 'DELETE', path: '/v1/plans/{id}' }],
  'promotion_code.created': [coupon, promotionCode],
  'promotion_code.updated': [coupon, promotionCode, { method: 'POST', path: '/v1/promotion_codes/{id}', body: tagged }],
  'tax_rate.created': [taxRate],
  'tax_rate.updated': [taxRate, { method: 'POST', path: '/v1/tax_rates/{id}', body: tagged }],
  'billing_portal.configuration.created': [portal],
  'billing_portal.configuration.updated': [
    portal,
    { method: 'POST', path: '/v1/billing_portal/configurations/{id}', body: tagged },
  ],
};
