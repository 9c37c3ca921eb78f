/**
 * Stripe Checkout Sessions as test mode behaves: created `open` (`unpaid`,
 * a `url`, totals from the line items' prices), completed by the twin's test
 * helper `POST /v1/test_helpers/checkout/sessions/{session}/complete` as a
 * customer paying with a test card would (a `payment` session's
 * PaymentIntent succeeds; a `subscription` session starts its Subscription
 * with its first invoice paid) → `complete`, `paid`,
 * `checkout.session.completed` after the payment's events; expired
 * (`…/expire`) → `checkout.session.expired`.
 *
 * @module
 */

import type { ActionOutcome, FlowError, FlowKit } from '@mockpoint/core/internal';
import { record } from '../src/records.js';
import { mismatchOf, subscribe } from './billing.js';
import { madeIntent, writePaidIntent } from './charges.js';
import { onOwnPage, SESSION_BILLING_MODE, uiModeOf } from './checkout-ui.js';
import { openBook } from './customer-books.js';
import { declineOf } from './declines.js';
import { invalidRequest, isFlowError, missingParam, noSuch } from './errors.js';
import { priceOf } from './prices.js';
import { isSepa } from './sepa.js';
import { checkoutSepa } from './sepa-payments.js';
import { testOf } from './setup.js';
import { billingModeMade } from './shapes.js';

export const SESSIONS = '/v1/checkout/sessions';
/** The twin's test helper that completes a session (Stripe has none: its hosted page does it). */
export const COMPLETE = '/v1/test_helpers/checkout/sessions/{session}/complete';
const MODES = ['payment', 'subscription', 'setup'];
const DAY = 86_400;

type Obj = Record<string, unknown>;

/**
 * A form `POST` on one session (`{session}` in the path), taking `properties` and answering the
 * session: the test helper's and the update's (checkout-update.ts). `more`: the operation's other members.
 */
export function sessionPost(operationId: string, properties: Obj, more: Obj = {}): Obj {
  return {
    post: {
      operationId,
      ...more,
      parameters: [{ in: 'path', name: 'session', required: true, schema: { type: 'string', maxLength: 66 } }],
      requestBody: {
        content: {
          'application/x-www-form-urlencoded': {
            schema: { type: 'object', additionalProperties: false, properties },
          },
        },
      },
      responses: {
        '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/checkout.session' } } } },
      },
    },
  };
}

/** The twin-only operation of the test helper, answered with the session. */
export const checkoutPaths: Record<string, Obj> = {
  [COMPLETE]: sessionPost(
    'TwinCompleteCheckoutSession',
    { expand: { type: 'array', items: { type: 'string' } }, payment_method: { type: 'string', maxLength: 255 } },
    { 'x-mockpoint-owner': SESSIONS },
  ),
};

/** The session's line items, a list as `GET …/line_items` answers it. */
async function lineItems(session: Obj, sent: Obj, kit: FlowKit): Promise<Obj | FlowError> {
  const given = Array.isArray(sent.line_items) ? sent.line_items.slice(0, 100) : [];
  // None given: a session with nothing to pay (amount 0), as stripe-mock answers stripe-node's own
  // generated example (a payment session with only shipping options); a subscription still needs a
  // recurring price (below).
  const data: Obj[] = [];
  for (const [index, raw] of given.entries()) {
    const item = (typeof raw === 'object' && raw !== null ? raw : {}) as Obj;
    const price = await priceOf(item, `line_items[${index}]`, kit, session.mode === 'subscription');
    if (isFlowError(price)) return price;
    data.push(lineItem(price as Obj, item.quantity, kit));
  }
  if (session.mode === 'subscription' && !data.some((line) => (line.price as Obj).type === 'recurring')) {
    return invalidRequest(
      'You must provide at least one recurring price in `subscription` mode when using prices.',
      'line_items',
    );
  }
  if (session.mode === 'subscription') {
    const recurring = data.map((line) => line.price as Obj).filter((price) => price.type === 'recurring');
    const mode = billingModeMade(record(sent.subscription_data)?.billing_mode, kit.version);
    const mismatch = mismatchOf(recurring, mode.type === 'flexible');
    if (mismatch !== undefined) return { ...mismatch, param: 'line_items' };
  }
  return { object: 'list', data, has_more: false, url: `/v1/checkout/sessions/${String(session.id)}/line_items` };
}

