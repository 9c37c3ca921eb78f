/**
 * Saving a card as Stripe's test mode does (docs.stripe.com/payments/save-and-reuse): a
 * PaymentMethod made from a test token, `…/attach` to a customer (a test method such as
 * `pm_card_visa` is kept under a new `pm_` id, as Stripe clones it; `payment_method.attached`)
 * and `…/detach`, and SetupIntents confirmed with the test card's outcome — `succeeded` with
 * the method attached to the intent's customer, `requires_action` for the 3-D Secure cards, a
 * declining card's `402 card_error` with `last_setup_error` (`setup_intent.setup_failed`) — and
 * canceled. A PaymentIntent paid with a method the twin holds pays as its test card does.
 *
 * @module
 */

import type { ActionOutcome, FlowError, FlowKit } from '@mockpoint/core/internal';
import { isTestMethod, methodObject, testMethodOf } from './cards.js';
import { cardError, declineOf, lastError } from './declines.js';
import { invalidRequest, missingParam } from './errors.js';
import { creatingSepaMethod, sepaKeyOf } from './sepa.js';

export const METHODS = '/v1/payment_methods';
export const SETUP_INTENTS = '/v1/setup_intents';

type Obj = Record<string, unknown>;

/** The cards that ask for 3-D Secure when saved. */
const AUTHENTICATING = new Set(['pm_card_authenticationRequired', 'pm_card_authenticationRequiredOnSetup']);

/**
 * The test method `method` pays as: itself, or the one a PaymentMethod the twin holds was made
 * from; `undefined` for an id the twin does not know (it pays as `pm_card_visa`).
 */
export async function testOf(method: unknown, kit: FlowKit): Promise<string | undefined> {
  if (isTestMethod(method)) return method;
  if (typeof method !== 'string' || !method.startsWith('pm_')) return undefined;
  const found = await kit.find(method);
  if (found?.object !== 'payment_method') return undefined;
  return found.type === 'sepa_debit' ? sepaKeyOf(found) : testMethodOf(found);
}

/**
 * A new PaymentMethod of `type: card` from a test token (`tok_visa` is `pm_card_visa`'s card), or
 * of `type: sepa_debit` from an IBAN (sepa.ts); Stripe's refusal of an IBAN it cannot take.
 */
export function creatingMethod(method: Obj, sent: Obj, kit: FlowKit): FlowError | undefined {
  if (sent.type === 'sepa_debit') return creatingSepaMethod(method, sent);
  if (sent.type !== 'card') return undefined;
  const card = sent.card as Obj | undefined;
  const token = typeof card?.token === 'string' ? card.token : 'tok_visa';
  const test = `pm_card_${token.replace(/^tok_/, '')}`;
  const shown = methodObject(isTestMethod(test) ? test : 'pm_card_visa', String(method.id), null, kit.now());
  const exampleType = method.type;
  if (typeof exampleType === 'string' && exampleType !== 'card') delete method[exampleType];
  Object.assign(method, shown, { metadata: method.metadata ?? {} });
  return undefined;
}

/** The `402 card_error` of a card that declines when saved (every declining one but `pm_card_chargeCustomerFail`). */
function savedDecline(test: string | undefined, extra: Obj): FlowError | undefined {
  if (test === undefined || test === 'pm_card_chargeCustomerFail') return undefined;
  const how = declineOf(test);
  return how === undefined ? undefined : cardError(how, extra);
}

/**
 * `method` attached to `customer`: a test method as a new PaymentMethod (written, with
 * `payment_method.attached`), one the twin holds changed in place; its error when it cannot be.
 */
async function attached(
  method: string,
  stored: Obj | undefined,
  customer: string,
  kit: FlowKit,
): Promise<{ object: Obj; written: boolean } | FlowError> {
  const test = await testOf(method, kit);
  const refused = savedDecline(test, {});
  if (refused !== undefined) return refused;
  if (stored === undefined) {
    const object = methodObject(test ?? 'pm_card_visa', kit.newId('pm_'), customer, kit.now());
    kit.write({ kind: 'created', template: METHODS, object, events: ['payment_method.attached'], after: true });
    return { object, written: true };
  }
  if (typeof stored.customer === 'string' && stored.customer !== customer) {
    return invalidRequest('The payment method you provided has already been attached to a customer.');
  }
  return { object: { ...stored, customer }, written: false };
}

/** `POST /v1/payment_methods/{id}/attach` and `…/detach`; `undefined` for a method the twin neither holds nor knows. */
export async function methodAction(
  tail: string,
  id: string,
  stored: Obj | undefined,
  sent: Obj,
  kit: FlowKit,
): Promise<ActionOutcome | undefined> {
  if (stored === undefined && !isTestMethod(id)) return undefined;
  if (tail === 'detach') {
    if (stored === undefined || typeof stored.customer !== 'string') {
      return {
        error: invalidRequest(
          'The payment method you provided is not attached to a customer so detachment is impossible.',
        ),
      };
    }
    return { object: { ...stored, customer: null }, events: ['payment_method.detached'] };
  }
  if (typeof sent.customer !== 'string' || sent.customer === '') return { error: missingParam('customer') };
  const made = await attached(id, stored, sent.customer, kit);
  if ('status' in made && typeof made.status === 'number') return { error: made as FlowError };
  const { object, written } = made as { object: Obj; written: boolean };
  // A clone is written as its own object (its event with it); the test method itself stays unkept.
  return { object, events: written ? [] : ['payment_method.attached'] };
}

