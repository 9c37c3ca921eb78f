/**
 * Parameters an API version took away (stripe 23.0.0's changelog, "⚠️ Remove support for …"):
 * from `2026-09-30.endive` a Checkout Session, a PaymentIntent (create, update, confirm) and a
 * SetupIntent (create, update) take no `payment_method_types` (`allowed_payment_method_types`
 * replaces it). Sent in a version that removed it, a PaymentIntent's or SetupIntent's request is
 * `400 payment_method_types_no_longer_supported` (that changelog's code), a Checkout Session's
 * `400 parameter_unknown`; an older version still takes it.
 *
 * @module
 */
import type { FlowError } from '@mockpoint/core/internal';
import { invalidRequest } from './errors.js';

/** Where a parameter is sent: an operation's kind and its collection's path. */
type Where = `${'create' | 'update' | 'confirm'} ${string}`;

/** Each removed parameter: the first version without it, and where. */
const REMOVED: readonly { since: string; param: string; where: readonly Where[]; code: string; message: string }[] = [
  {
    // The changelog's "Removes the payment method types parameter from Payment Intents and Setup
    // Intents": a 400 with its own code.
    since: '2026-09-30',
    param: 'payment_method_types',
    where: [
      'create /v1/payment_intents',
      'update /v1/payment_intents',
      'confirm /v1/payment_intents',
      'create /v1/setup_intents',
      'update /v1/setup_intents',
    ],
    code: 'payment_method_types_no_longer_supported',
    message:
      'payment_method_types is no longer supported from API version 2026-09-30.endive; send allowed_payment_method_types instead.',
  },
  {
    // Checkout's changelog names no code: refused as any parameter Stripe does not know.
    since: '2026-09-30',
    param: 'payment_method_types',
    where: ['create /v1/checkout/sessions'],
    code: 'parameter_unknown',
    message: 'Received unknown parameter: payment_method_types',
  },
];

/** Stripe's refusal of a parameter `version` no longer takes at `where`; `undefined` when it takes them all. */
export function removedParam(
  where: Where,
  sent: Record<string, unknown>,
  version: string | undefined,
): FlowError | undefined {
  // No version asked: the newest, which has removed them all.
  const at = version?.slice(0, 10) ?? '9999-12-31';
  for (const { since, param, where: places, code, message } of REMOVED) {
    if (at >= since && places.includes(where) && sent[param] !== undefined) return invalidRequest(message, param, code);
  }
  return undefined;
}
