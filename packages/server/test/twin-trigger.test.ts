// `mockpoint trigger` (docs/twins.md#trigger-an-event): a twin's provider event sent on demand
// through the built daemon — by the CLI, the client and MCP — on LevelDB and on a real
// redis-server. The twin makes the objects the event is about through its API, so the event is
// listed where the provider lists it (Stripe's /v1/events), delivered to the subscribed endpoints
// and, with --to, to one more receiver; every delivery is accepted by the provider's own verifier
// (stripe.webhooks.constructEvent, @octokit/webhooks verify). Every process listens on 127.0.0.1.
import { createClient, MockpointError } from '@mockpoint/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Octokit } from '@octokit/rest';
import { Webhooks } from '@octokit/webhooks';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { requestJson, runCli } from './helpers/daemon.js';
import { madeRepos, QUIET_LOG } from './helpers/octokit.js';
import { exampleKeys, hookReceiver, sharedTwinDaemon, twinDaemon, useTwinRedis } from './helpers/twin.js';

const twinRedis = useTwinRedis();
/** One daemon in memory for the five Stripe tests after the stores', each with a twin at a name of its own. */
const stripeInMemory = sharedTwinDaemon('stripe', async () => 'memory', 5);

/**
 * Triggers each event of `wanted` on the Stripe twin `name`, waits for every event it emitted at
 * `hooks`, reads each delivery with Stripe's own constructEvent and checks each asked event's
 * object has its shape: the asked events, by type.
 */
async function triggerEach(
  at: {
    client: ReturnType<typeof createClient>;
    name: string;
    hooks: Awaited<ReturnType<typeof hookReceiver>>;
    stripe: Stripe;
    secret: string;
  },
  wanted: readonly (readonly [string, Record<string, unknown>])[],
): Promise<Map<string, Stripe.Event>> {
  const types = wanted.map(([type]) => type);
  const twin = await at.client.getTwin(at.name);
  expect(twin.triggers).toEqual(expect.arrayContaining(types));
  let emitted = 0;
  const ids = new Map<string, string>();
  for (const type of types) {
    const sent = await at.client.triggerTwin(at.name, { event: type });
    // The endpoint is stripe-node 15's (2024-04-10): invoice payments (basil) are not sent to it.
    emitted += sent.events.filter((one) => !one.type.startsWith('invoice_payment.')).length;
    const event = sent.events.find((one) => one.type === type)?.event;
    expect(event, `${type}: ${sent.events.map((one) => one.type).join(', ')}`).toBeDefined();
    ids.set(type, String(event?.id));
  }
  // Every event delivered, verified by Stripe's own constructEvent; the asked ones kept.
  await at.hooks.until(emitted);
  const seen = new Map<string, Stripe.Event>();
  for (const { body, headers } of at.hooks.received) {
    const event = at.stripe.webhooks.constructEvent(body, String(headers['stripe-signature']), at.secret);
    if (ids.get(event.type) === event.id) seen.set(event.type, event);
  }
  expect([...seen.keys()].sort()).toEqual([...types].sort());
  for (const [type, shape] of wanted) expect(seen.get(type)?.data.object, type).toMatchObject(shape);
  return seen;
}

/** What a Stripe delivery is: its event's type, once constructEvent has checked its signature. */
function stripeType(stripe: Stripe, delivery: { body: string; headers: Record<string, unknown> }, secret: string) {
  return stripe.webhooks.constructEvent(delivery.body, String(delivery.headers['stripe-signature']), secret).type;
}

