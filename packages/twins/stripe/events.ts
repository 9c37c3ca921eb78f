/**
 * Stripe's events (docs/design.md#twins): each change the twin makes emits the event
 * Stripe's test mode emits — `customer.created`, `customer.updated`,
 * `customer.deleted`, `payment_intent.succeeded`, … — as an `event` object
 * kept where `GET /v1/events` lists it, and delivered through the delivery
 * engine to every enabled `webhook_endpoints` subscriber whose
 * `enabled_events` name it (or `*`), signed with its `whsec_` secret as Stripe
 * signs (`Stripe-Signature: t=…,v1=…`), retried on Stripe's schedule of the
 * engine (`standard`), in the order the changes were made.
 *
 * @module
 */

import type { FlowError, FlowKit, FlowTools, TwinChange } from '@mockpoint/core/internal';
import { invalidRequest } from './errors.js';
import { BASIL, eventAt, since } from './shapes.js';

/** The version of Stripe's OpenAPI document the twin is made from, for an event of no version. */
const DOCUMENT_VERSION = '2024-04-10';

/** Most webhook endpoints a Stripe account keeps (Stripe's documented limit). */
const MAX_WEBHOOK_ENDPOINTS = 16;

/** The events of a PaymentIntent that moved to each status. */
const MOVED: Record<string, string[]> = {
  // Its `charge.succeeded` is the Charge's own event (charges.ts).
  succeeded: ['payment_intent.succeeded'],
  requires_capture: ['payment_intent.amount_capturable_updated'],
  requires_action: ['payment_intent.requires_action'],
  // A delayed notification method's payment (SEPA Direct Debit, sepa.ts) until it settles.
  processing: ['payment_intent.processing'],
  // Its `charge.failed` is the failed Charge's own event (declines.ts).
  requires_payment_method: ['payment_intent.payment_failed'],
  canceled: ['payment_intent.canceled'],
};

/** The events of a SetupIntent that moved to each status (setup.ts). */
const SETUP_MOVED: Record<string, string[]> = {
  succeeded: ['setup_intent.succeeded'],
  requires_action: ['setup_intent.requires_action'],
  requires_payment_method: ['setup_intent.setup_failed'],
  canceled: ['setup_intent.canceled'],
};

/** An intent's own events and its error's member, by its `object`. */
const INTENTS: Record<string, { moved: Record<string, string[]>; error: string }> = {
  payment_intent: { moved: MOVED, error: 'last_payment_error' },
  setup_intent: { moved: SETUP_MOVED, error: 'last_setup_error' },
};

/** The types of the events a change emits. */
export function stripeEventTypes(change: TwinChange): string[] {
  const { object } = change;
  const name = object.object;
  if (typeof name !== 'string' || name === 'event' || name === 'webhook_endpoint') return [];
  // A Subscription's events are `customer.subscription.*`; Stripe sends no `checkout.session.created`
  // and no `.updated` (a session's update, checkout-update.ts, is told by no event).
  if (name === 'checkout.session' && (change.kind === 'created' || change.kind === 'updated')) return [];
  // Stripe has no `payment_method.created` (its events: attached, detached, updated, automatically_updated).
  const none = change.kind === 'action' || (name === 'payment_method' && change.kind === 'created');
  const own = none ? [] : [`${name === 'subscription' ? 'customer.subscription' : name}.${change.kind}`];
  if (name === 'subscription') return [...own, ...subscriptionMoved(change)];
  // A payout made is paid at once (payouts.ts).
  if (name === 'payout' && change.kind === 'created' && object.status === 'paid') return [...own, 'payout.paid'];
  const intent = Object.hasOwn(INTENTS, name) ? INTENTS[name] : undefined;
  if (intent === undefined || change.kind === 'deleted' || change.kind === 'updated') return own;
  // A decline leaves the intent where it was, with its error; an intent not confirmed moved nowhere.
  const status = String(object.status);
  if (status === 'requires_payment_method') {
    const error = object[intent.error];
    return error === null || error === undefined ? own : [...own, ...(intent.moved[status] ?? [])];
  }
  if (status === change.before || status === 'requires_confirmation') return own;
  return [...own, ...(intent.moved[status] ?? [])];
}

/** Stripe sends `customer.subscription.trial_will_end` three days before a trial ends (renewals.ts). */
const TRIAL_NOTICE = 3 * 86_400;

