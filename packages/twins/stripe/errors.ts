/**
 * Stripe's `invalid_request_error`s the flows answer, in the words Stripe's
 * test mode uses (`Missing required param: mode.`, `No such price: 'x'`), and
 * the links every error of Stripe carries (`doc_url`, `request_log_url`).
 *
 * @module
 */
import type { FlowError } from '@mockpoint/core/internal';

/** A `400 invalid_request_error`, with Stripe's `code` and `param` where it gives them. */
export function invalidRequest(message: string, param?: string, code?: string): FlowError {
  return {
    status: 400,
    type: 'invalid_request_error',
    message,
    ...(code === undefined ? {} : { code }),
    ...(param === undefined ? {} : { param }),
  };
}

/** Stripe's refusal of a request without a parameter it needs. */
export function missingParam(param: string): FlowError {
  return invalidRequest(`Missing required param: ${param}.`, param, 'parameter_missing');
}

/** Stripe's `404 resource_missing` for an object it does not hold (a body parameter naming one: `400`, as Stripe answers it). */
export function noSuch(what: string, id: string, param = 'id'): FlowError {
  return {
    status: 404,
    type: 'invalid_request_error',
    code: 'resource_missing',
    message: `No such ${what}: '${id.slice(0, 200)}'`,
    param,
  };
}

const SYMBOLS: Record<string, string> = { usd: '$', eur: '€', gbp: '£', jpy: '¥', cad: 'CA$', aud: 'A$' };
const ZERO_DECIMAL = new Set([
  'jpy',
  'krw',
  'vnd',
  'clp',
  'pyg',
  'xof',
  'xaf',
  'ugx',
  'rwf',
  'mga',
  'kmf',
  'gnf',
  'djf',
  'bif',
  'vuv',
  'xpf',
]);

/** An amount in a currency's smallest unit as Stripe's messages write it (`$25.00`). */
export function money(amount: number, currency: unknown): string {
  const code = String(currency ?? 'usd').toLowerCase();
  const value = ZERO_DECIMAL.has(code) ? String(amount) : (amount / 100).toFixed(2);
  const symbol = SYMBOLS[code];
  return symbol === undefined ? `${value} ${code.toUpperCase()}` : `${symbol}${value}`;
}

/** Codes of the twin's own limits: Stripe has no page for them, so their errors carry no `doc_url`. */
const TWIN_CODES = new Set([
  'collection_too_large',
  'expand_too_deep',
  'expand_too_large',
  'expand_too_many',
  'parameter_too_deep',
]);

/**
 * What Stripe adds to an error about its request: `doc_url`, its code's page
 * (`card_declined` → `https://stripe.com/docs/error-codes/card-declined`), and `request_log_url`,
 * where the Dashboard would show the request (the twin's request has no log there; the link has
 * Stripe's form). A `401` (no key, a wrong key) carries neither, as Stripe's does not.
 */
export function errorMembers(
  error: { status: number; code?: string },
  request: { id: string; now: number },
): Record<string, unknown> {
  if (error.status === 401) return {};
  const members: Record<string, unknown> = {};
  if (error.code !== undefined && error.code !== '' && !TWIN_CODES.has(error.code)) {
    members.doc_url = `https://stripe.com/docs/error-codes/${error.code.replaceAll('_', '-')}`;
  }
  members.request_log_url = `https://dashboard.stripe.com/test/logs/${request.id}?t=${Math.floor(request.now / 1000)}`;
  return members;
}

/** Whether a flow's answer is an error rather than an object (a Stripe object's `status` is never a number). */
export function isFlowError(value: object): value is FlowError {
  return typeof (value as { status?: unknown }).status === 'number' && 'message' in value;
}