describe.each(['level', 'redis'] as const)('mockpoint trigger (%s)', (store) => {
  it('sends a Stripe event as stripe trigger does: made through the API, listed, delivered, and once more --to', async () => {
    const { daemon, name, port } = await twinDaemon('stripe', await twinRedis.store(store));
    const stripe = new Stripe('sk_test_1', { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 });
    const subscribed = await hookReceiver();
    const once = await hookReceiver();
    try {
      const endpoint = await stripe.webhookEndpoints.create({ url: subscribed.url, enabled_events: ['*'] });
      const run = await runCli({
        args: [
          'trigger',
          name,
          'payment_intent.succeeded',
          '--to',
          once.url,
          '--secret',
          'whsec_mine',
          '--url',
          daemon.url,
        ],
      });
      expect([run.code, run.stderr]).toEqual([0, '']);
      // One line an event, the one asked for starred, then the delivery to --to.
      const lines = run.stdout.trimEnd().split('\n');
      expect(lines.map((line) => line.replace(/evt_\w+/, 'evt_…').replace(/dlv_\S+/, 'dlv_…'))).toEqual([
        '  payment_intent.created  evt_…',
        '* payment_intent.succeeded  evt_…',
        '  charge.succeeded  evt_…',
        `delivery dlv_… to ${once.url}, signed with whsec_mine`,
      ]);
      // As a client's calls make it: the intent is kept, the events listed where Stripe lists them.
      const intents = await stripe.paymentIntents.list();
      expect(intents.data.map((intent) => intent.status)).toEqual(['succeeded']);
      const events = await stripe.events.list();
      expect(events.data.map((event) => event.type)).toEqual([
        'charge.succeeded',
        'payment_intent.succeeded',
        'payment_intent.created',
      ]);
      await subscribed.until(3);
      // Sent several at a time, they may arrive in any order (as Stripe's may): each once.
      const heard = subscribed.received.map((delivery) => stripeType(stripe, delivery, endpoint.secret as string));
      expect(heard.sort()).toEqual(['charge.succeeded', 'payment_intent.created', 'payment_intent.succeeded']);
      await once.until(1);
      const sent = stripe.webhooks.constructEvent(
        once.received[0]?.body ?? '',
        String(once.received[0]?.headers['stripe-signature']),
        'whsec_mine',
      );
      expect([sent.type, sent.id]).toEqual(['payment_intent.succeeded', events.data[1]?.id]);
      expect((sent.data.object as Stripe.PaymentIntent).id).toBe(intents.data[0]?.id);
    } finally {
      await subscribed.close();
      await once.close();
    }
  });

  it('makes the repository a GitHub event is about first, where the twin holds none, once', async () => {
    const { daemon, name, root } = await twinDaemon('github', await twinRedis.store(store));
    const octokit = new Octokit({ auth: 'ghp_1', baseUrl: root, log: QUIET_LOG });
    const client = createClient({ baseUrl: daemon.url });
    const types = async (repo: string) =>
      (await client.triggerTwin(name, { event: 'issues.opened', repo })).events.map((one) => one.type);
    // An organization's (made as `POST /orgs/{org}/repos` makes it), then the user's own.
    expect(await types('octo/fresh')).toEqual(['repository.created', 'issues.opened']);
    expect(await types('octo/fresh')).toEqual(['issues.opened']);
    expect(await types('octocat/mine')).toEqual(['repository.created', 'issues.opened']);
    expect((await octokit.rest.repos.get({ owner: 'octo', repo: 'fresh' })).data.owner.type).toBe('Organization');
    expect((await octokit.rest.repos.get({ owner: 'octocat', repo: 'mine' })).data.owner.type).toBe('User');
    const issues = await octokit.rest.issues.listForRepo({ owner: 'octo', repo: 'fresh' });
    expect(issues.data.map((issue) => issue.number)).toEqual([2, 1]);
  });

  it("sends GitHub's events to the repository's hooks and --to, verified by @octokit/webhooks", async () => {
    const { daemon, name, root } = await twinDaemon('github', await twinRedis.store(store));
    const quiet = () => undefined;
    const octokit = new Octokit({
      auth: 'ghp_1',
      baseUrl: root,
      log: { debug: quiet, info: quiet, warn: quiet, error: quiet },
    });
    const hooks = await hookReceiver();
    const once = await hookReceiver();
    try {
      const secret = 'It is a secret to everybody';
      const repo = { owner: 'octo', repo: 'app' };
      await madeRepos(octokit, 'octo/app');
      await octokit.rest.repos.createWebhook({ ...repo, config: { url: hooks.url, secret }, events: ['*'] });
      const client = createClient({ baseUrl: daemon.url });
      // Without --secret, `to` is signed with the secret of the repository's hook to that URL.
      const opened = await client.triggerTwin(name, { event: 'issues.opened', repo: 'octo/app', to: hooks.url });
      expect(opened.events.map((one) => one.type)).toEqual(['issues.opened']);
      expect(opened.delivery).toMatchObject({ url: hooks.url, secret });
      const commented = await client.triggerTwin(name, { event: 'issue_comment.created', repo: 'octo/app' });
      expect(commented.events.map((one) => one.type)).toEqual(['issues.opened', 'issue_comment.created']);
      const pulled = await client.triggerTwin(name, { event: 'pull_request.opened', repo: 'octo/app', to: once.url });
      // The objects are the twin's, as a client's calls would have made them.
      // Newest first, the pull request among the issues (one number sequence per repository).
      expect((await octokit.rest.issues.listForRepo(repo)).data.map((issue) => issue.number)).toEqual([3, 2, 1]);
      expect((await octokit.rest.pulls.list(repo)).data.map((pull) => pull.number)).toEqual([3]);

      // The hook: its ping, issues.opened, its copy to `to`, issues.opened, issue_comment.created, pull_request.opened,
      // and the branch each pull_request fixture makes first (GitHub refuses a head it does not hold): create and push.
      await hooks.until(10);
      const verifier = new Webhooks({ secret });
      // Every payload's repository is the one made first (the ping's too), as kept.
      const kept = (await octokit.rest.repos.get(repo)).data;
      for (const { body, headers } of hooks.received) {
        expect(await verifier.verify(body, String(headers['x-hub-signature-256']))).toBe(true);
        const payload = JSON.parse(body) as Record<string, unknown>;
        const event = String(headers['x-github-event']);
        expect(Object.keys(payload).sort()).toEqual(
          expect.arrayContaining(exampleKeys(event, payload.action as string | undefined)),
        );
        expect(payload.repository).toMatchObject({ full_name: 'octo/app', id: kept.id, node_id: kept.node_id });
      }
      const kinds = hooks.received.map(({ body, headers }) =>
        [headers['x-github-event'], JSON.parse(body).action].filter(Boolean).join('.'),
      );
      expect(kinds.sort()).toEqual(
        [
          'ping',
          'issues.opened',
          'issues.opened',
          'issues.opened',
          'issue_comment.created',
          'pull_request.opened',
          'create',
          'push',
          'create',
          'push',
        ].sort(),
      );
      // No hook of its own: `to` is signed with a new secret, answered.
      await once.until(1);
      const fresh = new Webhooks({ secret: pulled.delivery?.secret ?? '' });
      const [delivery] = once.received;
      expect(await fresh.verify(delivery?.body ?? '', String(delivery?.headers['x-hub-signature-256']))).toBe(true);
      expect([delivery?.headers['x-github-event'], JSON.parse(delivery?.body ?? '{}').number]).toEqual([
        'pull_request',
        3,
      ]);
    } finally {
      await hooks.close();
      await once.close();
    }
  });
});

