/**
 * What a Subscription does as its time passes (a test clock's advance, clocks.ts): a trial
 * that ends in 3 days says so (`customer.subscription.trial_will_end`), a period that ends bills
 * the next (an Invoice `subscription_cycle` charged to the default payment method, the period
 * moved), a payment that fails leaves the Invoice `open` and the Subscription `past_due` and is
 * retried on a simplified schedule, and `cancel_at_period_end` cancels at the period's end. Each
 * step is made with the kit of the moment it happens at (its `now` the clock's).
 *
 * @module
 */

import type { FlowKit } from '@mockpoint/core/internal';
import { anchorOf, intervalOfSubscription, periodEnd } from './calendar.js';
import { cancelUnpaid, INTENTS, madeIntent, writeCharge } from './charges.js';
import { delinquent, openBook } from './customer-books.js';
import { decline } from './declines.js';
import { voidedAt } from './invoice-actions.js';
import { chargedIntent, customerMethod, invoiceOf, invoiceStates, paidBy } from './invoice-make.js';
import { writeInvoice } from './invoice-payments.js';
import { INVOICE_ITEMS } from './invoices.js';
import { SUBSCRIPTIONS } from './paths.js';
import { testOf } from './setup.js';

type Obj = Record<string, unknown>;

const DAY = 86_400;
/** Stripe sends `customer.subscription.trial_will_end` three days before a trial ends. */
export const TRIAL_NOTICE = 3 * DAY;
/**
 * When a failed renewal is tried again, in days after its first attempt: three retries, a
 * simplified fixed form of Stripe's Smart Retries (which picks its times, 8 tries in 2 weeks by default).
 */
export const RETRY_DAYS = [3, 5, 7] as const;

/**
 * How long a resumption invoice (resume.ts) stays payable: unpaid after it, Stripe voids it ("The
 * resumption invoice will void automatically if not paid by the expiration date", its reference).
 */
export const RESUMPTION_EXPIRES = 23 * 3600;

/** A subscription on the clock as an advance moves it, and the open invoice it may retry. */
export interface Running {
  subscription: Obj;
  /** Its latest invoice while it is `open` (a failed payment to retry), and that invoice's PaymentIntent. */
  open?: { invoice: Obj; intent: Obj | undefined } | undefined;
  /** Its unpaid resumption invoice (it was resumed `past_due`), voided when it expires, and its PaymentIntent. */
  resumption?: { invoice: Obj; intent: Obj | undefined } | undefined;
  /** Its `trial_will_end` was sent in this advance. */
  warned?: boolean;
}

/** What happens next to a running subscription, and when (Unix seconds). */
export interface Step {
  at: number;
  kind: 'warn' | 'renew' | 'cancel' | 'retry' | 'expire';
}

/** The next step of `running` after `from` and no later than `to`; `undefined`: none. */
export function nextStep(running: Running, from: number, to: number): Step | undefined {
  const { subscription: sub } = running;
  if (!['trialing', 'active', 'past_due'].includes(String(sub.status))) return undefined;
  const steps: Step[] = [];
  const end = Number(sub.current_period_end);
  if (sub.status === 'trialing' && typeof sub.trial_end === 'number' && !running.warned) {
    const notice = sub.trial_end - TRIAL_NOTICE;
    if (notice > from && notice <= to) steps.push({ at: notice, kind: 'warn' });
  }
  const resumed = running.resumption?.invoice.created;
  if (typeof resumed === 'number') {
    const expires = resumed + RESUMPTION_EXPIRES;
    if (expires > from && expires <= to) steps.push({ at: expires, kind: 'expire' });
  }
  const retry = running.open?.invoice.next_payment_attempt;
  if (typeof retry === 'number' && retry <= to && retry < end) steps.push({ at: retry, kind: 'retry' });
  if (end <= to) steps.push({ at: end, kind: sub.cancel_at_period_end === true ? 'cancel' : 'renew' });
  return steps.sort((a, b) => a.at - b.at)[0];
}

