// The Stripe twin (docs/twins.md) through stripe-node 15.0.0 (API 2024-04-10), the official SDK,
// against the built daemon serving the twin at the root of a port of its own (`--serve`), on
// LevelDB and on a real redis-server: customers kept exact and paged as Stripe pages them,
// idempotency keys, the PaymentIntent flows of the test payment methods, `expand[]`, auth and
// Stripe's errors. Every process listens on 127.0.0.1.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { type Daemon, makeTempDir, requestJson, runCli, startDaemon } from './helpers/daemon.js';
import { sharedTwinDaemon, type TwinDaemon, twinDaemon, useTwinRedis } from './helpers/twin.js';

const twinRedis = useTwinRedis();

/** A Stripe twin served at the root of its own port (`made`), and a stripe-node client for it. */
async function stripeTwin(
  made: Promise<TwinDaemon>,
  key = 'sk_test_123',
): Promise<{ daemon: Daemon; stripe: Stripe; root: string }> {
  const { daemon, root, port } = await made;
  const stripe = new Stripe(key, { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 });
  return { daemon, stripe, root };
}

it("answers every operation of Stripe's 2024-04-10 document from its examples, the path's ids reflected (unseen: examples)", async () => {
  const { stripe, root } = await stripeTwin(twinDaemon('stripe', 'level', { unseen: 'examples' }));
  const { load } = await import('@mockpoint/twins');
  const { document, additions } = await load('stripe');
  const operations = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
    ['get', 'post', 'delete'].filter((method) => item[method] !== undefined).map((method) => [method, path] as const),
  );
  expect(operations.length).toBeGreaterThan(500);
  const failed: string[] = [];
  const missing: string[] = [];
  for (const [method, template] of operations) {
    const path = template.replace(/\{([^}]+)\}/g, (_, param: string) => `${param}_123`);
    const response = await fetch(`${root}${path}`, {
      method: method.toUpperCase(),
      headers: { authorization: 'Bearer sk_test_1' },
    });
    const body = (await response.json()) as { error?: { code?: string }; id?: unknown };
    // A create without what Stripe requires is refused (twin-stripe-flows.test.ts); counted below.
    if (response.status === 400 && body.error?.code === 'parameter_missing') {
      missing.push(`${method} ${template}`);
      continue;
    }
    // stripe-node reads a truthy `error` as a failure (a report run's `error` is null).
    if (response.status !== 200 || body.error) failed.push(`${method} ${template} → ${response.status}`);
    // The last id of the path is the object's (as stripe-mock reflects it).
    const last = /\{([^}]+)\}$/.exec(template)?.[1];
    if (method === 'get' && last !== undefined && body.id !== undefined && body.id !== `${last}_123`) {
      failed.push(`${method} ${template}: id ${String(body.id)}`);
    }
  }
  expect(failed).toEqual([]);
  // Only the operations whose body the document requires something of (but what stripe-node 23 no
  // longer declares: promotion codes' `coupon`), searches, and the flows that need one.
  const requiring = operations.filter(([method, template]) => {
    const body = (document.paths as Record<string, Record<string, Record<string, unknown>>>)[template]?.[method]
      ?.requestBody as { content?: Record<string, { schema?: { required?: unknown[] } }> } | undefined;
    const optional = additions?.[`${method.toUpperCase()} ${template}`]?.optional ?? [];
    // A file upload's body is multipart/form-data (POST /v1/files: `file` and `purpose`).
    const content = body?.content?.['application/x-www-form-urlencoded'] ?? body?.content?.['multipart/form-data'];
    const required = content?.schema?.required ?? [];
    return required.some((name) => !optional.includes(name as string));
  });
  expect(missing.sort()).toEqual(
    [
      ...requiring.map(([method, template]) => `${method} ${template}`),
      // A search without its required `query` is Stripe's `parameter_missing` too.
      ...operations.filter(([, template]) => template.endsWith('/search')).map(([m, t]) => `${m} ${t}`),
      'post /v1/checkout/sessions',
      'post /v1/refunds',
    ].sort(),
  );
  // A list the twin never wrote answers the document's page of one; a search counts it.
  const found = await stripe.charges.search({ query: 'currency:"usd"' });
  expect([found.data.length, found.total_count]).toEqual([1, 1]);
});