/**
 * What a Subscription's change says beside its own event: a trial made to end within 3 days, or
 * ended at once (`trial_end=now`), `customer.subscription.trial_will_end`, as Stripe sends it then;
 * a move to `paused` (a trial ended with no payment method, `trial_settings.end_behavior`)
 * `customer.subscription.paused`.
 */
function subscriptionMoved(change: TwinChange): string[] {
  const { object, previous } = change;
  const moved: string[] = [];
  const { trial_end: end, created } = object;
  if (change.kind === 'created' && object.status === 'trialing' && typeof end === 'number') {
    if (typeof created === 'number' && end - created <= TRIAL_NOTICE)
      moved.push('customer.subscription.trial_will_end');
  }
  if (change.kind !== 'updated' || previous === undefined) return moved;
  if (previous.status === 'trialing' && 'trial_end' in previous) moved.push('customer.subscription.trial_will_end');
  if (object.status === 'paused' && 'status' in previous) moved.push('customer.subscription.paused');
  return moved;
}

/**
 * An `event` object of `type` about `object` (the object as it was at the event), in the API
 * version of the request that made the change; a `*.updated` one carries `previous_attributes`,
 * the prior values of what the change changed.
 */
export function stripeEvent(
  type: string,
  object: Record<string, unknown>,
  tools: FlowTools,
  change?: TwinChange,
): Record<string, unknown> {
  const updated = type.endsWith('.updated') && change?.previous !== undefined;
  return {
    id: tools.newId('evt_'),
    object: 'event',
    api_version: change?.version ?? DOCUMENT_VERSION,
    created: Math.floor(tools.now() / 1000),
    data: updated ? { object, previous_attributes: change.previous } : { object },
    livemode: false,
    pending_webhooks: 0,
    request: { id: null, idempotency_key: null },
    type,
  };
}

/** `event` as `endpoint` takes it: in the endpoint's own `api_version` (Stripe: its events' version). */
export function forEndpoint(
  event: Record<string, unknown>,
  endpoint: Record<string, unknown>,
): Record<string, unknown> {
  const version = endpoint.api_version;
  // Its object shaped in that version as well (shapes.ts): the event keeps the canonical one.
  return eventAt(event, typeof version === 'string' ? version : String(event.api_version ?? DOCUMENT_VERSION));
}

/**
 * A new webhook endpoint's `api_version`: the one sent (refused when Stripe knows no such version),
 * else the version of the request that made it (Stripe: the account's default version).
 */
export function creatingEndpoint(
  object: Record<string, unknown>,
  sent: Record<string, unknown>,
  kit: FlowKit,
): FlowError | undefined {
  const given = sent.api_version;
  if (given !== undefined && given !== '' && given !== null) {
    const refusal = kit.checkVersion(given, 'api_version');
    if (refusal !== undefined) return refusal;
    object.api_version = given;
    return undefined;
  }
  object.api_version = kit.version ?? DOCUMENT_VERSION;
  return undefined;
}

/** Whether an endpoint (a stored `webhook_endpoint`) takes events of `type`. */
export function subscribes(endpoint: Record<string, unknown>, type: string): boolean {
  if (endpoint.status === 'disabled' || typeof endpoint.url !== 'string' || typeof endpoint.secret !== 'string') {
    return false;
  }
  // An event of an object its version does not have (invoice payments: basil) is not sent to it.
  const version = typeof endpoint.api_version === 'string' ? endpoint.api_version : DOCUMENT_VERSION;
  if (type.startsWith('invoice_payment.') && !since(version, BASIL)) return false;
  const enabled = Array.isArray(endpoint.enabled_events) ? endpoint.enabled_events : [];
  return enabled.includes('*') || enabled.includes(type);
}

/**
 * Stripe's refusal of a 17th webhook endpoint: a `400 invalid_request_error`
 * without a `code`, as Stripe sends it; the deleted ones do not count.
 */
export function endpointLimit(live: readonly Record<string, unknown>[]): FlowError | undefined {
  if (live.length < MAX_WEBHOOK_ENDPOINTS) return undefined;
  return invalidRequest(
    `You have reached the maximum of ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints on this account. Delete one you no longer use (DELETE /v1/webhook_endpoints/{id}) before adding another.`,
  );
}