/** Runs `step` of `running` with the kit of its moment: its effects written, `running` moved on. */
export async function runStep(running: Running, step: Step, kit: FlowKit): Promise<void> {
  const sub = running.subscription;
  if (step.kind === 'warn') {
    running.warned = true;
    const events = ['customer.subscription.trial_will_end'];
    kit.write({ kind: 'updated', template: SUBSCRIPTIONS, object: { ...sub }, events, after: true });
    return;
  }
  if (step.kind === 'cancel') {
    running.subscription = { ...sub, status: 'canceled', ended_at: step.at };
    const events = ['customer.subscription.deleted'];
    kit.write({ kind: 'updated', template: SUBSCRIPTIONS, object: running.subscription, events, after: true });
    return;
  }
  if (step.kind === 'retry') return retry(running, kit);
  if (step.kind === 'expire') return expire(running, step.at, kit);
  return renew(running, kit);
}

/**
 * An unpaid resumption invoice expired: voided (`invoice.voided`, its PaymentIntent canceled with
 * `void_invoice`, as a voided invoice's is), and the subscription, never unpaused ("it must be paid
 * or marked uncollectible before the subscription will be unpaused"), `paused` again
 * (`customer.subscription.updated`, `customer.subscription.paused`).
 */
function expire(running: Running, at: number, kit: FlowKit): void {
  const { invoice, intent } = running.resumption ?? { invoice: {}, intent: undefined };
  running.resumption = undefined;
  cancelUnpaid(intent, at, 'void_invoice', kit);
  const voided = voidedAt(invoice, at);
  updateInvoice(voided, ['invoice.voided'], kit);
  running.subscription = { ...running.subscription, status: 'paused', current_period_end: at };
  const events = ['customer.subscription.updated', 'customer.subscription.paused'];
  kit.write({ kind: 'updated', template: SUBSCRIPTIONS, object: { ...running.subscription }, events, after: true });
}

/** The payment method a subscription's invoices are charged to, and the test card it pays as. */
export async function payingOf(sub: Obj, kit: FlowKit): Promise<{ method: string | null; test?: string | undefined }> {
  const own = typeof sub.default_payment_method === 'string' ? sub.default_payment_method : null;
  const method = own ?? (await customerMethod(sub.customer, kit));
  return { method, test: method === null ? undefined : await testOf(method, kit) };
}

/** When a failed invoice made at `created` is tried again after `attempts` attempts (`null`: no more). */
function nextAttempt(created: number, attempts: number): number | null {
  const days = RETRY_DAYS[attempts - 1];
  return days === undefined ? null : created + days * DAY;
}

/** What a subscription's items cost a period, at their prices. */
export function totalOf(sub: Obj): number {
  const lines = (sub.items as { data?: Obj[] } | undefined)?.data ?? [];
  return lines.reduce(
    (sum, line) => sum + (Number((line.price as Obj | undefined)?.unit_amount) || 0) * Number(line.quantity ?? 1),
    0,
  );
}

/** The invoice events of a payment that did not succeed: 3-D Secure asked for, or a decline. */
function unpaidEvents(intent: Obj): string[] {
  return [intent.status === 'requires_action' ? 'invoice.payment_action_required' : 'invoice.payment_failed'];
}

/**
 * A period that ends (or a trial): the subscription's next period (`customer.subscription.updated`,
 * `active`), its Invoice (`invoice.created`, `invoice.finalized`), the payment, then
 * `invoice.paid` and `invoice.payment_succeeded` — or `invoice.payment_failed`, the invoice left
 * `open` with its `next_payment_attempt` and the subscription `past_due`.
 */