/**
 * A new session: `open`, `unpaid`, its totals; a hosted one's `url`, an embedded or custom one's
 * `client_secret` (`cs_…_secret_…`) and no `url`, as Stripe answers them (checkout-ui.ts).
 */
export async function creatingSession(session: Obj, sent: Obj, kit: FlowKit): Promise<FlowError | undefined> {
  if (typeof sent.mode !== 'string') return missingParam('mode');
  if (!MODES.includes(sent.mode))
    return invalidRequest(`Invalid mode: must be one of ${MODES.join(', ')}`, 'mode', 'parameter_invalid_string');
  const ui = uiModeOf(sent, kit.version);
  if (typeof ui !== 'string') return ui;
  const items = await lineItems(session, sent, kit);
  if (isFlowError(items)) return items;
  const lines = items.data as Obj[];
  const total = lines.reduce((sum, line) => sum + Number(line.amount_total), 0);
  const now = Math.floor(kit.now() / 1000);
  const id = String(session.id);
  Object.assign(session, {
    object: 'checkout.session',
    amount_subtotal: total,
    amount_total: total,
    client_secret: onOwnPage(ui) ? `${id}_secret_${kit.newId('')}` : null,
    currency: lines[0]?.currency ?? sent.currency ?? null,
    customer: typeof sent.customer === 'string' ? sent.customer : null,
    customer_email: typeof sent.customer_email === 'string' ? sent.customer_email : null,
    expires_at: typeof sent.expires_at === 'number' ? sent.expires_at : now + DAY,
    invoice: null,
    line_items: items,
    livemode: false,
    mode: sent.mode,
    payment_intent: null,
    payment_status: sent.mode === 'setup' ? 'no_payment_required' : 'unpaid',
    setup_intent: null,
    status: 'open',
    subscription: null,
    ui_mode: ui,
    url: onOwnPage(ui) ? null : `https://checkout.stripe.com/c/pay/${id}`,
  });
  // The subscription's `billing_mode`, fixed now: `subscription_data[billing_mode]`, else this
  // request's version's default. Kept on the session, never answered (checkout-ui.ts's sessionAt).
  if (sent.mode === 'subscription') {
    const data = sent.subscription_data;
    const asked = typeof data === 'object' && data !== null ? (data as Obj).billing_mode : undefined;
    session[SESSION_BILLING_MODE] = billingModeMade(asked, kit.version);
  }
  return undefined;
}

/**
 * What the payer gave on the hosted page, as a completed session shows it: the session's
 * `customer_email` (prefilled and kept there), and the country and postal code a US test card asks.
 */
function customerDetails(session: Obj): Obj {
  return {
    address: { city: null, country: 'US', line1: null, line2: null, postal_code: '42424', state: null },
    email: typeof session.customer_email === 'string' ? session.customer_email : null,
    name: null,
    phone: null,
    tax_exempt: 'none',
    tax_ids: [],
  };
}

/**
 * How the payer pays a session: `pm_card_visa` unless the helper names a `payment_method` (a card
 * that succeeds, or a SEPA Direct Debit PaymentMethod the twin holds); the refusal of another.
 */
async function payingBy(
  session: Obj,
  sent: Obj,
  kit: FlowKit,
): Promise<{ sepa?: { test: string; method: Obj } } | FlowError> {
  const given = sent.payment_method;
  if (typeof given !== 'string') return {};
  const test = await testOf(given, kit);
  if (test === undefined) return noSuch('payment_method', given, 'payment_method');
  if (!isSepa(test)) {
    if (declineOf(test) === undefined && test !== 'pm_card_authenticationRequired') return {};
    return invalidRequest(
      `The twin's Checkout helper completes a session with a card that succeeds or a SEPA Direct Debit PaymentMethod; ${given} declines or asks for 3-D Secure: confirm a PaymentIntent with it to test that.`,
      'payment_method',
    );
  }
  // The types the session was made with (`payment_method_types`, endive's `allowed_payment_method_types`);
  // none named: dynamic payment methods, which offer SEPA Direct Debit for eur.
  const named = [session.payment_method_types, session.allowed_payment_method_types].filter(Array.isArray).flat();
  const allowed = named.length === 0 || named.includes('sepa_debit');
  if (session.mode !== 'payment' || !allowed || session.currency !== 'eur') {
    return invalidRequest(
      'A SEPA Direct Debit PaymentMethod completes a payment-mode session in eur whose payment method types (payment_method_types, allowed_payment_method_types) take sepa_debit, or name none; the twin does not start a subscription on one.',
      'payment_method',
    );
  }
  return { sepa: { test, method: (await kit.find(given)) ?? {} } };
}