it('sends each Stripe event of the flows, and one only its document describes, listed at /v1/events', async () => {
  const { daemon, name, port } = await stripeInMemory();
  const stripe = new Stripe('sk_test_1', { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 });
  const client = createClient({ baseUrl: daemon.url });
  const wanted = [
    'customer.created',
    'payment_intent.succeeded',
    'payment_intent.payment_failed',
    'charge.succeeded',
    'checkout.session.completed',
    'checkout.session.expired',
    'customer.subscription.created',
    'invoice.paid',
    'charge.refunded',
    'refund.created',
  ];
  const twin = await client.getTwin(name);
  expect(twin.triggers).toEqual(expect.arrayContaining(wanted));
  for (const type of wanted) {
    const sent = await client.triggerTwin(name, { event: type });
    const event = sent.events.find((one) => one.type === type)?.event as unknown as Stripe.Event;
    expect(event, type).toMatchObject({ object: 'event', type, api_version: '2026-10-28.endive', livemode: false });
    // Listed and read where Stripe keeps its events.
    expect((await stripe.events.retrieve(event.id)).type).toBe(type);
  }
  const session = (await stripe.events.list({ type: 'checkout.session.completed' })).data[0];
  // Made by the twin's Checkout flow, completed through its test helper: not the document's example.
  expect(session?.data.object).toMatchObject({
    object: 'checkout.session',
    status: 'complete',
    payment_status: 'paid',
  });
  const invoice = (await stripe.events.list({ type: 'invoice.paid' })).data[0];
  expect(invoice?.data.object).toMatchObject({ object: 'invoice', status: 'paid', amount_paid: 1500 });
  const refunded = (await stripe.events.list({ type: 'charge.refunded' })).data[0];
  expect(refunded?.data.object).toMatchObject({ object: 'charge', refunded: true, amount_refunded: 2000 });
  const failed = (await stripe.events.list({ type: 'payment_intent.payment_failed' })).data[0];
  expect((failed?.data.object as Stripe.PaymentIntent | undefined)?.last_payment_error?.code).toBe('card_declined');
});

