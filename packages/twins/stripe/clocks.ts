/**
 * Stripe's Test Clocks (docs.stripe.com/billing/testing/test-clocks, docs/twins.md "Test
 * clocks"): a clock made at a `frozen_time`, customers made on it (`test_clock`) whose
 * subscriptions and invoices take their time from it, and an advance that moves it forward,
 * running what the time passed does to each of their subscriptions, in time order
 * (renewals.ts), between `test_helpers.test_clock.advancing` and `.ready`.
 *
 * @module
 */

import type { ActionOutcome, FlowError, FlowKit } from '@mockpoint/core/internal';
import { boundary, type Interval, intervalOfSubscription, intervalWords } from './calendar.js';
import { atClock, clockNamed } from './clock-time.js';
import { createdCustomer } from './customer-books.js';
import { invalidRequest, noSuch } from './errors.js';
import { SUBSCRIPTIONS } from './paths.js';
import { nextStep, type Running, runStep, type Step } from './renewals.js';

type Obj = Record<string, unknown>;

export const CLOCKS = '/v1/test_helpers/test_clocks';
export const CUSTOMERS = '/v1/customers';
const DAY = 86_400;
/** Stripe deletes a test clock (and its objects) 30 days after it was made. */
const CLOCK_DAYS = 30;
/** Most customers one test clock holds (Stripe's documented limit). */
const MAX_CUSTOMERS = 3;
/**
 * Most instants one advance runs steps at (a renewal, a retry, a trial's notice, a cancel): every
 * subscription's step due at one instant runs with the others, so that many subscriptions renewing
 * at the same moment never block a clock. Stripe bounds an advance by two intervals of the
 * clock's shortest subscription, which is checked first.
 */
export const MAX_INSTANTS = 15;
/**
 * Most steps one advance runs in all: the work of one request stays bounded (each step writes at
 * most 6 objects, within the 500 the twin engine keeps of one request's flows).
 */
export const MAX_STEPS = 80;

/** A Unix time sent in a form body (`"1700000000"`) as a number; `undefined` for anything else. */
function timeOf(value: unknown): number | undefined {
  const given = typeof value === 'string' && /^\d{1,12}$/.test(value) ? Number(value) : value;
  return typeof given === 'number' && Number.isInteger(given) && given > 0 ? given : undefined;
}

/** A new test clock: `ready` at its `frozen_time`, deleted after 30 days as Stripe deletes one. */
export function creatingClock(clock: Obj, sent: Obj, kit: FlowKit): FlowError | undefined {
  const frozen = timeOf(sent.frozen_time);
  if (frozen === undefined)
    return invalidRequest('Invalid timestamp: must be an integer Unix timestamp.', 'frozen_time');
  const now = Math.floor(kit.now() / 1000);
  Object.assign(clock, {
    object: 'test_helpers.test_clock',
    created: now,
    deletes_after: now + CLOCK_DAYS * DAY,
    frozen_time: frozen,
    livemode: false,
    name: typeof sent.name === 'string' ? sent.name : null,
    status: 'ready',
  });
  return undefined;
}

/**
 * A new customer on the test clock `test_clock` names (made at the clock's time), refused for a
 * clock the twin does not hold or one with {@link MAX_CUSTOMERS} customers already; `null` when none is named.
 */
export async function creatingCustomer(customer: Obj, sent: Obj, kit: FlowKit): Promise<FlowError | undefined> {
  createdCustomer(customer, sent, kit);
  if (sent.test_clock === undefined || sent.test_clock === '') {
    customer.test_clock = null;
    return undefined;
  }
  const clock = await clockNamed(sent.test_clock, kit);
  if (clock === undefined) return noSuch('test_clock', String(sent.test_clock), 'test_clock');
  const on = (await kit.objects(CUSTOMERS)).filter((one) => one.test_clock === clock.id);
  if (on.length >= MAX_CUSTOMERS) {
    return invalidRequest(
      `The test clock ${String(clock.id)} already has the maximum of ${MAX_CUSTOMERS} customers. Make another test clock for more customers.`,
      'test_clock',
    );
  }
  customer.test_clock = clock.id;
  customer.created = clock.frozen_time;
  return undefined;
}