/** The session completed as a customer paying with a test card (or a SEPA debit: `payingBy`) would. */
async function complete(session: Obj, sent: Obj, kit: FlowKit): Promise<ActionOutcome> {
  if (session.status !== 'open') {
    return {
      error: invalidRequest(`This Checkout Session is ${String(session.status)}; only an open one can be completed.`),
    };
  }
  const paying = await payingBy(session, sent, kit);
  if (isFlowError(paying)) return { error: paying };
  const lines = ((session.line_items as Obj | undefined)?.data ?? []) as Obj[];
  const done: Obj = {
    ...session,
    status: 'complete',
    payment_status: session.mode === 'setup' ? 'no_payment_required' : 'paid',
    customer_details: customerDetails(session),
  };
  let customer = session.customer;
  if (session.mode === 'subscription' && typeof customer !== 'string') {
    customer = kit.newId('cus_');
    const made = kit.example('/v1/customers');
    Object.assign(made, { id: customer, object: 'customer', email: session.customer_email ?? null, metadata: {} });
    kit.write({ kind: 'created', template: '/v1/customers', object: made });
    done.customer = customer;
  }
  if (session.mode === 'payment' && paying.sepa !== undefined) {
    // A delayed notification method: complete but `unpaid` until the debit settles (sepa-payments.ts).
    done.payment_status = 'unpaid';
    const payment = {
      amount: Number(session.amount_total) || 0,
      currency: session.currency,
      customer: customer ?? null,
    };
    const intent = madeIntent({ ...payment, metadata: session.metadata }, kit);
    done.payment_intent = intent.id;
    checkoutSepa(intent, done, kit, paying.sepa.test, paying.sepa.method);
  } else if (session.mode === 'payment') {
    const intent = writePaidIntent(
      {
        amount: Number(session.amount_total) || 0,
        currency: session.currency,
        customer: customer ?? null,
        metadata: session.metadata,
      },
      kit,
    );
    done.payment_intent = intent.id;
  } else if (session.mode === 'subscription') {
    const items = lines
      .filter((line) => (line.price as Obj).type === 'recurring')
      .map((line) => ({ price: line.price as Obj, quantity: Number(line.quantity) || 1 }));
    await openBook(customer, kit);
    const subscription = subscribe(
      { customer, items, metadata: session.metadata, billingMode: session[SESSION_BILLING_MODE] },
      kit,
      { id: kit.newId('sub_') },
      false,
    );
    done.subscription = subscription.id;
    done.invoice = subscription.latest_invoice;
  }
  return { object: done, events: ['checkout.session.completed'] };
}

/** The session expired (`POST …/expire`). */
function expire(session: Obj, kit: FlowKit): ActionOutcome {
  if (session.status !== 'open') {
    return {
      error: invalidRequest(`This Checkout Session is ${String(session.status)}; only an open one can be expired.`),
    };
  }
  return {
    object: { ...session, status: 'expired', expires_at: Math.floor(kit.now() / 1000), url: null },
    events: ['checkout.session.expired'],
  };
}

/** The session actions: complete (the test helper), expire, its line items. */
export async function sessionAction(
  template: string,
  method: string,
  session: Obj | undefined,
  id: string,
  sent: Obj,
  kit: FlowKit,
): Promise<ActionOutcome | undefined> {
  const helper = template === COMPLETE;
  if (helper && session === undefined) return { error: noSuch('checkout.session', id, 'session') };
  if (session === undefined) return undefined;
  if (helper && method === 'POST') return complete(session, sent, kit);
  if (template === `${SESSIONS}/{session}/expire` && method === 'POST') return expire(session, kit);
  if (template === `${SESSIONS}/{session}/line_items` && method === 'GET') {
    return { object: session, answer: session.line_items, events: [] };
  }
  return undefined;
}

/** A Checkout Session's or a Payment Link's line item (`li_…`) of `price`, `quantity` (1 unless a number is sent). */
export function lineItem(price: Obj, sentQuantity: unknown, kit: FlowKit): Obj {
  const quantity = typeof sentQuantity === 'number' ? sentQuantity : 1;
  const amount = (Number(price.unit_amount) || 0) * quantity;
  return {
    id: kit.newId('li_'),
    object: 'item',
    amount_discount: 0,
    amount_subtotal: amount,
    amount_tax: 0,
    amount_total: amount,
    currency: price.currency,
    description: null,
    price,
    quantity,
  };
}