it('refuses what it cannot send with a stable code and a message listing what exists', async () => {
  const { daemon, name } = await stripeInMemory();
  const trigger = (body: unknown, at = name) =>
    requestJson(`${daemon.url}/api/endpoints/${at}/twin/trigger`, { method: 'POST', body });
  const codeOf = (answer: { status: number; body: unknown }) => [
    answer.status,
    (answer.body as { error: { code: string } }).error.code,
  ];

  const unknown = await trigger({ event: 'payment_intent.teleported' });
  expect(codeOf(unknown)).toEqual([400, 'UNKNOWN_TWIN_EVENT']);
  expect((unknown.body as { error: { message: string } }).error.message).toMatch(
    /^event: stripe has no event "payment_intent.teleported"; one of payment_intent.amount_capturable_updated, .*payment_intent.succeeded, .*charge.captured, charge.dispute.created, .* and \d+ more \(GET \/api\/endpoints\/\{name\}\/twin lists them all as triggers\)$/,
  );
  const none = await trigger({ event: 'customer.created' }, 'paypal');
  expect(codeOf(none)).toEqual([404, 'TWIN_NOT_FOUND']);
  expect((none.body as { error: { message: string } }).error.message).toContain('one of stripe, github');
  expect(codeOf(await trigger({ event: 'customer.created', extra: 1 }))).toEqual([400, 'INVALID_TRIGGER']);
  expect(codeOf(await trigger({ event: 'Customer Created' }))).toEqual([400, 'INVALID_TRIGGER']);
  expect(codeOf(await trigger({ event: 'issues.opened', repo: '../etc' }))).toEqual([400, 'INVALID_TRIGGER']);
  // A receiver the daemon may not reach is refused before the twin makes anything.
  const far = await trigger({ event: 'customer.created', to: 'http://example.com/hooks' });
  expect(codeOf(far)).toEqual([400, 'DELIVERY_HOST_NOT_ALLOWED']);
  expect(codeOf(await trigger({ event: 'customer.created', to: 'ftp://127.0.0.1/' }))).toEqual([
    400,
    'INVALID_DELIVERY_URL',
  ]);
  // None of the refusals made anything: after one trigger sent, the twin holds its customer and event only.
  expect((await trigger({ event: 'customer.created' })).status).toBe(200);
  for (const [path, object] of [
    ['events', 'event'],
    ['customers', 'customer'],
  ]) {
    const listed = await requestJson(`${daemon.url}/endpoint/${name}/v1/${path}`, {
      headers: { authorization: 'Bearer sk_test_1' },
    });
    expect((listed.body as { data: { object: string }[] }).data.map((one) => one.object)).toEqual([object]);
  }

  // A twin of a document sends no events.
  const document = {
    openapi: '3.0.3',
    info: { title: 'Notes', version: '1' },
    paths: { '/notes': { get: { responses: { 200: { description: 'ok' } } } } },
  };
  expect(
    (await requestJson(`${daemon.url}/api/endpoints/notes/twin`, { method: 'PUT', body: { document } })).status,
  ).toBe(200);
  expect(codeOf(await trigger({ event: 'note.created' }, 'notes'))).toEqual([400, 'UNKNOWN_TWIN_EVENT']);

  // The CLI: one line, exit 1 for what the daemon refused, 2 for a bad argument.
  const cli = await runCli({ args: ['trigger', name, 'nope.nothing', '--url', daemon.url] });
  expect([cli.code, cli.stderr.split('\n').length, cli.stderr]).toEqual([
    1,
    2,
    expect.stringMatching(/^mockpoint trigger: error: event: stripe has no event "nope.nothing"; one of /),
  ]);
  // An event of GitHub's the twin does not send (`deployment`) lists THAT provider's own events.
  expect(
    (await requestJson(`${daemon.url}/api/endpoints/hub/twin`, { method: 'PUT', body: { provider: 'github' } })).status,
  ).toBe(200);
  const deployment = await runCli({ args: ['trigger', 'hub', 'deployment', '--url', daemon.url] });
  expect([deployment.code, deployment.stderr]).toEqual([
    1,
    expect.stringMatching(
      /^mockpoint trigger: error: event: github has no event "deployment"; one of check_run.completed, check_run.created, create, delete, installation.created, /,
    ),
  ]);
  expect(deployment.stderr).not.toContain('payment_intent');
  // A provider's own trigger fields are its folder's: GitHub's `repo`, listed with its default and
  // checked by its rule; the help's options and examples are read from the shipped providers.
  const hub = await requestJson(`${daemon.url}/api/endpoints/hub/twin`);
  expect((hub.body as { triggerFields?: unknown }).triggerFields).toEqual({
    repo: { description: 'the repository (owner/name) the event is about', default: 'octocat/hello-world' },
  });
  const badRepo = await trigger({ event: 'issues.opened', repo: '../etc' }, 'hub');
  expect([badRepo.status, (badRepo.body as { error?: { message?: string } }).error?.message]).toEqual([
    400,
    'repo: owner/name, each 1–100 of A-Z a-z 0-9 _ . -',
  ]);
  const help = await runCli({ args: ['trigger', '--help'] });
  expect(help.stdout).toContain('mockpoint trigger github issues.opened --repo <owner/name>');
  expect(help.stdout).toMatch(/--repo <owner\/name> +the repository \(owner\/name\) the event is about/);
  expect(help.stdout).toContain('(default octocat/hello-world)');
  const bare = await runCli({ args: ['trigger', name, '--url', daemon.url] });
  expect([bare.code, bare.stderr.trim()]).toEqual([
    2,
    'mockpoint trigger: error: give the name holding the twin and an event, e.g. mockpoint trigger stripe payment_intent.succeeded',
  ]);
  // The client throws the daemon's code.
  const thrown = await createClient({ baseUrl: daemon.url })
    .triggerTwin(name, { event: 'nope.nothing' })
    .catch((error: unknown) => error);
  expect(thrown).toBeInstanceOf(MockpointError);
  expect((thrown as MockpointError).code).toBe('UNKNOWN_TWIN_EVENT');
});