/** The running subscriptions of the clock's customers, each with the open invoice it may retry. */
async function runningOn(clock: Obj, kit: FlowKit): Promise<Running[]> {
  const customers = new Set(
    (await kit.objects(CUSTOMERS)).filter((one) => one.test_clock === clock.id).map((one) => one.id),
  );
  const running: Running[] = [];
  for (const subscription of await kit.objects(SUBSCRIPTIONS)) {
    if (!customers.has(subscription.customer)) continue;
    if (!['trialing', 'active', 'past_due'].includes(String(subscription.status))) continue;
    const invoice =
      typeof subscription.latest_invoice === 'string' ? await kit.find(subscription.latest_invoice) : undefined;
    const open =
      invoice?.status === 'open' && typeof invoice.next_payment_attempt === 'number'
        ? {
            invoice,
            intent: typeof invoice.payment_intent === 'string' ? await kit.find(invoice.payment_intent) : undefined,
          }
        : undefined;
    // An unpaid resumption invoice (resume.ts: resumed `past_due`, nothing to retry) expires.
    // Its lines bill the subscription's items (a proration invoice's bill invoice items).
    const lines = ((invoice?.lines as { data?: Record<string, unknown>[] } | undefined)?.data ?? []) as Record<
      string,
      unknown
    >[];
    const resumption =
      invoice?.status === 'open' &&
      invoice.billing_reason === 'subscription_update' &&
      lines.some((line) => line.type === 'subscription') &&
      typeof invoice.next_payment_attempt !== 'number' &&
      subscription.status === 'past_due'
        ? {
            invoice,
            intent: typeof invoice.payment_intent === 'string' ? await kit.find(invoice.payment_intent) : undefined,
          }
        : undefined;
    running.push({ subscription, open, resumption });
  }
  return running;
}

/**
 * Stripe's refusal of an advance to `to` from `from`: backwards, or past two intervals of its
 * shortest subscription by the calendar (two years when it has none).
 */
function refusedAdvance(from: number, to: number | undefined, running: Running[]): FlowError | undefined {
  if (to === undefined) return invalidRequest('Invalid timestamp: must be an integer Unix timestamp.', 'frozen_time');
  if (to <= from) {
    return invalidRequest(
      `The frozen_time (${to}) must be after the test clock's current frozen time (${from}): a test clock only moves forward. Make a new test clock to start over.`,
      'frozen_time',
    );
  }
  let most = boundary(from, { unit: 'year', count: 1 }, 2);
  let shortest: Interval | undefined;
  for (const { subscription } of running) {
    const interval = intervalOfSubscription(subscription);
    const limit = boundary(from, interval, 2);
    if (shortest === undefined || limit < most) [most, shortest] = [limit, interval];
  }
  if (to <= most) return undefined;
  const what =
    shortest === undefined
      ? 'two years, as it has no subscriptions'
      : `two intervals of its shortest subscription (2 × ${intervalWords(shortest)})`;
  return invalidRequest(
    `Cannot advance the test clock to ${to}: it may move at most ${what} past its frozen time ${from}, to ${most}. Advance it in shorter steps.`,
    'frozen_time',
  );
}

/** The steps due first after `from` and no later than `to`: every running subscription's at that one instant. */
function dueFirst(running: Running[], from: number, to: number): { running: Running; step: Step }[] {
  let due: { running: Running; step: Step }[] = [];
  for (const one of running) {
    const step = nextStep(one, from, to);
    if (step === undefined) continue;
    const at = due[0]?.step.at;
    if (at === undefined || step.at < at) due = [{ running: one, step }];
    else if (step.at === at) due.push({ running: one, step });
  }
  return due;
}

/**
 * `POST /v1/test_helpers/test_clocks/{id}/advance`: the clock moved to `frozen_time` and every
 * step of its customers' subscriptions in between run in time order, those due at one instant
 * together, at most {@link MAX_INSTANTS} instants and {@link MAX_STEPS} steps (past it refused,
 * nothing changed). Answers the
 * clock `advancing` (as Stripe does); it is kept `ready` at the new time,
 * `test_helpers.test_clock.ready` the last of the advance's events.
 */
export async function advanceClock(clock: Obj, sent: Obj, kit: FlowKit): Promise<ActionOutcome> {
  const from = Number(clock.frozen_time);
  const to = timeOf(sent.frozen_time);
  const running = await runningOn(clock, kit);
  const refused = refusedAdvance(from, to, running);
  if (refused !== undefined || to === undefined) return { error: refused ?? invalidRequest('frozen_time') };
  const advancing = { ...clock, status: 'advancing' };
  kit.snapshot('test_helpers.test_clock.advancing', advancing);
  let steps = 0;
  for (let instants = 0; ; instants++) {
    const due = dueFirst(running, from, to);
    const at = due[0]?.step.at;
    if (at === undefined) break;
    steps += due.length;
    if (instants >= MAX_INSTANTS || steps > MAX_STEPS) {
      return {
        error: invalidRequest(
          `Advancing the test clock to ${to} would run billing steps (renewals, retries, trial ends, cancels) at more than ${MAX_INSTANTS} moments, or more than ${MAX_STEPS} steps, at once; this twin bounds the work of one request. Advance it in shorter steps.`,
          'frozen_time',
        ),
      };
    }
    const moment = atClock(kit, at);
    for (const one of due) await runStep(one.running, one.step, moment);
  }
  const ready = { ...clock, frozen_time: to, status: 'ready' };
  kit.write({
    kind: 'updated',
    template: CLOCKS,
    object: ready,
    events: ['test_helpers.test_clock.ready'],
    after: true,
  });
  return { object: ready, answer: advancing, events: ['test_helpers.test_clock.advancing'] };
}
