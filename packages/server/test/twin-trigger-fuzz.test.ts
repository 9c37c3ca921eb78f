// Seeded fuzz of what a trigger brings (`POST /api/endpoints/{name}/twin/trigger`,
// docs/twins.md#trigger-an-event) — its event type, the receiver `to`, the `secret` and the GitHub
// `repo` — with random code points, sent to the Stripe and GitHub twins of the built daemon on
// 127.0.0.1: every trigger is sent or refused with a stable code and a bounded message that names
// no file, what is sent reaches the receiver signed with the secret given, and /api/health answers.
import { prng, randomText } from '@mockpoint/testkit/random-text';
import { Webhooks } from '@octokit/webhooks';
import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { assertBuilt, killAll, removeTempDirs, requestJson } from './helpers/daemon.js';
import { hookReceiver, twinDaemon } from './helpers/twin.js';
import { watchWhileFuzzing } from './helpers/watch-health.js';

beforeAll(() => assertBuilt());
afterEach(() => killAll());
afterAll(() => removeTempDirs());

const SEED = 6565;
const CASES = 200;
const EVENTS = ['customer.created', 'payment_intent.succeeded', 'issues.opened', 'issue_comment.created'];
const CODES = [
  'INVALID_TRIGGER',
  'UNKNOWN_TWIN_EVENT',
  'INVALID_DELIVERY_URL',
  'DELIVERY_HOST_NOT_ALLOWED',
  'INVALID_JSON',
  'INVALID_BODY',
];

/** A value of a field: usually random text, sometimes a good one with random text in it. */
function pick(random: () => number, good: string[]): string {
  // A JSON body carries any code point but a lone surrogate (no UTF-8 for it): those go as `?`.
  const text = randomText(random, Math.floor(random() * 80)).replace(/[\uD800-\uDFFF]/g, '?');
  const roll = random();
  if (roll < 0.35) return good[Math.floor(random() * good.length)] as string;
  if (roll < 0.55) return `${good[Math.floor(random() * good.length)]}${text}`;
  return text;
}

it(`sends or refuses ${CASES} random triggers (seed ${SEED}) with stable codes, signs what it sends, and stays healthy`, async () => {
  const stripe = await twinDaemon('stripe', 'memory');
  // The GitHub twin on the same daemon: PUT at a second name.
  const { daemon } = stripe;
  const health = await watchWhileFuzzing(daemon);
  expect(
    (await requestJson(`${daemon.url}/api/endpoints/gh/twin`, { method: 'PUT', body: { provider: 'github' } })).status,
  ).toBe(200);
  const receiver = await hookReceiver();
  const random = prng(SEED);
  const statuses = new Map<string, number>();
  const signed: { name: string; secret: string }[] = [];
  try {
    for (let i = 0; i < CASES; i++) {
      const name = i % 2 === 0 ? stripe.name : 'gh';
      const body: Record<string, unknown> = { event: pick(random, EVENTS) };
      if (random() < 0.5)
        body.to = pick(random, [
          receiver.url,
          `${receiver.url}/${encodeURIComponent(randomText(random, 8).replace(/[\uD800-\uDFFF]/g, '?'))}`,
        ]);
      if (random() < 0.5) body.secret = pick(random, ['whsec_fuzz', 'It is a secret']);
      if (random() < 0.4) body.repo = pick(random, ['octo/app', 'a-b/c.d']);
      const answer = await requestJson(`${daemon.url}/api/endpoints/${name}/twin/trigger`, { method: 'POST', body });
      const error = (answer.body as { error?: { code: string; message: string } }).error;
      const key = error === undefined ? String(answer.status) : `${answer.status} ${error.code}`;
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
      if (error === undefined) {
        expect(answer.status, JSON.stringify(body)).toBe(200);
        const delivery = (answer.body as { delivery?: { secret: string } }).delivery;
        if (delivery !== undefined) signed.push({ name, secret: delivery.secret });
        if (delivery !== undefined && typeof body.secret === 'string') expect(delivery.secret).toBe(body.secret);
        continue;
      }
      expect(CODES, `${JSON.stringify(body)} → ${key}: ${error.message}`).toContain(error.code);
      expect(error.message.length, error.message).toBeLessThan(1200);
      expect(error.message).not.toMatch(/\/(tmp|work|home|root|usr)\//);
    }
    // Sent, refused as unknown and as invalid were all reached.
    expect(statuses.get('200')).toBeGreaterThan(5);
    expect(statuses.get('400 INVALID_TRIGGER')).toBeGreaterThan(5);
    expect(statuses.get('400 UNKNOWN_TWIN_EVENT')).toBeGreaterThan(0);
    // Every delivery to `to` came, signed with the secret its trigger answered.
    await receiver.until(signed.length);
    const verifier = new Stripe('sk_test_1');
    for (const { body, headers } of receiver.received) {
      const stripeSignature = headers['stripe-signature'];
      const matches = await Promise.all(
        signed.map(async ({ secret }) => {
          if (stripeSignature !== undefined) {
            try {
              verifier.webhooks.constructEvent(body, String(stripeSignature), secret);
              return true;
            } catch {
              return false;
            }
          }
          return new Webhooks({ secret }).verify(body, String(headers['x-hub-signature-256']));
        }),
      );
      expect(matches).toContain(true);
    }
    await health.check();
  } finally {
    await receiver.close();
  }
});
