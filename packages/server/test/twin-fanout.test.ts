// #71 M4, a twin's fan-out, against the built daemon on memory, LevelDB and a real redis-server:
// a twin keeps as many webhook subscriptions as the provider does (Stripe 16 endpoints an account,
// refused past it in Stripe's 400 form; GitHub 20 hooks an event of a repository, its 422
// `Validation Failed`); a change answers without waiting for its deliveries, which all reach the
// delivery engine after it; and a twin sending to a dead receiver fills at most half of the
// pending deliveries, its refused ones counted at GET …/twin, so the user's own
// POST /api/deliveries is still taken.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { requestJson } from './helpers/daemon.js';
import { type TwinStore, twinDaemon, useTwinRedis } from './helpers/twin.js';

const files = useTwinRedis();
const STRIPE = { authorization: 'Bearer sk_test_fanout', 'content-type': 'application/x-www-form-urlencoded' };
const GITHUB = { authorization: 'token ghp_fanout', 'content-type': 'application/json' };

interface Answer {
  id?: string | number;
  data?: { id: string; type: string }[];
  message?: string;
  errors?: { resource: string; code: string; message: string }[];
  error?: { type: string; code?: string; message: string };
}

async function call(root: string, method: string, path: string, body?: string, headers = STRIPE) {
  const response = await fetch(`${root}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
  return { status: response.status, body: (await response.json()) as Answer };
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

/** A URL on 127.0.0.1 nothing listens at any more: every attempt is refused, so each delivery stays pending. */
async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/dead`;
}

interface Webhooks {
  waiting: number;
  handed: number;
  refused: number;
  lastRefusal?: { code: string; message: string };
}

/** The twin's webhooks once none waits to be handed to the delivery engine. */
async function settled(url: string, name: string): Promise<Webhooks> {
  const read = async () => (await requestJson(`${url}/api/endpoints/${name}/twin`)).body as { webhooks?: Webhooks };
  await expect.poll(async () => (await read()).webhooks?.waiting, { timeout: 60_000, interval: 50 }).toBe(0);
  return (await read()).webhooks as Webhooks;
}

async function deliveries(url: string): Promise<{ url: string; state: string }[]> {
  return (
    (await requestJson(`${url}/api/deliveries?limit=1000`)).body as { deliveries: { url: string; state: string }[] }
  ).deliveries;
}

/** Sixteen Stripe endpoints taking every event, at `urls(i)`. */
async function sixteenEndpoints(root: string, urls: (i: number) => string): Promise<void> {
  for (let i = 0; i < 16; i++) {
    const made = await call(root, 'POST', '/v1/webhook_endpoints', form({ url: urls(i), 'enabled_events[]': '*' }));
    expect(made.status, JSON.stringify(made.body)).toBe(200);
  }
}

describe.each([['memory'], ['level'], ['redis']] as const)('on %s', (kind) => {
  const storeOf = async (): Promise<TwinStore> => (kind === 'memory' ? 'memory' : files.store(kind));

  it("refuses a 17th Stripe endpoint in Stripe's form, and takes one again once one is deleted", async () => {
    const { root } = await twinDaemon('stripe', await storeOf());
    const url = await deadUrl();
    await sixteenEndpoints(root, () => url);
    const over = await call(root, 'POST', '/v1/webhook_endpoints', form({ url, 'enabled_events[]': '*' }));
    expect(over.status).toBe(400);
    expect(over.body.error?.type).toBe('invalid_request_error');
    expect(over.body.error?.message).toMatch(/maximum of 16 webhook endpoints/);
    const listed = await call(root, 'GET', '/v1/webhook_endpoints?limit=100');
    expect(listed.body.data).toHaveLength(16);
    const gone = await call(root, 'DELETE', `/v1/webhook_endpoints/${listed.body.data?.[0]?.id}`);
    expect(gone.status).toBe(200);
    expect((await call(root, 'POST', '/v1/webhook_endpoints', form({ url, 'enabled_events[]': '*' }))).status).toBe(
      200,
    );
  });

  it("refuses a 21st GitHub hook of an event with GitHub's 422, per repository", async () => {
    const { root } = await twinDaemon('github', await storeOf());
    const url = await deadUrl();
    const hook = (repo: string, events: string[]) =>
      call(root, 'POST', `/repos/octo/${repo}/hooks`, JSON.stringify({ config: { url }, events }), GITHUB);
    // Both repositories made first, as a user would (GitHub's 404 below a repository never made).
    for (const name of ['app', 'other']) {
      expect((await call(root, 'POST', '/orgs/octo/repos', JSON.stringify({ name }), GITHUB)).status).toBe(201);
    }
    for (let i = 0; i < 20; i++) expect((await hook('app', ['push'])).status).toBe(201);
    const over = await hook('app', ['push', 'issues']);
    expect(over.status).toBe(422);
    expect(over.body).toMatchObject({
      message: 'Validation Failed',
      errors: [{ resource: 'Hook', code: 'custom', message: 'The "push" event cannot have more than 20 hooks' }],
    });
    // A hook of every event adds one to `push` too; another event, or another repository, has room.
    expect((await hook('app', ['*'])).status).toBe(422);
    expect((await hook('app', ['issues'])).status).toBe(201);
    expect((await hook('other', ['push'])).status).toBe(201);
  });

  it('answers a change without waiting for its deliveries, which all reach the delivery engine', async () => {
    const { daemon, root, name } = await twinDaemon('stripe', await storeOf());
    const dead = await deadUrl();
    await sixteenEndpoints(root, (i) => `${dead}/${i}`);
    const customer = await call(root, 'POST', '/v1/customers', form({ email: 'fan@example.com' }));
    const price = await call(
      root,
      'POST',
      '/v1/prices',
      form({ 'product_data[name]': 'Pro', unit_amount: '1500', currency: 'usd', 'recurring[interval]': 'month' }),
    );
    await settled(daemon.url, name);
    const before = (await call(root, 'GET', '/v1/events?limit=100')).body.data?.length ?? 0;
    const started = performance.now();
    const subscription = await call(
      root,
      'POST',
      '/v1/subscriptions',
      form({
        customer: String(customer.body.id),
        'items[0][price]': String(price.body.id),
        default_payment_method: 'pm_card_visa',
      }),
    );
    const tookMs = performance.now() - started;
    expect(subscription.status, JSON.stringify(subscription.body)).toBe(200);
    // Its events are listed at once; their deliveries (16 each) follow the answer.
    const events = ((await call(root, 'GET', '/v1/events?limit=100')).body.data?.length ?? 0) - before;
    expect(events).toBeGreaterThanOrEqual(5);
    const webhooks = await settled(daemon.url, name);
    expect(webhooks).toMatchObject({ refused: 0, handed: (before + events) * 16 });
    // Those to this test's receivers (the file's other tests share its redis-server's deliveries).
    const made = (await deliveries(daemon.url)).filter((one) => one.url.startsWith(`${dead}/`));
    expect(made).toHaveLength((before + events) * 16);
    for (let i = 0; i < 16; i++) expect(made.filter((one) => one.url === `${dead}/${i}`)).toHaveLength(before + events);
    // The bound is generous: the answer never waits for the 16 × events deliveries to be stored.
    expect(tookMs, `${events * 16} deliveries`).toBeLessThan(5_000);
  });

  it("keeps half of the pending deliveries for the user's own when a twin's receiver is dead", async () => {
    const { daemon, root, name } = await twinDaemon('stripe', await storeOf());
    const dead = await deadUrl();
    await sixteenEndpoints(root, () => dead);
    // Pending already: on Redis, those of this file's tests before (they share one redis-server).
    const pending = async () => (await deliveries(daemon.url)).filter((one) => one.state === 'pending').length;
    const before = await pending();
    // 70 customers, 16 deliveries each: 1120 a twin would leave pending, past the 1000 of the daemon.
    for (let i = 0; i < 70; i++) {
      expect((await call(root, 'POST', '/v1/customers', form({ email: `c${i}@example.com` }))).status).toBe(200);
    }
    const webhooks = await settled(daemon.url, name);
    const handed = 500 - before;
    expect(webhooks).toMatchObject({ handed, refused: 1120 - handed, lastRefusal: { code: 'TOO_MANY_DELIVERIES' } });
    expect(webhooks.lastRefusal?.message).toMatch(/share/);
    expect(await pending()).toBe(500);
    const own = await requestJson(`${daemon.url}/api/deliveries`, {
      method: 'POST',
      body: { url: dead, data: { mine: 1 } },
    });
    expect(own.status, JSON.stringify(own.body)).toBe(202);
  });
});
