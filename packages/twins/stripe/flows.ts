/**
 * Stripe's test mode, for what integration tests use (docs/design.md#twins): a
 * PaymentIntent's state from its test payment method — `pm_card_visa`
 * succeeds (or waits for capture with `capture_method: manual`),
 * each declining test card is declined as Stripe declines it (declines.ts: `402
 * card_error`, a failed Charge, the intent back to `requires_payment_method`), `pm_card_authenticationRequired`
 * asks for 3-D Secure (`requires_action`) — and confirm, capture and cancel,
 * each payment's Charge kept; Checkout Sessions (checkout.ts),
 * Subscriptions with their first invoice (billing.ts) and Refunds
 * (refunds.ts); a create without a parameter the document requires is
 * refused (`parameter_missing`).
 *
 * @module
 */

import type { ActionOutcome, FlowError, FlowKit, MatchedOperation, TwinFlows } from '@mockpoint/core/internal';
import { checkAmount } from './amounts.js';
import { creatingSubscription } from './billing.js';
import { isTestMethod } from './cards.js';
import { CHARGES, INTENTS, writeCharge } from './charges.js';
import { checkoutPaths, creatingSession, SESSIONS, sessionAction } from './checkout.js';
import { amendingSession, sessionUpdatePaths } from './checkout-update.js';
import { advanceClock, CLOCKS, CUSTOMERS, creatingClock, creatingCustomer } from './clocks.js';
import { decline } from './declines.js';
import { errorMembers, invalidRequest, noSuch } from './errors.js';
import { creatingEndpoint, endpointLimit, forEndpoint, stripeEvent, stripeEventTypes, subscribes } from './events.js';
import { INVOICE_ACTION, invoiceAction, refusedDelete } from './invoice-actions.js';
import { creatingInvoiceItem } from './invoice-items.js';
import { paidInvoice, unpaidInvoice } from './invoice-paid.js';
import { INVOICE_PAYMENTS, invoicePaymentPaths, listPayments } from './invoice-payments.js';
import { creatingInvoice, INVOICE_ITEMS } from './invoices.js';
import { creatingLink, PAYMENT_LINKS } from './links.js';
import { checkMetadata } from './metadata.js';
import { INVOICES, PRICES, SUBSCRIPTIONS } from './paths.js';
import { createdPayout, PAYOUTS } from './payouts.js';
import { createdPrice } from './prices.js';
import { creatingRefund } from './refunds.js';
import { removedParam } from './removed.js';
import { resumedSubscription } from './resume.js';
import { isSepa, refusedSepa } from './sepa.js';
import { SETTLE, settleNow, settlePaths, startSepa } from './sepa-payments.js';
import {
  createdSetup,
  creatingMethod,
  creatingSetup,
  METHODS,
  methodAction,
  SETUP_INTENTS,
  setupAction,
  testOf,
} from './setup.js';
import { renderStripe, rendersStripe } from './shapes.js';
import { listSubscriptions } from './subscription-lists.js';
import { amendingSubscription, canceledSubscription, updatedSubscription } from './subscription-update.js';

const ENDPOINTS = '/v1/webhook_endpoints';

/**
 * Confirms `intent` with its payment method: its new state, and the error a decline answers; a
 * SEPA Direct Debit one (`method` the PaymentMethod the twin holds) is `processing` (sepa.ts).
 */
function confirm(
  intent: Record<string, unknown>,
  tools: FlowKit,
  after: boolean,
  test: unknown = intent.payment_method,
  held?: Record<string, unknown>,
): FlowError | undefined {
  const method = intent.payment_method;
  if (typeof method !== 'string' || method === '') {
    return {
      status: 400,
      type: 'invalid_request_error',
      code: 'payment_intent_unexpected_state',
      message:
        'You cannot confirm this PaymentIntent because it has no payment method. Pass one as `payment_method`, e.g. pm_card_visa.',
      param: 'payment_method',
    };
  }
  if (isSepa(test)) {
    startSepa(intent, tools, after, test, held);
    return undefined;
  }
  const refused = decline(intent, tools, test);
  if (refused !== undefined) return refused;
  if (test === 'pm_card_authenticationRequired') {
    intent.status = 'requires_action';
    intent.next_action = { type: 'use_stripe_sdk', use_stripe_sdk: { type: 'three_d_secure_redirect' } };
    return undefined;
  }
  intent.latest_charge = tools.newId('ch_');
  intent.last_payment_error = null;
  intent.next_action = null;
  if (intent.capture_method === 'manual') {
    intent.status = 'requires_capture';
    intent.amount_capturable = intent.amount;
  } else {
    intent.status = 'succeeded';
    intent.amount_received = intent.amount;
  }
  writeCharge(intent, tools, after, test);
  return undefined;
}

