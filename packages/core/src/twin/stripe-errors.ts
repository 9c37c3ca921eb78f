/**
 * Stripe's `invalid_request_error`s the flows answer, in the words Stripe's
 * test mode uses (`Missing required param: mode.`, `No such price: 'x'`).
 *
 * @module
 */
import type { FlowError } from './twin-flows.js';

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

/** Stripe's `404 resource_missing` for an object it does not hold. */
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

/** Whether a flow's answer is an error rather than an object (a Stripe object's `status` is never a number). */
export function isFlowError(value: object): value is FlowError {
  return typeof (value as { status?: unknown }).status === 'number' && 'message' in value;
}