it('is the MCP tool trigger_twin_event: an event sent, an unknown one a tool error with its code', async () => {
  const { daemon, name, port } = await stripeInMemory();
  const client = new Client({ name: 'mockpoint-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${daemon.url}/api/mcp`)));
  try {
    const tool = (await client.listTools()).tools.find((one) => one.name === 'trigger_twin_event');
    const body = (
      tool?.inputSchema.properties as { body?: { properties?: object; additionalProperties?: unknown } } | undefined
    )?.body;
    // The provider's own fields (a GitHub twin's `repo`) are any other member, a string.
    expect(Object.keys(body?.properties ?? {}).sort()).toEqual(['event', 'secret', 'to']);
    expect(body?.additionalProperties).toMatchObject({ type: 'string', maxLength: 256 });
    type TextResult = { isError?: boolean; content: { text: string }[] };
    const sent = (await client.callTool({
      name: 'trigger_twin_event',
      arguments: { name, body: { event: 'customer.created' } },
    })) as TextResult;
    expect(sent.isError, sent.content[0]?.text).toBeFalsy();
    const { events } = JSON.parse(sent.content[0]?.text ?? '{}') as {
      events: { type: string; event: { id: string } }[];
    };
    expect(events.map((one) => one.type)).toEqual(['customer.created']);
    const stripe = new Stripe('sk_test_1', { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 });
    expect((await stripe.events.retrieve(events[0]?.event.id ?? '')).type).toBe('customer.created');
    const refused = (await client.callTool({
      name: 'trigger_twin_event',
      arguments: { name, body: { event: 'customer.teleported' } },
    })) as TextResult;
    expect([refused.isError, JSON.parse(refused.content[0]?.text ?? '{}').error?.code]).toEqual([
      true,
      'UNKNOWN_TWIN_EVENT',
    ]);
  } finally {
    await client.close();
  }
});

it('sends subscriptions, setup intents, captures, disputes and failed invoices through the flows, the rest as valid examples', async () => {
  const { name, port, daemon } = await stripeInMemory();
  const stripe = new Stripe('sk_test_1', { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 });
  const client = createClient({ baseUrl: daemon.url });
  const hooks = await hookReceiver();
  try {
    const endpoint = await stripe.webhookEndpoints.create({ url: hooks.url, enabled_events: ['*'] });
    const wanted: [string, Record<string, unknown>][] = [
      ['customer.subscription.updated', { object: 'subscription', status: 'active', cancel_at_period_end: true }],
      ['customer.subscription.deleted', { object: 'subscription', status: 'canceled' }],
      ['charge.captured', { object: 'charge', status: 'succeeded', captured: true }],
      ['setup_intent.succeeded', { object: 'setup_intent', status: 'succeeded' }],
      ['invoice.payment_failed', { object: 'invoice', status: 'open' }],
      ['payout.paid', { object: 'payout', status: 'paid' }],
      ['charge.dispute.created', { object: 'dispute' }],
      ['customer.subscription.paused', { object: 'subscription', status: 'paused' }],
      ['customer.subscription.trial_will_end', { object: 'subscription' }],
    ];
    const prefixes: Record<string, string> = {
      subscription: 'sub_',
      charge: 'ch_',
      setup_intent: 'seti_',
      invoice: 'in_',
      payout: 'po_',
      dispute: 'dp_',
    };
    const seen = await triggerEach({ client, name, hooks, stripe, secret: endpoint.secret as string }, wanted);
    for (const [type] of wanted) {
      const object = seen.get(type)?.data.object as unknown as Record<string, unknown>;
      expect(String(object.id), type).toMatch(new RegExp(`^${prefixes[String(object.object)]}`));
    }
    const failed = seen.get('invoice.payment_failed')?.data.object as Stripe.Invoice;
    expect(failed.customer).toMatch(/^cus_/);
    expect(failed.subscription).toMatch(/^sub_/);
    expect((await stripe.subscriptions.retrieve(String(failed.subscription))).status).toBe('incomplete');
    const setup = seen.get('setup_intent.succeeded')?.data.object as Stripe.SetupIntent;
    expect([setup.customer, setup.payment_method]).toEqual([expect.stringMatching(/^cus_/), expect.any(String)]);
    const dispute = seen.get('charge.dispute.created')?.data.object as Stripe.Dispute;
    // Made by the dispute card's payment (stripe-disputes.ts): opened, awaiting a response.
    expect(dispute.status).toBe('needs_response');
    // The subscription the update and the cancel were about is the twin's, as a client's calls made it.
    const deleted = seen.get('customer.subscription.deleted')?.data.object as Stripe.Subscription;
    expect((await stripe.subscriptions.retrieve(deleted.id)).status).toBe('canceled');
  } finally {
    await hooks.close();
  }
});

it("sends the Stripe CLI's fixtures that the flows make: each delivered, verified, its objects the twin's", async () => {
  const { name, port, daemon } = await stripeInMemory();
  const stripe = new Stripe('sk_test_1', { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 });
  const client = createClient({ baseUrl: daemon.url });
  const hooks = await hookReceiver();
  try {
    const endpoint = await stripe.webhookEndpoints.create({ url: hooks.url, enabled_events: ['*'] });
    const customer = expect.stringMatching(/^cus_/);
    const tagged = { metadata: { foo: 'bar' } };
    const wanted: [string, Record<string, unknown>][] = [
      ['customer.subscription.trial_will_end', { object: 'subscription', status: 'trialing', customer }],
      ['customer.subscription.paused', { object: 'subscription', status: 'paused', customer }],
      ['charge.dispute.created', { object: 'dispute', status: 'needs_response', reason: 'fraudulent', amount: 2000 }],
      [
        'payment_method.attached',
        { object: 'payment_method', customer, card: expect.objectContaining({ last4: '4242' }) },
      ],
      ['payment_method.detached', { object: 'payment_method', customer: null }],
      ['payment_method.updated', { object: 'payment_method', customer, ...tagged }],
      ['setup_intent.created', { object: 'setup_intent', status: 'requires_payment_method' }],
      [
        'setup_intent.canceled',
        { object: 'setup_intent', status: 'canceled', cancellation_reason: 'requested_by_customer' },
      ],
      ['setup_intent.setup_failed', { object: 'setup_intent', status: 'requires_payment_method' }],
      ['product.updated', { object: 'product', ...tagged }],
      ['product.deleted', { object: 'product' }],
      ['price.updated', { object: 'price', ...tagged }],
      [
        'test_helpers.test_clock.created',
        { object: 'test_helpers.test_clock', status: 'ready', frozen_time: 1577836800 },
      ],
      ['test_helpers.test_clock.advancing', { status: 'advancing', frozen_time: 1577836800 }],
      ['test_helpers.test_clock.ready', { status: 'ready', frozen_time: 1580515200 }],
      ['test_helpers.test_clock.deleted', { object: 'test_helpers.test_clock' }],
    ];
    const seen = await triggerEach({ client, name, hooks, stripe, secret: endpoint.secret as string }, wanted);
    const object = (type: string) => seen.get(type)?.data.object as unknown as Record<string, unknown> & { id: string };

    // Each object is the one the twin keeps, read back as a client reads it.
    const warned = object('customer.subscription.trial_will_end') as unknown as Stripe.Subscription;
    expect(await stripe.subscriptions.retrieve(warned.id)).toMatchObject({
      status: 'trialing',
      trial_end: warned.trial_end,
    });
    expect((warned.trial_end ?? 0) - warned.created).toBe(86_400);
    const held = await stripe.subscriptions.retrieve(object('customer.subscription.paused').id);
    // The update that paused it says what it was: trialing, its trial not yet over.
    const pausing = [...seen.values(), ...hooks.received.map(({ body }) => JSON.parse(body) as Stripe.Event)].find(
      (event) =>
        event.type === 'customer.subscription.updated' && (event.data.object as { id?: string }).id === held.id,
    );
    expect(pausing?.data.previous_attributes).toMatchObject({ status: 'trialing', trial_end: expect.any(Number) });
    expect([held.status, held.trial_end]).toEqual(['paused', held.current_period_end]);
    expect((await stripe.customers.retrieve(String(held.customer))).id).toBe(held.customer);
    const dispute = await stripe.disputes.retrieve(object('charge.dispute.created').id);
    const charge = await stripe.charges.retrieve(String(dispute.charge));
    expect([charge.disputed, charge.amount, charge.payment_intent]).toEqual([true, 2000, dispute.payment_intent]);
    expect((await stripe.paymentIntents.retrieve(String(dispute.payment_intent))).status).toBe('succeeded');
    const attached = await stripe.paymentMethods.retrieve(object('payment_method.attached').id);
    expect((await stripe.customers.retrieve(String(attached.customer))).id).toBe(attached.customer);
    expect((await stripe.paymentMethods.retrieve(object('payment_method.detached').id)).customer).toBeNull();
    expect((await stripe.paymentMethods.retrieve(object('payment_method.updated').id)).metadata).toEqual({
      foo: 'bar',
    });
    for (const [type, status] of [
      ['setup_intent.created', 'requires_payment_method'],
      ['setup_intent.canceled', 'canceled'],
      ['setup_intent.setup_failed', 'requires_payment_method'],
    ]) {
      expect((await stripe.setupIntents.retrieve(object(type as string).id)).status, type).toBe(status);
    }
    const failed = object('setup_intent.setup_failed') as unknown as Stripe.SetupIntent;
    expect(failed.last_setup_error?.code).toBe('card_declined');
    expect(await stripe.products.retrieve(object('product.deleted').id)).toMatchObject({ deleted: true });
    expect((await stripe.products.retrieve(object('product.updated').id)).metadata).toEqual({ foo: 'bar' });
    const price = await stripe.prices.retrieve(object('price.updated').id);
    expect(price.metadata).toEqual({ foo: 'bar' });
    expect((await stripe.products.retrieve(String(price.product))).id).toBe(price.product);
    const clocks = stripe.testHelpers.testClocks;
    const ready = await clocks.retrieve(object('test_helpers.test_clock.ready').id);
    expect([ready.status, ready.frozen_time]).toEqual(['ready', 1580515200]);
    expect(await clocks.retrieve(object('test_helpers.test_clock.deleted').id)).toMatchObject({ deleted: true });
  } finally {
    await hooks.close();
  }
});
