/**
 * The collections Stripe's billing flows write, by their path templates: one place, so that the
 * flows' files import them from here and not from each other.
 *
 * @module
 */

export const PRICES = '/v1/prices';
export const SUBSCRIPTIONS = '/v1/subscriptions';
export const INVOICES = '/v1/invoices';