function unexpected(intent: Record<string, unknown>, verb: string): FlowError {
  return {
    status: 400,
    type: 'invalid_request_error',
    code: 'payment_intent_unexpected_state',
    message: `This PaymentIntent's status is ${String(intent.status)}; it cannot be ${verb}.`,
  };
}

async function act(
  tail: string,
  intent: Record<string, unknown>,
  sent: Record<string, unknown>,
  tools: FlowKit,
): Promise<ActionOutcome> {
  const next = { ...intent };
  if (tail === 'confirm') {
    const removed = removedParam(`confirm ${INTENTS}`, sent, tools.version);
    if (removed !== undefined) return { error: removed };
    if (next.status === 'succeeded' || next.status === 'canceled') return { error: unexpected(next, 'confirmed') };
    if (typeof sent.payment_method === 'string') next.payment_method = sent.payment_method;
    const test = (await testOf(next.payment_method, tools)) ?? next.payment_method;
    const held = isSepa(test) ? await tools.find(String(next.payment_method)) : undefined;
    if (isSepa(test)) {
      // The twin debits no invoice by SEPA (as invoices.pay refuses it): refused, nothing changed.
      const refused =
        typeof next.invoice === 'string'
          ? invalidRequest(
              'The twin pays invoices by card only; a SEPA Direct Debit payment method is debited for PaymentIntents and Checkout Sessions of their own (docs/twins.md).',
              'payment_method',
              'payment_method_unsupported_type',
            )
          : refusedSepa(next, sent);
      if (refused !== undefined) return { error: refused };
    }
    const error = confirm(next, tools, true, test, held);
    await paidInvoice(next, tools);
    await unpaidInvoice(next, tools);
    return error === undefined ? { object: next } : { object: next, error };
  }
  if (tail === 'capture') {
    if (next.status !== 'requires_capture') return { error: unexpected(next, 'captured') };
    next.status = 'succeeded';
    next.amount_received = typeof sent.amount_to_capture === 'number' ? sent.amount_to_capture : next.amount;
    next.amount_capturable = 0;
    const charge = typeof next.latest_charge === 'string' ? await tools.find(next.latest_charge) : undefined;
    if (charge?.object === 'charge') {
      const object = { ...charge, captured: true, amount_captured: next.amount_received };
      tools.write({ kind: 'updated', template: CHARGES, object, events: ['charge.captured'], after: true });
    }
    return { object: next };
  }
  if (next.status === 'succeeded' || next.status === 'canceled') return { error: unexpected(next, 'canceled') };
  next.status = 'canceled';
  next.canceled_at = Math.floor(tools.now() / 1000);
  next.cancellation_reason = typeof sent.cancellation_reason === 'string' ? sent.cancellation_reason : null;
  return { object: next };
}

