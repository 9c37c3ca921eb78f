/**
 * An Invoice's life after its draft, as Stripe's invoicing guide and API reference have it:
 * `POST /v1/invoices/{id}/finalize` makes a draft `open` (a `number`, `finalized_at`, its hosted
 * page and PDF, a PaymentIntent for what it asks; nothing due: `paid` at once), `…/pay` charges it
 * to `payment_method` or the customer's default (`paid`, or a decline's `402` with
 * `invoice.payment_failed`; `paid_out_of_band: true` marks it paid with no charge), `…/void` and
 * `…/mark_uncollectible` close an open one, `…/send` tells a `send_invoice` customer
 * (`invoice.sent`), and `DELETE /v1/invoices/{id}` removes a draft only. Each refusal is Stripe's
 * `400` naming the status that forbids it.
 *
 * @module
 */

import type { ActionOutcome, FlowError, FlowKit } from '@mockpoint/core/internal';
import { record } from '../src/records.js';
import { cancelUnpaid, INTENTS, madeIntent, writeCharge } from './charges.js';
import { nextNumber, openBook } from './customer-books.js';
import { decline } from './declines.js';
import { invalidRequest } from './errors.js';
import { customerMethod, paidBy } from './invoice-make.js';
import { subscriptionPaid } from './invoice-paid.js';
import { writePaymentOf } from './invoice-payments.js';
import { SUBSCRIPTIONS } from './paths.js';
import { isSepa } from './sepa.js';
import { testOf } from './setup.js';

type Obj = Record<string, unknown>;

/** The actions of a stored invoice, by the path's last word. */
export const INVOICE_ACTION = /^\/v1\/invoices\/\{invoice\}\/(finalize|pay|void|mark_uncollectible|send)$/;

/** Stripe's refusal of `verb` on an invoice of another status. */
function wrongStatus(invoice: Obj, verb: string, allowed: string): FlowError {
  return invalidRequest(
    `You can only ${verb} an invoice whose status is ${allowed}; invoice ${String(invoice.id)} is ${String(invoice.status)}.`,
    undefined,
    'invoice_not_editable',
  );
}

/** A draft finalized: `open` with its number and pages, its PaymentIntent made; nothing due, `paid` at once. */
function finalize(invoice: Obj, kit: FlowKit): ActionOutcome {
  if (invoice.status !== 'draft') {
    return {
      error: invalidRequest(
        "This invoice is already finalized, you can't re-finalize a non-draft invoice.",
        undefined,
        'invoice_not_editable',
      ),
    };
  }
  const now = Math.floor(kit.now() / 1000);
  const id = String(invoice.id);
  const token = kit.newId('').slice(0, 24);
  const due = Number(invoice.amount_due) || 0;
  const open: Obj = {
    ...invoice,
    status: 'open',
    number: nextNumber(invoice.customer, kit) ?? `${kit.newId('').slice(0, 8).toUpperCase()}-0001`,
    hosted_invoice_url: `https://invoice.stripe.com/i/acct_twin/test_${token}`,
    invoice_pdf: `https://pay.stripe.com/invoice/acct_twin/test_${token}/pdf`,
    status_transitions: { ...(record(invoice.status_transitions) ?? {}), finalized_at: now },
  };
  if (due === 0) {
    const paid = {
      ...open,
      status: 'paid',
      paid: true,
      amount_remaining: 0,
      status_transitions: { ...(open.status_transitions as Obj), paid_at: now },
    };
    kit.snapshot('invoice.finalized', open);
    return { object: paid, events: ['invoice.finalized', 'invoice.paid'] };
  }
  const intent = madeIntent(
    { amount: due, currency: invoice.currency, customer: invoice.customer, invoice: id, description: null },
    kit,
  );
  kit.snapshot('payment_intent.created', { ...intent });
  kit.write({ kind: 'created', template: INTENTS, object: intent, after: true });
  open.payment_intent = intent.id;
  open.confirmation_secret = { client_secret: intent.client_secret, type: 'payment_intent' };
  return { object: open, events: ['invoice.finalized'] };
}

