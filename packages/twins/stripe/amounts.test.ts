import { describe, expect, it } from 'vitest';
import { AMOUNT_MAX, checkAmount } from './amounts.js';

describe("Stripe's bounds of an amount", () => {
  it('refuses a payment of less than 1, and of less than $0.50 in USD', () => {
    expect(checkAmount('/v1/payment_intents', { amount: 0, currency: 'usd' })?.code).toBe('parameter_invalid_integer');
    expect(checkAmount('/v1/payment_intents', { amount: -5, currency: 'eur' })?.code).toBe('parameter_invalid_integer');
    expect(checkAmount('/v1/charges', { amount: 49, currency: 'usd' })?.code).toBe('amount_too_small');
    expect(checkAmount('/v1/payment_intents', { amount: 50, currency: 'usd' })).toBeUndefined();
  });

  it('takes a negative credit on a customer balance and a negative invoice item, within the same bound', () => {
    const balance = '/v1/customers/{customer}/balance_transactions';
    expect(checkAmount(balance, { amount: -500, currency: 'usd' })).toBeUndefined();
    expect(checkAmount('/v1/invoiceitems', { amount: -100, currency: 'usd' })).toBeUndefined();
    expect(checkAmount(balance, { amount: -AMOUNT_MAX - 1, currency: 'usd' })?.code).toBe('amount_too_large');
    expect(checkAmount(balance, { amount: 0, currency: 'usd' })?.code).toBe('parameter_invalid_integer');
  });
});
