/**
 * Parameters an API version took away (stripe 23.0.0's changelog, "⚠️ Remove support for …"):
 * from `2026-09-30.endive` a Checkout Session, a PaymentIntent (create, update, confirm) and a
 * SetupIntent (create, update) take no `payment_method_types` (`allowed_payment_method_types`
 * replaces it). Sent in a version that removed it, the request is refused as Stripe refuses a
 * parameter it does not know, `400 parameter_unknown`; an older version still takes it.
 *
 * @module
 */
import type { FlowError } from '@mockpoint/core/internal';
import { invalidRequest } from './errors.js';

/** Where a parameter is sent: an operation's kind and its collection's path. */
type Where = `${'create' | 'update' | 'confirm'} ${string}`;

/** Each removed parameter: the first version without it, and where. */
const REMOVED: readonly { since: string; param: string; where: readonly Where[] }[] = [
  {
    since: '2026-09-30',
    param: 'payment_method_types',
    where: [
      'create /v1/checkout/sessions',
      'create /v1/payment_intents',
      'update /v1/payment_intents',
      'confirm /v1/payment_intents',
      'create /v1/setup_intents',
      'update /v1/setup_intents',
    ],
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
  for (const { since, param, where: places } of REMOVED) {
    if (at >= since && places.includes(where) && sent[param] !== undefined) {
      return invalidRequest(`Received unknown parameter: ${param}`, param, 'parameter_unknown');
    }
  }
  return undefined;
}