/** An open invoice paid: out of band, or charged to `payment_method` (else the customer's default). */
async function pay(invoice: Obj, sent: Obj, kit: FlowKit): Promise<ActionOutcome> {
  // An uncollectible invoice can still be paid (Stripe's invoice status transitions).
  if (invoice.status !== 'open' && invoice.status !== 'uncollectible') {
    return { error: wrongStatus(invoice, 'pay', 'open or uncollectible') };
  }
  const now = Math.floor(kit.now() / 1000);
  if (sent.paid_out_of_band === true) {
    // Paid outside Stripe: the PaymentIntent it had is not used (canceled), its invoice payment too.
    const intent = typeof invoice.payment_intent === 'string' ? await kit.find(invoice.payment_intent) : undefined;
    cancelUnpaid(intent, now, null, kit);
    const paid = {
      ...invoice,
      status: 'paid',
      paid: true,
      paid_out_of_band: true,
      amount_paid: invoice.amount_due,
      amount_remaining: 0,
      status_transitions: { ...(record(invoice.status_transitions) ?? {}), paid_at: now },
    };
    return { object: paid, events: ['invoice.paid'] };
  }
  const method =
    typeof sent.payment_method === 'string' ? sent.payment_method : await customerMethod(invoice.customer, kit);
  if (method === null) {
    return {
      error: invalidRequest(
        "This customer has no attached payment source or default payment method. Send payment_method, or set the customer's invoice_settings[default_payment_method].",
        'payment_method',
      ),
    };
  }
  const test = (await testOf(method, kit)) ?? method;
  if (isSepa(test)) {
    return {
      error: invalidRequest(
        'The twin pays invoices by card only; a SEPA Direct Debit payment method is debited for PaymentIntents and Checkout Sessions (docs/twins.md).',
        'payment_method',
      ),
    };
  }
  const held = typeof invoice.payment_intent === 'string' ? await kit.find(invoice.payment_intent) : undefined;
  const made =
    held ??
    madeIntent(
      { amount: Number(invoice.amount_remaining) || 0, currency: invoice.currency, customer: invoice.customer },
      kit,
    );
  const intent: Obj = {
    ...made,
    invoice: invoice.id,
    payment_method: method,
    last_payment_error: null,
    next_action: null,
  };
  const refused = decline(intent, kit, test);
  const tried = {
    ...invoice,
    attempt_count: (Number(invoice.attempt_count) || 0) + 1,
    attempted: true,
  };
  if (refused !== undefined) {
    const kind = held === undefined ? 'created' : 'updated';
    kit.write({ kind, template: INTENTS, object: intent, events: ['payment_intent.payment_failed'], after: true });
    return {
      object: { ...tried, charge: intent.latest_charge ?? null },
      events: ['invoice.payment_failed'],
      error: refused,
    };
  }
  if (test === 'pm_card_authenticationRequired') {
    // 3-D Secure: the payer must authenticate, on the invoice's page or with Stripe.js.
    Object.assign(intent, {
      status: 'requires_action',
      next_action: { type: 'use_stripe_sdk', use_stripe_sdk: { type: 'three_d_secure_redirect' } },
    });
    const kind = held === undefined ? 'created' : 'updated';
    kit.write({ kind, template: INTENTS, object: intent, events: ['payment_intent.requires_action'], after: true });
    const error: FlowError = {
      status: 402,
      type: 'card_error',
      code: 'invoice_payment_intent_requires_action',
      message:
        'This payment requires additional user action before it can be completed successfully. Payment can be completed using the PaymentIntent associated with the invoice.',
      extra: { payment_intent: intent },
    };
    return { object: tried, events: ['invoice.payment_action_required'], error };
  }
  Object.assign(intent, { latest_charge: kit.newId('ch_'), status: 'succeeded', amount_received: intent.amount });
  const kind = held === undefined ? 'created' : 'updated';
  kit.write({ kind, template: INTENTS, object: intent, events: ['payment_intent.succeeded'], after: true });
  writeCharge(intent, kit, true, test);
  // A subscription's invoice moves its subscription as a confirm of its PaymentIntent does.
  await subscriptionPaid(invoice, kit);
  return {
    object: { ...paidBy(invoice, intent, now), payment_intent: intent.id },
    events: ['invoice.paid', 'invoice.payment_succeeded'],
  };
}

/**
 * A resumption invoice (resume.ts: the `latest_invoice` of a subscription resumed `past_due`)
 * closed: "it must be paid or marked uncollectible before the subscription will be unpaused", so
 * marked uncollectible the subscription is `active`, voided it is `paused` again (as its expiry).
 */
