// The Stripe twin's refusals of an invoice item's `quantity_decimal` (docs/twins.md, "Invoice item"),
// sent form-encoded as stripe-node sends them to the built daemon on 127.0.0.1, on memory and LevelDB:
// each is Stripe's `400 invalid_request_error` with a `code` and the `param`, as Stripe answers a
// parameter it cannot read, and echoes at most a bounded piece of what was sent.
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { assertBuilt, killAll, removeTempDirs } from './helpers/daemon.js';
import { twinDaemon } from './helpers/twin.js';

beforeAll(() => assertBuilt());
afterEach(() => killAll());
afterAll(() => removeTempDirs());

interface StripeError {
  type?: string;
  code?: string;
  param?: string;
  message?: string;
  doc_url?: string;
}

async function post(root: string, path: string, form: Record<string, string>) {
  const answer = await fetch(`${root}${path}`, {
    method: 'POST',
    headers: { authorization: 'Bearer sk_test_quantity', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });
  const text = await answer.text();
  return { status: answer.status, body: JSON.parse(text) as { id?: string; error?: StripeError }, length: text.length };
}

for (const store of ['memory', 'level'] as const) {
  it(`refuses quantity_decimal 1e3, -1, NaN and 5,000 digits with a code and param (${store})`, async () => {
    const { root } = await twinDaemon('stripe', store);
    const customer = await post(root, '/v1/customers', { email: 'quantity@example.com' });
    const price = await post(root, '/v1/prices', { 'product_data[name]': 'Q', unit_amount: '700', currency: 'usd' });
    const item = (quantity_decimal: string) =>
      post(root, '/v1/invoiceitems', {
        customer: String(customer.body.id),
        'pricing[price]': String(price.body.id),
        quantity_decimal,
      });
    const refusals: Record<string, { status: number; error: StripeError; length: number }> = {};
    for (const bad of ['1e3', '-1', 'NaN', '9'.repeat(5000), '1.0000000000001', '']) {
      const answer = await item(bad);
      refusals[bad.slice(0, 8)] = { status: answer.status, error: answer.body.error ?? {}, length: answer.length };
    }
    for (const [bad, { status, error, length }] of Object.entries(refusals)) {
      expect([bad, status, error.type, error.param], JSON.stringify(error)).toEqual([
        bad,
        400,
        'invalid_request_error',
        'quantity_decimal',
      ]);
      expect(error.code, `${bad}: ${JSON.stringify(error)}`).toMatch(/^parameter_invalid_/);
      expect(error.doc_url).toBe(`https://stripe.com/docs/error-codes/${String(error.code).replaceAll('_', '-')}`);
      expect(length).toBeLessThan(1200);
    }
    expect(refusals['-1']?.error.message).toContain('greater than or equal to 0');
    expect(refusals['']?.error.code).toBe('parameter_invalid_empty');
    expect(refusals['1e3']?.error.code).toBe('parameter_invalid_integer');
    // Both at once: Stripe's code for a pair of exclusive parameters.
    const both = await post(root, '/v1/invoiceitems', {
      customer: String(customer.body.id),
      'pricing[price]': String(price.body.id),
      quantity: '2',
      quantity_decimal: '2',
    });
    expect([both.status, both.body.error?.code, both.body.error?.param]).toEqual([
      400,
      'parameters_exclusive',
      'quantity_decimal',
    ]);
    // A good one is still taken.
    const good = await item('2.5');
    expect(good.status).toBe(200);
  });
}
