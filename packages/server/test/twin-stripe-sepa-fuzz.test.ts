// Seeded fuzz of the Stripe twin's new readers of request text (docs/twins.md, "SEPA Direct Debit"
// and "Invoice item"): random code points as `sepa_debit[iban]` and as an invoice item's
// `quantity_decimal`, form-encoded as stripe-node sends them, to the built daemon on 127.0.0.1.
// Every request is answered 200 or Stripe's 400 naming the parameter, never a 500; an error echoes
// at most a bounded piece of what was sent; /api/health answers throughout.
import { prng, randomText } from '@mockpoint/testkit/random-text';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { assertBuilt, killAll, removeTempDirs } from './helpers/daemon.js';
import { twinDaemon } from './helpers/twin.js';
import { watchWhileFuzzing } from './helpers/watch-health.js';

beforeAll(() => assertBuilt());
afterEach(() => killAll());
afterAll(() => removeTempDirs());

const SEED = 4127;
const CASES = 300;

/** A form POST to the twin as stripe-node makes one, and its status and error's `param`. */
async function post(root: string, path: string, form: Record<string, string>) {
  const answer = await fetch(`${root}${path}`, {
    method: 'POST',
    headers: { authorization: 'Bearer sk_test_fuzz', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });
  const text = await answer.text();
  const body = JSON.parse(text) as { id?: string; error?: { param?: string } };
  return { status: answer.status, body, length: text.length };
}

it(`answers ${CASES} random IBANs and decimal quantities (seed ${SEED}) with 200 or Stripe's 400`, async () => {
  const { daemon, root } = await twinDaemon('stripe', 'memory');
  const customer = await post(root, '/v1/customers', { email: 'fuzz@example.com' });
  const price = await post(root, '/v1/prices', {
    'product_data[name]': 'Fuzz',
    unit_amount: '700',
    currency: 'usd',
  });
  expect([customer.status, price.status]).toEqual([200, 200]);
  const health = await watchWhileFuzzing(daemon);
  const random = prng(SEED);
  const statuses = new Map<number, number>();
  for (let i = 0; i < CASES; i++) {
    // Random code points, or digits and a dot (so that some are decimals), or a test IBAN changed.
    const roll = random();
    const text =
      roll < 0.3
        ? Array.from({ length: 1 + Math.floor(random() * 20) }, () => '0123456789.'[Math.floor(random() * 11)]).join('')
        : roll < 0.4
          ? `AT61190430023457320${Math.floor(random() * 10)}`
          : randomText(random, 1 + Math.floor(random() * 80));
    const iban = i % 2 === 0;
    const answer = iban
      ? await post(root, '/v1/payment_methods', {
          type: 'sepa_debit',
          'sepa_debit[iban]': text,
          'billing_details[name]': 'Fuzz',
          'billing_details[email]': 'fuzz@example.com',
        })
      : await post(root, '/v1/invoiceitems', {
          customer: String(customer.body.id),
          'pricing[price]': String(price.body.id),
          quantity_decimal: text,
        });
    statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    expect([200, 400], `${JSON.stringify(text)} → ${answer.status}`).toContain(answer.status);
    if (answer.status === 400) {
      expect(answer.body.error?.param).toBe(iban ? 'sepa_debit[iban]' : 'quantity_decimal');
      expect(answer.length).toBeLessThan(1200);
    }
  }
  // Both ways met: taken, and refused.
  expect(statuses.get(200)).toBeGreaterThan(10);
  expect(statuses.get(400)).toBeGreaterThan(100);
  await health.check();
});