/** The actions of stored objects: a PaymentIntent's, a Checkout Session's, a Subscription's cancel. */
async function acting(
  matched: MatchedOperation,
  stored: Record<string, unknown> | undefined,
  sent: Record<string, unknown>,
  kit: FlowKit,
): Promise<ActionOutcome | undefined> {
  const { op, values } = matched;
  if (op.template === SETTLE && op.method === 'POST') {
    return stored === undefined
      ? { error: noSuch('payment_intent', values.intent ?? '', 'intent') }
      : settleNow(stored, kit);
  }
  const invoiceAct = INVOICE_ACTION.exec(op.template);
  if (invoiceAct !== null) {
    return op.method !== 'POST' || stored === undefined
      ? undefined
      : invoiceAction(invoiceAct[1] as string, stored, sent, kit);
  }
  if (op.template === `${INVOICES}/{invoice}` && op.method === 'DELETE' && stored !== undefined) {
    const refused = refusedDelete(stored);
    if (refused !== undefined) return { error: refused };
  }
  const intent = /^\/v1\/payment_intents\/\{intent\}\/(confirm|capture|cancel)$/.exec(op.template);
  if (intent !== null) {
    return op.method !== 'POST' || stored === undefined ? undefined : act(intent[1] as string, stored, sent, kit);
  }
  const method = /^\/v1\/payment_methods\/\{payment_method\}\/(attach|detach)$/.exec(op.template);
  if (method !== null && op.method === 'POST') {
    return methodAction(method[1] as string, values.payment_method ?? '', stored, sent, kit);
  }
  const setup = /^\/v1\/setup_intents\/\{intent\}\/(confirm|cancel)$/.exec(op.template);
  if (setup !== null) {
    return op.method !== 'POST' || stored === undefined
      ? undefined
      : setupAction(setup[1] as string, stored, sent, kit);
  }
  if (op.template.includes('checkout/sessions/{session}')) {
    return sessionAction(op.template, op.method, stored, values.session ?? '', sent, kit);
  }
  // An invoice's lines (`GET /v1/invoices/{invoice}/lines`) as its `lines` hold them.
  if (op.template === `${INVOICES}/{invoice}/lines` && op.method === 'GET' && stored !== undefined) {
    return { object: stored, answer: stored.lines, events: [] };
  }
  if (op.template === `${CLOCKS}/{test_clock}/advance` && op.method === 'POST') {
    return stored === undefined ? undefined : advanceClock(stored, sent, kit);
  }
  if (op.template === `${SUBSCRIPTIONS}/{subscription}/resume` && op.method === 'POST' && stored !== undefined) {
    return resumedSubscription(stored, sent, kit);
  }
  if (op.template === `${SUBSCRIPTIONS}/{subscription_exposed_id}` && op.method === 'DELETE' && stored !== undefined) {
    const outcome = canceledSubscription(stored, kit);
    return 'object' in outcome ? outcome : { error: outcome };
  }
  return undefined;
}

/** A create that reads what the twin holds (a session's prices, a refund's charge). */
function creating(
  template: string,
  object: Record<string, unknown>,
  sent: Record<string, unknown>,
  kit: FlowKit,
): Promise<FlowError | undefined> {
  const removed = removedParam(`create ${template}`, sent, kit.version);
  if (removed !== undefined) return Promise.resolve(removed);
  if (template === SESSIONS) return creatingSession(object, sent, kit);
  if (template === SUBSCRIPTIONS) return creatingSubscription(object, sent, kit);
  if (template === '/v1/refunds') return creatingRefund(object, sent, kit);
  if (template === CUSTOMERS) return creatingCustomer(object, sent, kit);
  if (template === CLOCKS) return Promise.resolve(creatingClock(object, sent, kit));
  if (template === SETUP_INTENTS) return creatingSetup(object, sent, kit);
  if (template === METHODS) return Promise.resolve(creatingMethod(object, sent, kit));
  if (template === INTENTS) return creatingIntent(object, sent, kit);
  if (template === PRICES) createdPrice(object, sent, kit);
  if (template === ENDPOINTS) return Promise.resolve(creatingEndpoint(object, sent, kit));
  if (template === PAYMENT_LINKS) return creatingLink(object, sent, kit);
  if (template === INVOICES) return creatingInvoice(object, sent, kit);
  if (template === INVOICE_ITEMS) return creatingInvoiceItem(object, sent, kit);
  return Promise.resolve(undefined);
}

/**
 * The collections whose new objects Stripe makes `active: true` unless `active=false` is sent
 * (the document's examples say `false`): products, prices, plans, payment links, promotion codes,
 * tax and shipping rates.
 */
const ACTIVE = new Set([
  '/v1/products',
  PRICES,
  '/v1/plans',
  PAYMENT_LINKS,
  '/v1/promotion_codes',
  '/v1/tax_rates',
  '/v1/shipping_rates',
]);

/**
 * The test card a PaymentIntent made with `confirm: true` pays as, for `created` (the same
 * object), and the PaymentMethod the twin holds of a SEPA one.
 */
const PAYS_AS = new WeakMap<Record<string, unknown>, { test: string; held?: Record<string, unknown> | undefined }>();

/**
 * Looks up the test card a new PaymentIntent's payment method pays as (one the twin holds: its
 * card); a SEPA confirm Stripe refuses (not `eur`, no mandate) refuses the create.
 */