async function resumptionClosed(invoice: Obj, to: 'active' | 'paused', at: number, kit: FlowKit): Promise<void> {
  if (invoice.billing_reason !== 'subscription_update' || typeof invoice.subscription !== 'string') return;
  const subscription = await kit.find(invoice.subscription);
  if (subscription?.object !== 'subscription' || subscription.status !== 'past_due') return;
  if (subscription.latest_invoice !== invoice.id) return;
  const lines = (record(invoice.lines)?.data as Obj[] | undefined) ?? [];
  if (!lines.some((line) => line.type === 'subscription')) return;
  const object = { ...subscription, status: to, ...(to === 'paused' ? { current_period_end: at } : {}) };
  const events = ['customer.subscription.updated', ...(to === 'paused' ? ['customer.subscription.paused'] : [])];
  kit.write({ kind: 'updated', template: SUBSCRIPTIONS, object, events, after: true });
}

/** `invoice` voided at `at` (Unix seconds): `void`, `status_transitions.voided_at`, no attempt to come. */
export function voidedAt(invoice: Obj, at: number): Obj {
  const transitions = { ...(record(invoice.status_transitions) ?? {}), voided_at: at };
  return { ...invoice, status: 'void', status_transitions: transitions, next_payment_attempt: null };
}

/** An open (or uncollectible) invoice voided: its PaymentIntent canceled (`void_invoice`). */
async function voided(invoice: Obj, kit: FlowKit): Promise<ActionOutcome> {
  if (invoice.status !== 'open' && invoice.status !== 'uncollectible') {
    return { error: wrongStatus(invoice, 'void', 'open or uncollectible (a draft is deleted instead)') };
  }
  const now = Math.floor(kit.now() / 1000);
  const intent = typeof invoice.payment_intent === 'string' ? await kit.find(invoice.payment_intent) : undefined;
  cancelUnpaid(intent, now, 'void_invoice', kit);
  await resumptionClosed(invoice, 'paused', now, kit);
  return {
    object: voidedAt(invoice, now),
    events: ['invoice.voided'],
  };
}

/**
 * What `POST /v1/invoices/{id}/<action>` does to `invoice`, its invoice payment (`GET
 * /v1/invoice_payments`) moved with it.
 */
export async function invoiceAction(action: string, invoice: Obj, sent: Obj, kit: FlowKit): Promise<ActionOutcome> {
  const outcome = await acted(action, invoice, sent, kit);
  if ('object' in outcome) writePaymentOf(outcome.object, outcome.events ?? [], kit);
  return outcome;
}

async function acted(action: string, invoice: Obj, sent: Obj, kit: FlowKit): Promise<ActionOutcome> {
  if (action === 'finalize') {
    await openBook(invoice.customer, kit);
    return finalize(invoice, kit);
  }
  if (action === 'pay') return pay(invoice, sent, kit);
  if (action === 'void') return voided(invoice, kit);
  if (action === 'mark_uncollectible') {
    if (invoice.status !== 'open') return { error: wrongStatus(invoice, 'mark uncollectible', 'open') };
    const now = Math.floor(kit.now() / 1000);
    await resumptionClosed(invoice, 'active', now, kit);
    const transitions = { ...(record(invoice.status_transitions) ?? {}), marked_uncollectible_at: now };
    return {
      object: { ...invoice, status: 'uncollectible', status_transitions: transitions, next_payment_attempt: null },
      events: ['invoice.marked_uncollectible'],
    };
  }
  // send: an open one, or a paid one ("there will be no reference to the payment in the email").
  if (invoice.status !== 'open' && invoice.status !== 'paid') {
    return { error: wrongStatus(invoice, 'send', 'open or paid') };
  }
  if (invoice.collection_method !== 'send_invoice') {
    return {
      error: invalidRequest(
        "You can only manually send an invoice if its collection method is 'send_invoice'.",
        undefined,
        'invoice_not_editable',
      ),
    };
  }
  return { object: { ...invoice }, events: ['invoice.sent'] };
}

/** Stripe's refusal of `DELETE /v1/invoices/{id}` of an invoice that is no draft; `undefined`: deleted as any object. */
export function refusedDelete(invoice: Obj): FlowError | undefined {
  // "If an invoice is for a subscription, it must be voided" (the reference's "Delete a draft invoice").
  if (typeof invoice.subscription === 'string') {
    return invalidRequest(
      `Invoice ${String(invoice.id)} is a subscription's; it cannot be deleted (void it instead, once finalized).`,
      undefined,
      'invoice_not_editable',
    );
  }
  if (invoice.status === 'draft') return undefined;
  return invalidRequest(
    `You can only delete draft invoices; invoice ${String(invoice.id)} is ${String(invoice.status)}. Void it instead (POST /v1/invoices/${String(invoice.id)}/void).`,
    undefined,
    'invoice_not_editable',
  );
}