async function renew(running: Running, kit: FlowKit): Promise<void> {
  const was = running.subscription;
  const start = Number(was.current_period_end);
  // The next boundary of its calendar, counted from its anchor (calendar.ts).
  const period = { start, end: periodEnd(anchorOf(was), intervalOfSubscription(was), start) };
  const id = kit.newId('in_');
  const sub: Obj = {
    ...was,
    current_period_start: period.start,
    current_period_end: period.end,
    latest_invoice: id,
    status: was.status === 'past_due' ? 'past_due' : 'active',
  };
  kit.write({ kind: 'updated', template: SUBSCRIPTIONS, object: { ...sub }, after: true });
  running.subscription = sub;
  // Its pending invoice items (a mid-period change's prorations, prorations.ts) are billed with it.
  const pending = (await kit.objects(INVOICE_ITEMS)).filter((item) => item.subscription === sub.id && !item.invoice);
  for (const item of pending) {
    kit.write({ kind: 'updated', template: INVOICE_ITEMS, object: { ...item, invoice: id }, events: [], after: true });
  }
  const total = Math.max(0, totalOf(sub) + pending.reduce((sum, item) => sum + (Number(item.amount) || 0), 0));
  const payment = { amount: total, currency: sub.currency, customer: sub.customer, invoice: id };
  const made = total === 0 ? undefined : madeIntent({ ...payment, description: 'Subscription update' }, kit);
  const billed = { start: Number(was.current_period_start), end: start };
  await openBook(sub.customer, kit);
  const invoicing = {
    id,
    subscription: sub,
    reason: 'subscription_cycle',
    period,
    billed,
    free: false,
    tried: false,
    pending,
  };
  // Written `open` with its PaymentIntent first, so that its events come before the payment's.
  const open = invoiceOf({ ...invoicing, intent: made === undefined ? undefined : { ...made } }, kit);
  invoiceStates(open, kit);
  const paidAtOnce = made === undefined ? ['invoice.paid', 'invoice.payment_succeeded'] : [];
  const events = ['invoice.created', 'invoice.finalized', ...paidAtOnce];
  writeInvoice('created', open, events, kit);
  if (made === undefined) return;
  const intent = chargedIntent(payment, await payingOf(sub, kit), kit, made);
  const now = Math.floor(kit.now() / 1000);
  if (intent.status === 'succeeded') {
    const paid = paidBy(open, intent, now);
    updateInvoice(paid, ['invoice.paid', 'invoice.payment_succeeded'], kit);
    delinquent(sub.customer, false, kit);
    running.open = undefined;
    return;
  }
  const failed = {
    ...open,
    attempt_count: 1,
    attempted: true,
    charge: intent.latest_charge,
    next_payment_attempt: nextAttempt(now, 1),
  };
  updateInvoice(failed, unpaidEvents(intent), kit);
  delinquent(sub.customer, true, kit);
  running.open = { invoice: failed, intent };
  if (sub.status === 'past_due') return;
  running.subscription = { ...sub, status: 'past_due' };
  kit.write({ kind: 'updated', template: SUBSCRIPTIONS, object: { ...running.subscription }, after: true });
}

function updateInvoice(invoice: Obj, events: string[], kit: FlowKit): void {
  writeInvoice('updated', invoice, events, kit);
}

/**
 * A failed invoice tried again at its `next_payment_attempt`: its PaymentIntent confirmed with the
 * subscription's payment method as it now is — paid (`invoice.paid`, the subscription `active`),
 * or declined again (`invoice.payment_failed`, the next attempt, none after the last).
 */
async function retry(running: Running, kit: FlowKit): Promise<void> {
  const { invoice, intent: was } = running.open ?? { invoice: {}, intent: undefined };
  const now = Math.floor(kit.now() / 1000);
  const paying = await payingOf(running.subscription, kit);
  const test = paying.test ?? paying.method;
  await openBook(running.subscription.customer, kit);
  const intent: Obj = { ...(was ?? {}), payment_method: paying.method, last_payment_error: null, next_action: null };
  const attempts = (Number(invoice.attempt_count) || 0) + 1;
  const refused =
    paying.method === null || test === 'pm_card_authenticationRequired' || decline(intent, kit, test) !== undefined;
  if (refused) {
    if (test === 'pm_card_authenticationRequired') intent.status = 'requires_action';
    const what =
      intent.status === 'requires_action' ? 'payment_intent.requires_action' : 'payment_intent.payment_failed';
    kit.write({ kind: 'updated', template: INTENTS, object: intent, events: [what], after: true });
    const failed = {
      ...invoice,
      attempt_count: attempts,
      attempted: true,
      charge: intent.latest_charge ?? invoice.charge ?? null,
      next_payment_attempt: nextAttempt(Number(invoice.created), attempts),
    };
    updateInvoice(failed, unpaidEvents(intent), kit);
    delinquent(running.subscription.customer, true, kit);
    running.open = { invoice: failed, intent };
    return;
  }
  Object.assign(intent, { latest_charge: kit.newId('ch_'), status: 'succeeded', amount_received: intent.amount });
  kit.write({ kind: 'updated', template: INTENTS, object: intent, events: ['payment_intent.succeeded'], after: true });
  writeCharge(intent, kit, true, test);
  updateInvoice(paidBy(invoice, intent, now), ['invoice.paid', 'invoice.payment_succeeded'], kit);
  delinquent(running.subscription.customer, false, kit);
  running.open = undefined;
  running.subscription = { ...running.subscription, status: 'active' };
  kit.write({ kind: 'updated', template: SUBSCRIPTIONS, object: { ...running.subscription }, after: true });
}