/**
 * Confirms SetupIntent `intent` with its payment method, as its test card does; the error a
 * declining card answers (the intent kept, back at `requires_payment_method`).
 */
async function confirmSetup(intent: Obj, kit: FlowKit): Promise<FlowError | undefined> {
  const method = intent.payment_method;
  if (typeof method !== 'string' || method === '') {
    return invalidRequest(
      'You cannot confirm this SetupIntent because it has no payment method. Pass one as `payment_method`, e.g. pm_card_visa.',
      'payment_method',
      'setup_intent_unexpected_state',
    );
  }
  const test = await testOf(method, kit);
  const how = test === undefined || test === 'pm_card_chargeCustomerFail' ? undefined : declineOf(test);
  if (how !== undefined) {
    const paymentMethod = methodObject(test as string, method, null, kit.now());
    intent.status = 'requires_payment_method';
    intent.payment_method = null;
    intent.last_setup_error = lastError(how, paymentMethod);
    return savedDecline(test, { setup_intent: { ...intent }, payment_method: paymentMethod });
  }
  if (test !== undefined && AUTHENTICATING.has(test)) {
    intent.status = 'requires_action';
    intent.next_action = { type: 'use_stripe_sdk', use_stripe_sdk: { type: 'three_d_secure_redirect' } };
    return undefined;
  }
  if (typeof intent.customer === 'string' && intent.customer !== '') {
    const stored = isTestMethod(method) ? undefined : await kit.find(method);
    const made = await attached(method, stored, intent.customer, kit);
    if ('object' in made) {
      const object = (made as { object: Obj }).object;
      if (!(made as { written: boolean }).written) {
        kit.write({ kind: 'updated', template: METHODS, object, events: ['payment_method.attached'], after: true });
      }
      intent.payment_method = object.id;
    }
  }
  intent.status = 'succeeded';
  intent.last_setup_error = null;
  intent.next_action = null;
  return undefined;
}

/** What a SetupIntent create with `confirm: true` answered, for {@link createdSetup} (the same object). */
const CONFIRMED = new WeakMap<Obj, FlowError>();

/** A new SetupIntent's state (before it is stored): confirmed at once with `confirm: true`. */
export async function creatingSetup(intent: Obj, sent: Obj, kit: FlowKit): Promise<undefined> {
  intent.client_secret = `${String(intent.id)}_secret_${kit.newId('').slice(0, 16)}`;
  intent.customer = typeof sent.customer === 'string' ? sent.customer : null;
  intent.usage = typeof sent.usage === 'string' ? sent.usage : 'off_session';
  intent.payment_method = typeof sent.payment_method === 'string' ? sent.payment_method : null;
  intent.last_setup_error = null;
  intent.next_action = null;
  intent.cancellation_reason = null;
  intent.status = intent.payment_method === null ? 'requires_payment_method' : 'requires_confirmation';
  if (sent.confirm === true) {
    // Its `setup_intent.created` shows it as made, before the confirm moves it on.
    kit.snapshot('setup_intent.created', { ...intent });
    const error = await confirmSetup(intent, kit);
    if (error !== undefined) CONFIRMED.set(intent, error);
  }
  return undefined;
}

/** The error a SetupIntent made with `confirm: true` answers once it is stored (a declining card's). */
export function createdSetup(intent: Obj): FlowError | undefined {
  const error = CONFIRMED.get(intent);
  CONFIRMED.delete(intent);
  return error;
}

function unexpectedSetup(intent: Obj, verb: string): FlowError {
  return invalidRequest(
    `This SetupIntent's status is ${String(intent.status)}; it cannot be ${verb}.`,
    undefined,
    'setup_intent_unexpected_state',
  );
}

/** `POST /v1/setup_intents/{id}/confirm` and `…/cancel` on a SetupIntent the twin holds. */
export async function setupAction(tail: string, stored: Obj, sent: Obj, kit: FlowKit): Promise<ActionOutcome> {
  const next = { ...stored };
  if (next.status === 'succeeded' || next.status === 'canceled') {
    return { error: unexpectedSetup(next, tail === 'confirm' ? 'confirmed' : 'canceled') };
  }
  if (tail === 'cancel') {
    next.status = 'canceled';
    next.cancellation_reason = typeof sent.cancellation_reason === 'string' ? sent.cancellation_reason : null;
    return { object: next };
  }
  if (typeof sent.payment_method === 'string') next.payment_method = sent.payment_method;
  const error = await confirmSetup(next, kit);
  return error === undefined ? { object: next } : { object: next, error };
}
