// #71 M4, the crash window: a Stripe twin on LevelDB keeps its changes' deliveries in its
// `_outbox` before it answers, so a daemon SIGKILLed right after the answers, with deliveries
// still waiting to be handed to the delivery engine, hands them off after a restart on the same
// data directory: every event reaches every endpoint at least once. The receiver is a real
// node:http server on 127.0.0.1.
import { describe, expect, it, onTestFinished } from 'vitest';
import { type Daemon, makeTempDir, requestJson, startDaemon, useDaemons } from './helpers/daemon.js';
import { hookReceiver } from './helpers/twin.js';

useDaemons();

const STRIPE = { authorization: 'Bearer sk_test_crash', 'content-type': 'application/x-www-form-urlencoded' };
const ENDPOINTS = 16;
const CUSTOMERS = 40;

/** The daemon on `dir` with the twin `name` served at a port of its own; its root. */
async function start(dir: string, name: string): Promise<{ daemon: Daemon; root: string }> {
  const daemon = await startDaemon({ args: ['--data-dir', dir, '--serve', `${name}=0`] });
  const note = daemon.notes.find((line) => line.startsWith(`${name} served at `));
  expect(note, daemon.startLine).toBeDefined();
  return { daemon, root: (note as string).slice(`${name} served at `.length) };
}

async function call(root: string, method: string, path: string, body?: string) {
  const response = await fetch(`${root}${path}`, { method, headers: STRIPE, ...(body === undefined ? {} : { body }) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

interface Webhooks {
  waiting: number;
  handed: number;
  refused: number;
  lastRefusal?: { code: string; message: string };
}

const webhooks = async (url: string, name: string) =>
  ((await requestJson(`${url}/api/endpoints/${name}/twin`)).body as { webhooks: Webhooks }).webhooks;

describe('a twin killed before its deliveries are handed off (LevelDB)', () => {
  it('hands them off after a restart on the same data directory: every event reaches every endpoint', async () => {
    const dir = await makeTempDir();
    const name = 'crash';
    const hooks = await hookReceiver();
    onTestFinished(() => hooks.close());
    const first = await start(dir, name);
    const made = await requestJson(`${first.daemon.url}/api/endpoints/${name}/twin`, {
      method: 'PUT',
      body: { provider: 'stripe' },
    });
    expect(made.status).toBe(200);
    for (let i = 0; i < ENDPOINTS; i++) {
      const body = new URLSearchParams({ url: `${hooks.url}/${i}`, 'enabled_events[]': '*' }).toString();
      expect((await call(first.root, 'POST', '/v1/webhook_endpoints', body)).status).toBe(200);
    }
    // Four at a time: the twin takes them in turn, faster than its queue hands 16 deliveries each off.
    for (let i = 0; i < CUSTOMERS; i += 4) {
      const answers = await Promise.all(
        [0, 1, 2, 3].map((j) => call(first.root, 'POST', '/v1/customers', `email=c${i + j}%40example.com`)),
      );
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    }
    // Every change answered; deliveries still wait to be handed to the delivery engine when the daemon dies.
    const waiting = (await webhooks(first.daemon.url, name)).waiting;
    await first.daemon.stop('SIGKILL');
    expect(waiting, 'deliveries waiting at the kill').toBeGreaterThan(0);
    const before = hooks.received.length;

    const second = await start(dir, name);
    const events = (await call(second.root, 'GET', '/v1/events?limit=100')).body.data as {
      id: string;
      type: string;
      pending_webhooks: number;
    }[];
    const created = events.filter((event) => event.type === 'customer.created');
    expect(created).toHaveLength(CUSTOMERS);
    const expected = created.flatMap((event) => {
      // Counted down as deliveries succeed: those made before the kill are off it already.
      expect(event.pending_webhooks).toBeLessThanOrEqual(ENDPOINTS);
      return Array.from({ length: ENDPOINTS }, (_, i) => `/hooks/${i} ${event.id}`);
    });
    // Each delivery as `path event-id`: which endpoint got which event.
    const seen = () =>
      new Set(hooks.received.map(({ path, body }) => `${path} ${(JSON.parse(body) as { id: string }).id}`));
    await expect
      .poll(() => expected.filter((one) => !seen().has(one)).length, { timeout: 30_000, interval: 100 })
      .toBe(0);
    expect(hooks.received.length, `${before} received before the kill`).toBeGreaterThanOrEqual(expected.length);
    await expect.poll(async () => (await webhooks(second.daemon.url, name)).waiting, { timeout: 30_000 }).toBe(0);
    expect(await webhooks(second.daemon.url, name)).toMatchObject({ refused: 0 });
    // Handed off, their `_outbox` entries go.
    await expect
      .poll(
        async () =>
          ((await requestJson(`${second.daemon.url}/api/endpoints/${name}/collections/_outbox`)).body as unknown[])
            .length,
        { timeout: 10_000 },
      )
      .toBe(0);
  }, 90_000);
});
