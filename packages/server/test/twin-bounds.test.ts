// #71's M2 against the built daemon on memory, LevelDB and a real redis-server: the Stripe twin's
// read-modify-write flows run at once (one Idempotency-Key, refunds of one charge, completes and
// expires of one Checkout Session) act once, as on Stripe, on every store. And #71's S5: a document
// whose examples would explode is answered within a budget while /api/health answers within a
// second. (S1 and S3, search and expand[], are twin-stripe-bounds.test.ts's.)
import { describe, expect, it } from 'vitest';
import { type TwinStore, twinDaemon, useTwinRedis } from './helpers/twin.js';
import { watchHealth } from './helpers/watch-health.js';

const files = useTwinRedis();
const AUTH = { authorization: 'Bearer sk_test_bounds', 'content-type': 'application/x-www-form-urlencoded' };
const MB = 1024 * 1024;

/** What these tests read of an answer: a list's data, an object's id, an error. */
interface Answer {
  id?: string;
  data: { email?: string; customer: { id: string }; type?: string }[];
  latest_charge?: string;
  amount_refunded?: number;
  error: { type: string; param?: string; message: string };
}

async function stripe(
  root: string,
  method: string,
  path: string,
  form?: Record<string, string>,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${root}${path}`, {
    method,
    headers: { ...AUTH, ...headers },
    ...(form === undefined ? {} : { body: new URLSearchParams(form).toString() }),
  });
  return { status: response.status, body: (await response.json()) as Answer };
}

const stores: ['memory' | 'level' | 'redis'][] = [['memory'], ['level'], ['redis']];

/**
 * #71 S5's documents (8 KB in all): `/fan` a 20-level `allOf` of two branches each (2^20 walks
 * before), `/wide` objects of 12 long-named properties 6 levels deep (~35 MB answered before),
 * `/self` a schema whose `allOf` is itself (a 500, stack overflow, before).
 */
function explodingDocument(): Record<string, unknown> {
  const schemas: Record<string, unknown> = {};
  for (let i = 0; i < 20; i++)
    schemas[`F${i}`] = {
      allOf: [{ $ref: `#/components/schemas/F${i + 1}` }, { $ref: `#/components/schemas/F${i + 1}` }],
    };
  schemas.F20 = { type: 'object', properties: { leaf: { type: 'string' } } };
  const name = (i: number) => `property_with_a_rather_long_name_${i}`;
  for (let i = 0; i < 6; i++) {
    schemas[`W${i}`] = {
      type: 'object',
      properties: Object.fromEntries(
        Array.from({ length: 12 }, (_, j) => [name(j), { $ref: `#/components/schemas/W${i + 1}` }]),
      ),
    };
  }
  schemas.W6 = { type: 'string' };
  schemas.Self = { allOf: [{ $ref: '#/components/schemas/Self' }] };
  const get = (schema: string) => ({
    get: {
      responses: {
        200: {
          description: 'ok',
          content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } },
        },
      },
    },
  });
  return {
    openapi: '3.0.3',
    info: { title: 'exploding', version: '1' },
    paths: { '/fan': get('F0'), '/wide': get('W0'), '/self': get('Self') },
    components: { schemas },
  };
}

describe.each(stores)('on %s', (kind) => {
  const storeOf = async (): Promise<TwinStore> => (kind === 'memory' ? 'memory' : files.store(kind));

  it('runs concurrent flows once: one Idempotency-Key, refunds of one charge, completes of one session', async () => {
    const { root } = await twinDaemon('stripe', await storeOf());
    const keyed = await Promise.all(
      Array.from({ length: 10 }, () =>
        stripe(root, 'POST', '/v1/customers', { email: 'once@example.com' }, { 'idempotency-key': 'k-1' }),
      ),
    );
    expect(new Set(keyed.map((answer) => answer.body.id)).size).toBe(1);
    expect((await stripe(root, 'GET', '/v1/customers?limit=100')).body.data).toHaveLength(1);

    const paid = await stripe(root, 'POST', '/v1/payment_intents', {
      amount: '1000',
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: 'true',
    });
    const charge = paid.body.latest_charge as string;
    const refunds = await Promise.all(
      Array.from({ length: 10 }, () => stripe(root, 'POST', '/v1/refunds', { charge, amount: '600' })),
    );
    expect(refunds.map((answer) => answer.status).sort()).toEqual([200, ...Array(9).fill(400)]);
    expect((await stripe(root, 'GET', `/v1/charges/${charge}`)).body.amount_refunded).toBe(600);

    const price = await stripe(root, 'POST', '/v1/prices', {
      currency: 'usd',
      unit_amount: '700',
      'product_data[name]': 'Tee',
    });
    const session = (
      await stripe(root, 'POST', '/v1/checkout/sessions', {
        mode: 'payment',
        'line_items[0][price]': price.body.id as string,
        'line_items[0][quantity]': '1',
        success_url: 'https://example.com/ok',
      })
    ).body.id as string;
    const intentsBefore = (await stripe(root, 'GET', '/v1/payment_intents?limit=100')).body.data.length;
    const helper = `/v1/test_helpers/checkout/sessions/${session}`;
    const completes = await Promise.all(Array.from({ length: 5 }, () => stripe(root, 'POST', `${helper}/complete`)));
    expect(completes.map((answer) => answer.status).sort()).toEqual([200, 400, 400, 400, 400]);
    expect((await stripe(root, 'GET', '/v1/payment_intents?limit=100')).body.data.length).toBe(intentsBefore + 1);
    const events = (await stripe(root, 'GET', '/v1/events?limit=100')).body.data;
    expect(events.filter((event) => event.type === 'checkout.session.completed')).toHaveLength(1);

    const other = (
      await stripe(root, 'POST', '/v1/checkout/sessions', {
        mode: 'payment',
        'line_items[0][price]': price.body.id as string,
        'line_items[0][quantity]': '1',
        success_url: 'https://example.com/ok',
      })
    ).body.id as string;
    const both = await Promise.all([
      stripe(root, 'POST', `/v1/test_helpers/checkout/sessions/${other}/complete`),
      stripe(root, 'POST', `/v1/checkout/sessions/${other}/expire`),
    ]);
    expect(both.map((answer) => answer.status).sort()).toEqual([200, 400]);
  });
});

// Example generation reads no store: once, on memory.
it('answers a document whose examples would explode within a budget, and a self-reference as an object', async () => {
  const { daemon } = await twinDaemon('stripe', 'memory');
  const document = explodingDocument();
  expect(JSON.stringify(document).length).toBeLessThan(8000);
  const put = await fetch(`${daemon.url}/api/endpoints/doc/twin`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ document }),
  });
  expect(put.status).toBe(200);
  const watch = await watchHealth(daemon.url, daemon.child.pid as number);
  for (const path of ['/fan', '/wide', '/self', '/fan', '/wide']) {
    const response = await fetch(`${daemon.url}/endpoint/doc${path}`);
    const text = await response.text();
    expect(response.status, `${path}: ${text.slice(0, 200)}`).toBe(200);
    expect(text.length, path).toBeLessThan(2 * MB);
    if (path === '/self') expect(JSON.parse(text)).toEqual({});
  }
  const report = await watch.stop();
  expect(report.failed, JSON.stringify(report)).toBe(0);
  expect(report.worstMs, JSON.stringify(report)).toBeLessThan(1000);
  expect(report.rssPeak - report.rssStart, JSON.stringify(report)).toBeLessThan(200 * MB);
});