async function creatingIntent(
  object: Record<string, unknown>,
  sent: Record<string, unknown>,
  kit: FlowKit,
): Promise<FlowError | undefined> {
  const test = sent.confirm === true ? await testOf(sent.payment_method, kit) : undefined;
  if (test === undefined) return undefined;
  if (!isSepa(test)) {
    PAYS_AS.set(object, { test });
    return undefined;
  }
  const refused = refusedSepa({ ...object, currency: sent.currency }, sent);
  if (refused !== undefined) return refused;
  PAYS_AS.set(object, { test, held: await kit.find(String(sent.payment_method)) });
  return undefined;
}

export const stripeFlows: TwinFlows = {
  // Enums its 2024-04-10 document marks so (api versions, event types, tax id and payment method
  // types) take the values Stripe added since (docs/twins.md, "Enums of an older document").
  openEnums: 'x-stripeBypassValidation',
  required: true,
  // Stripe's test payment methods and tokens, known to every account without being made.
  known: (id) => id.startsWith('tok_') || isTestMethod(id) || isSepa(id),
  paths: { ...checkoutPaths, ...sessionUpdatePaths, ...invoicePaymentPaths, ...settlePaths },
  rendered: renderStripe,
  renders: rendersStripe,
  // `GET /v1/customers/{customer}/payment_methods` (stripe-node's `customers.listPaymentMethods`).
  views: { [`${CUSTOMERS}/{customer}/payment_methods`]: { of: METHODS, where: { customer: 'customer' } } },
  list: (template, items, query) => {
    if (template === SUBSCRIPTIONS) return listSubscriptions(items, query);
    return template === INVOICE_PAYMENTS ? listPayments(items, query) : undefined;
  },
  creating,
  acting,
  check: (template, sent) => checkMetadata(sent) ?? checkAmount(template, sent),
  checkUpdate: (_template, sent) => checkMetadata(sent),
  amending: (template, stored, sent, kit) => {
    const removed = removedParam(`update ${template}`, sent, kit.version);
    if (removed !== undefined) return Promise.resolve({ error: removed });
    if (template === SUBSCRIPTIONS) return amendingSubscription(stored, sent, kit);
    return template === SESSIONS ? amendingSession(stored, sent, kit) : Promise.resolve(undefined);
  },
  errorMembers,
  events: {
    eventsTemplate: '/v1/events',
    endpointsTemplate: ENDPOINTS,
    scheme: 'stripe',
    types: stripeEventTypes,
    event: stripeEvent,
    forEndpoint,
    subscribes,
    limit: endpointLimit,
  },
  created(template, object, sent, tools) {
    if (ACTIVE.has(template) && 'active' in object) object.active = sent.active !== false;
    if (template === SETUP_INTENTS) return createdSetup(object);
    if (template === PAYOUTS) {
      createdPayout(object, sent, tools);
      return undefined;
    }
    if (template === ENDPOINTS) {
      object.secret = `whsec_${tools.newId('')}${tools.newId('').slice(0, 8)}`;
      object.status = 'enabled';
      return undefined;
    }
    if (template !== INTENTS) return undefined;
    // endive's `allowed_payment_method_types` is what `payment_method_types` answers then.
    if (Array.isArray(sent.allowed_payment_method_types))
      object.payment_method_types = sent.allowed_payment_method_types;
    object.client_secret = `${String(object.id)}_secret_${tools.newId('').slice(0, 16)}`;
    object.capture_method = typeof sent.capture_method === 'string' ? sent.capture_method : 'automatic';
    object.amount_received = 0;
    object.last_payment_error = null;
    object.next_action = null;
    object.latest_charge = null;
    object.status = typeof sent.payment_method === 'string' ? 'requires_confirmation' : 'requires_payment_method';
    const pays = PAYS_AS.get(object);
    PAYS_AS.delete(object);
    if (sent.confirm !== true) return undefined;
    // Its `payment_intent.created` shows it as made, before the confirm moves it on.
    tools.snapshot('payment_intent.created', object);
    return confirm(object, tools, true, pays?.test ?? object.payment_method, pays?.held);
  },
  updating(template, object, _was, tools, sent) {
    if (template === SUBSCRIPTIONS) updatedSubscription(object, sent, tools.now());
    // Stripe's `disabled` parameter is no field of the endpoint: it moves its `status`.
    if (template === ENDPOINTS && typeof sent.disabled === 'boolean') {
      object.status = sent.disabled ? 'disabled' : 'enabled';
    }
  },
};