it('--twin stripe=0 makes the twin at start and serves it at a port of its own; an unknown provider stops start-up', async () => {
  const daemon = await startDaemon({ args: ['--memory', '--twin', 'stripe=0'] });
  const note = daemon.notes.find((line) => line.startsWith('stripe served at '));
  expect(note, daemon.startLine).toBeDefined();
  const { port } = new URL((note as string).slice('stripe served at '.length));
  const stripe = new Stripe('sk_test_1', { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 });
  const customer = await stripe.customers.create({ email: 'start@example.com' });
  expect(await stripe.customers.retrieve(customer.id)).toMatchObject({ email: 'start@example.com' });
  expect((await requestJson(`${daemon.url}/api/endpoints/stripe/twin`)).body).toMatchObject({
    provider: 'stripe',
    unseen: 'missing',
  });
  // In memory: an unknown id is Stripe's 404, a fresh list holds only what exists.
  const unknown = await stripe.customers.retrieve('cus_doesnotexist123').catch((e: unknown) => e);
  expect(unknown).toMatchObject({ statusCode: 404, code: 'resource_missing' });
  expect((await stripe.customers.list({ email: 'x@example.com' })).data).toEqual([]);
  // An action on an object it never made is Stripe's 404 too (it answered a made-up object).
  for (const act of [
    () => stripe.paymentIntents.confirm('pi_doesnotexist123'),
    () => stripe.invoices.pay('in_doesnotexist123'),
    () => stripe.checkout.sessions.expire('cs_test_doesnotexist123'),
    () => stripe.testHelpers.testClocks.advance('clock_doesnotexist123', { frozen_time: 1_900_000_000 }),
    () => stripe.paymentMethods.attach('pm_doesnotexist123', { customer: customer.id }),
    // The document names the id `{subscription}` here and `{subscription_exposed_id}` at the object.
    () => stripe.subscriptions.resume('sub_doesnotexist123'),
    // And a create below one (it made a tax id of a customer that does not exist).
    () => stripe.customers.createTaxId('cus_doesnotexist123', { type: 'eu_vat', value: 'DE123456789' }),
  ]) {
    expect(await act().catch((e: unknown) => e)).toMatchObject({ statusCode: 404, code: 'resource_missing' });
  }
  // In a namespace, the same; with `unseen: "examples"` the document's examples, as stripe-mock answers.
  expect((await requestJson(`${daemon.url}/api/namespaces`, { method: 'POST', body: { name: 'one' } })).status).toBe(
    201,
  );
  const twin = `${daemon.url}/ns/one/api/endpoints/s/twin`;
  expect((await requestJson(twin, { method: 'PUT', body: { provider: 'stripe' } })).status).toBe(200);
  const get = (path: string) =>
    fetch(`${daemon.url}/ns/one/endpoint/s${path}`, { headers: { authorization: 'Bearer sk_test_1' } }).then(
      async (response) => ({ status: response.status, body: (await response.json()) as Record<string, unknown> }),
    );
  expect(await get('/v1/customers/cus_x')).toMatchObject({
    status: 404,
    body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: "No such customer: 'cus_x'" } },
  });
  expect(await get('/v1/customers?email=a%40b.c')).toMatchObject({ status: 200, body: { data: [] } });
  const examples = await requestJson(twin, { method: 'PUT', body: { provider: 'stripe', unseen: 'examples' } });
  expect(examples).toMatchObject({ status: 200, body: { unseen: 'examples' } });
  expect(await get('/v1/customers/cus_x')).toMatchObject({ status: 200, body: { id: 'cus_x', object: 'customer' } });
  const confirm = await fetch(`${daemon.url}/ns/one/endpoint/s/v1/payment_intents/pi_x/confirm`, {
    method: 'POST',
    headers: { authorization: 'Bearer sk_test_1' },
  });
  expect([confirm.status, ((await confirm.json()) as { object?: string }).object]).toEqual([200, 'payment_intent']);
  expect(((await get('/v1/customers')).body.data as unknown[]).length).toBe(1);
  const wrong = await requestJson(twin, { method: 'PUT', body: { provider: 'stripe', unseen: 'sometimes' } });
  expect(wrong).toMatchObject({ status: 400, body: { error: { code: 'INVALID_TWIN' } } });
  const refused = await runCli({ args: ['--memory', '--port', '0', '--twin', 'paypal=0'] });
  expect([refused.code, refused.stderr.trim()]).toEqual([
    1,
    'mockpoint: error: --twin: "paypal" is no provider; one of stripe, github',
  ]);
});

it('--twin stripe=0 on LevelDB keeps the unseen the twin was given before the restart', async () => {
  const dir = await makeTempDir();
  const args = ['--data-dir', dir, '--twin', 'stripe=0'];
  const first = await startDaemon({ args });
  const put = await requestJson(`${first.url}/api/endpoints/stripe/twin`, {
    method: 'PUT',
    body: { provider: 'stripe', unseen: 'examples' },
  });
  expect(put.status).toBe(200);
  await first.stop();
  const again = await startDaemon({ args });
  expect((await requestJson(`${again.url}/api/endpoints/stripe/twin`)).body).toMatchObject({ unseen: 'examples' });
});

describe.each(['level', 'redis'] as const)('the Stripe twin through stripe-node (%s)', (store) => {
  // One daemon for the store's six tests, each with a twin at a name of its own.
  const twins = sharedTwinDaemon('stripe', () => twinRedis.store(store), 6);

  it('keeps customers exact, updates them, deletes them, and pages them with starting_after and has_more', async () => {
    const { stripe } = await stripeTwin(twins());
    const made: Stripe.Response<Stripe.Customer>[] = [];
    for (const n of [1, 2, 3]) {
      made.push(
        await stripe.customers.create({
          email: `jenny${n}@example.com`,
          name: `Jenny ${n}`,
          metadata: { order: `67${n}` },
        }),
      );
    }
    const first = made[0] as Stripe.Response<Stripe.Customer>;
    expect(first.id).toMatch(/^cus_[A-Za-z0-9]{24}$/);
    expect(first).toMatchObject({ object: 'customer', email: 'jenny1@example.com', metadata: { order: '671' } });
    expect(typeof first.created).toBe('number');

    const read = await stripe.customers.retrieve(first.id);
    expect(read).toEqual(first);
    // Every answer carries its own Request-Id, which stripe-node reads into lastResponse.requestId.
    expect(first.lastResponse.requestId).toMatch(/^req_[A-Za-z0-9]{14}$/);
    expect(read.lastResponse.requestId).toMatch(/^req_[A-Za-z0-9]{14}$/);
    expect(read.lastResponse.requestId).not.toBe(first.lastResponse.requestId);
    // Made without metadata: `{}`, as Stripe answers it; a key set to '' is removed, metadata '' clears it.
    const bare = await stripe.customers.create({ name: 'No Metadata' });
    expect(bare.metadata).toEqual({});
    expect((await stripe.customers.retrieve(bare.id)) as Stripe.Customer).toMatchObject({ metadata: {} });
    const tagged = await stripe.customers.update(bare.id, { metadata: { a: '1', b: '2' } });
    expect(tagged.metadata).toEqual({ a: '1', b: '2' });
    expect((await stripe.customers.update(bare.id, { metadata: { a: '' } })).metadata).toEqual({ b: '2' });
    expect((await stripe.customers.update(bare.id, { metadata: '' })).metadata).toEqual({});
    await stripe.customers.del(bare.id);
    // Where the document's schema gives metadata as nullable (a Coupon's), `{}` too, as Stripe answers it.
    expect((await stripe.coupons.create({ percent_off: 25, duration: 'once' })).metadata).toEqual({});
    const updated = await stripe.customers.update(first.id, {
      metadata: { tier: 'gold', order: '' },
      phone: '+15555550100',
    });
    expect(updated).toMatchObject({ email: 'jenny1@example.com', phone: '+15555550100', metadata: { tier: 'gold' } });

    // Newest first, as Stripe lists.
    const page = await stripe.customers.list({ limit: 2 });
    expect([page.data.map((c) => c.email), page.has_more]).toEqual([
      ['jenny3@example.com', 'jenny2@example.com'],
      true,
    ]);
    const rest = await stripe.customers.list({ limit: 2, starting_after: (page.data[1] as Stripe.Customer).id });
    expect([rest.data.map((c) => c.email), rest.has_more]).toEqual([['jenny1@example.com'], false]);
    expect((await stripe.customers.list().autoPagingToArray({ limit: 10 })).length).toBe(3);
    const found = await stripe.customers.search({ query: "metadata['order']:'672'" });
    expect(found.data.map((c) => c.email)).toEqual(['jenny2@example.com']);

    expect(await stripe.customers.del(first.id)).toEqual({ id: first.id, object: 'customer', deleted: true });
    expect(await stripe.customers.retrieve(first.id)).toMatchObject({ id: first.id, deleted: true });
    expect((await stripe.customers.list()).data.length).toBe(2);
    // An id the twin never saw is Stripe's 404 (docs/design.md#twins-as-the-provider-answers), as stripe-node reads it.
    const unknown = await stripe.customers.retrieve('cus_doesnotexist123').catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(unknown).toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
      param: 'id',
      message: "No such customer: 'cus_doesnotexist123'",
    });
    // Its Request-Id (err.requestId) and the links Stripe's errors carry.
    const missing = unknown as Stripe.errors.StripeInvalidRequestError;
    expect(missing.requestId).toMatch(/^req_[A-Za-z0-9]{14}$/);
    expect(missing.raw).toMatchObject({
      doc_url: 'https://stripe.com/docs/error-codes/resource-missing',
      request_log_url: expect.stringMatching(
        new RegExp(`^https://dashboard\\.stripe\\.com/test/logs/${missing.requestId}\\?t=\\d+$`),
      ),
    });
    for (const write of [
      () => stripe.customers.update('cus_doesnotexist123', { name: 'x' }),
      () => stripe.customers.del('cus_doesnotexist123'),
    ]) {
      expect(await write().catch((e: unknown) => e)).toMatchObject({ statusCode: 404, code: 'resource_missing' });
    }
  });

  it('lists nothing it never made, and a filter never matches a customer without the field', async () => {
    const { stripe } = await stripeTwin(twins());
    // A fresh twin lists nothing (it answered the document's example customer "id").
    expect((await stripe.customers.list({ email: 'jenny@example.com' })).data).toEqual([]);
    expect((await stripe.customers.list()).data).toEqual([]);
    expect((await stripe.charges.list()).data).toEqual([]);
    const noEmail = await stripe.customers.create({ name: 'No Email' });
    expect(noEmail.email).toBeNull();
    const jenny = await stripe.customers.create({ email: 'jenny@example.com' });
    expect((await stripe.customers.list({ email: 'anything@example.com' })).data).toEqual([]);
    expect((await stripe.customers.list({ email: 'jenny@example.com' })).data.map((c) => c.id)).toEqual([jenny.id]);
  });

  it('answers an idempotent retry with the first answer, and refuses the key with other parameters', async () => {
    const { stripe } = await stripeTwin(twins());
    const once = await stripe.customers.create({ email: 'a@example.com' }, { idempotencyKey: 'key-1' });
    const again = await stripe.customers.create({ email: 'a@example.com' }, { idempotencyKey: 'key-1' });
    expect(again.id).toBe(once.id);
    expect(again.lastResponse.headers['idempotent-replayed']).toBe('true');
    // As Stripe answers a replay: a Request-Id of its own, Original-Request naming the first request.
    expect(once.lastResponse.headers['original-request']).toBe(once.lastResponse.requestId);
    expect(again.lastResponse.requestId).toMatch(/^req_/);
    expect(again.lastResponse.requestId).not.toBe(once.lastResponse.requestId);
    expect(again.lastResponse.headers['original-request']).toBe(once.lastResponse.requestId);
    const refused = await stripe.customers
      .create({ email: 'b@example.com' }, { idempotencyKey: 'key-1' })
      .catch((e) => e);
    expect(refused).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect((await stripe.customers.list()).data.length).toBe(1);
  });

  it('moves PaymentIntents as the test payment methods do, and expands their customer', async () => {
    const { stripe } = await stripeTwin(twins());
    const customer = await stripe.customers.create({ email: 'payer@example.com' });
    const paid = await stripe.paymentIntents.create({
      amount: 2000,
      currency: 'usd',
      customer: customer.id,
      payment_method: 'pm_card_visa',
      confirm: true,
    });
    expect(paid).toMatchObject({ status: 'succeeded', amount: 2000, amount_received: 2000, currency: 'usd' });
    expect(paid.id).toMatch(/^pi_/);
    expect(paid.metadata).toEqual({});
    // Its Charge shows the test card, as Stripe's does.
    const charge = await stripe.charges.retrieve(paid.latest_charge as string);
    expect(charge.metadata).toEqual({});
    expect(charge.payment_method_details).toMatchObject({
      type: 'card',
      card: {
        brand: 'visa',
        last4: '4242',
        funding: 'credit',
        country: 'US',
        network: 'visa',
        checks: { cvc_check: 'pass' },
        exp_year: expect.any(Number),
      },
    });
    expect(charge.payment_method_details?.card?.exp_month).toBeGreaterThanOrEqual(1);
    const master = await stripe.paymentIntents.create({
      amount: 1500,
      currency: 'usd',
      payment_method: 'pm_card_mastercard',
      confirm: true,
    });
    const masterCharge = await stripe.charges.retrieve(master.latest_charge as string);
    expect(masterCharge.payment_method_details?.card).toMatchObject({ brand: 'mastercard', last4: '4444' });
    const found = await stripe.charges.search({ query: "payment_method_details.card.last4:'4444'" });
    expect(found.data.map((c) => c.id)).toEqual([masterCharge.id]);
    const expanded = await stripe.paymentIntents.retrieve(paid.id, { expand: ['customer'] });
    expect(expanded.customer).toMatchObject({ id: customer.id, email: 'payer@example.com' });

    const declined = await stripe.paymentIntents.create({ amount: 500, currency: 'usd' });
    expect(declined.status).toBe('requires_payment_method');
    const error = await stripe.paymentIntents
      .confirm(declined.id, { payment_method: 'pm_card_chargeDeclined' })
      .catch((e) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect([error.code, error.decline_code, error.statusCode]).toEqual(['card_declined', 'generic_decline', 402]);
    expect(error.requestId).toMatch(/^req_/);
    expect(error.raw.doc_url).toBe('https://stripe.com/docs/error-codes/card-declined');
    expect((await stripe.paymentIntents.retrieve(declined.id)).status).toBe('requires_payment_method');

    const secure = await stripe.paymentIntents.create({
      amount: 700,
      currency: 'eur',
      payment_method: 'pm_card_authenticationRequired',
      confirm: true,
    });
    expect([secure.status, secure.next_action?.type]).toEqual(['requires_action', 'use_stripe_sdk']);

    const held = await stripe.paymentIntents.create({ amount: 900, currency: 'usd', capture_method: 'manual' });
    expect((await stripe.paymentIntents.confirm(held.id, { payment_method: 'pm_card_visa' })).status).toBe(
      'requires_capture',
    );
    expect((await stripe.paymentIntents.capture(held.id)).status).toBe('succeeded');
    const dropped = await stripe.paymentIntents.create({ amount: 100, currency: 'usd' });
    expect((await stripe.paymentIntents.cancel(dropped.id)).status).toBe('canceled');
  });

  it('sends each change as a Stripe event, signed so that stripe.webhooks.constructEvent accepts it, and lists it', async () => {
    const { stripe } = await stripeTwin(twins());
    const received: { body: string; signature: string }[] = [];
    const waiters: (() => void)[] = [];
    const receiver = createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => {
        body += chunk;
      });
      request.on('end', () => {
        received.push({ body, signature: String(request.headers['stripe-signature']) });
        response.end('ok');
        for (const wake of waiters.splice(0)) wake();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    try {
      const endpoint = await stripe.webhookEndpoints.create({ url, enabled_events: ['*'] });
      expect(endpoint.secret).toMatch(/^whsec_/);
      const customer = await stripe.customers.create({ email: 'hook@example.com' });
      await stripe.paymentIntents.create({
        amount: 1200,
        currency: 'usd',
        customer: customer.id,
        payment_method: 'pm_card_visa',
        confirm: true,
      });
      const wanted = ['customer.created', 'payment_intent.created', 'payment_intent.succeeded', 'charge.succeeded'];
      while (received.length < wanted.length) await new Promise<void>((resolve) => waiters.push(resolve));
      const events = received.map(({ body, signature }) =>
        stripe.webhooks.constructEvent(body, signature, endpoint.secret as string),
      );
      expect(events.map((event) => event.type).sort()).toEqual([...wanted].sort());
      const succeeded = events.find((event) => event.type === 'payment_intent.succeeded');
      expect(succeeded?.data.object).toMatchObject({ object: 'payment_intent', status: 'succeeded', amount: 1200 });
      // Listed where Stripe lists them, newest first.
      const listed = await stripe.events.list({ limit: 10 });
      expect(listed.data.map((event) => event.type)).toEqual([...wanted].reverse());
      expect(await stripe.events.retrieve(events[0]?.id as string)).toMatchObject({
        id: events[0]?.id,
        object: 'event',
      });
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  it("refuses a request without a test key, and an unknown parameter, in Stripe's error shape", async () => {
    const { stripe, root } = await stripeTwin(twins(), 'rk_live_nope');
    expect(await stripe.customers.list().catch((e) => e)).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    const bare = await fetch(`${root}/v1/customers`);
    expect(bare.status).toBe(401);
    expect(bare.headers.get('request-id')).toMatch(/^req_[A-Za-z0-9]{14}$/);
    const unauthorized = (await bare.json()).error;
    expect(unauthorized.type).toBe('invalid_request_error');
    expect([unauthorized.doc_url, unauthorized.request_log_url]).toEqual([undefined, undefined]);
    const unknown = await fetch(`${root}/v1/customers`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk_test_1', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'emial=a%40b.c',
    });
    const requestId = unknown.headers.get('request-id');
    expect(requestId).toMatch(/^req_[A-Za-z0-9]{14}$/);
    expect([unknown.status, await unknown.json()]).toEqual([
      400,
      {
        error: {
          type: 'invalid_request_error',
          code: 'parameter_unknown',
          doc_url: 'https://stripe.com/docs/error-codes/parameter-unknown',
          message: 'Received unknown parameter: emial',
          param: 'emial',
          request_log_url: expect.stringMatching(
            new RegExp(`^https://dashboard\\.stripe\\.com/test/logs/${requestId}\\?t=\\d+$`),
          ),
        },
      },
    ]);
  });
});
