// mockpoint's webhook signatures against the providers' own libraries, both ways,
// over real sockets on 127.0.0.1:
// - deliveries (POST /api/deliveries) to a node:http receiver that verifies them
//   with `standardwebhooks`, `stripe.webhooks.constructEvent` and
//   `@octokit/webhooks-methods`: accepted when untampered, rejected for each tamper;
// - signatures those libraries make, sent to /endpoint/{name} with a check: valid,
//   and invalid (body changed, another secret), stale and replayed.
// (Slack publishes no verifying library light enough to install for this; its
// scheme is checked against node:crypto in signature.test.ts and signature-check.test.ts.)
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sign as octokitSign, verify as octokitVerify } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServedApp, serve } from '../adapter/node/index.js';
import type { Delivery, DeliveryInput } from '../api/delivery-json.js';
import { createApp, createClient, type MockpointApp, type MockpointClient } from '../index.js';
import { signWebhook } from '../signing/signature.js';

const STANDARD_SECRET = `whsec_${randomBytes(24).toString('base64')}`;
const STRIPE_SECRET = 'whsec_stripe_test_secret_for_mockpoint';
const GITHUB_SECRET = 'a github webhook secret';
const OTHER_STANDARD_SECRET = `whsec_${randomBytes(24).toString('base64')}`;
const now = () => Math.floor(Date.now() / 1000);

type Scheme = 'standard' | 'stripe' | 'github';
const SECRETS: Record<Scheme, string> = { standard: STANDARD_SECRET, stripe: STRIPE_SECRET, github: GITHUB_SECRET };

/** Verifies one received request with the provider's own library: the reason it was refused, or `undefined`. */
async function refusal(scheme: Scheme, headers: IncomingMessage['headers'], body: Buffer): Promise<string | undefined> {
  const one = (name: string) => String(headers[name] ?? '');
  try {
    if (scheme === 'standard') {
      new Webhook(STANDARD_SECRET).verify(body.toString(), {
        'webhook-id': one('webhook-id'),
        'webhook-timestamp': one('webhook-timestamp'),
        'webhook-signature': one('webhook-signature'),
      });
    } else if (scheme === 'stripe') {
      Stripe.webhooks.constructEvent(body, one('stripe-signature'), STRIPE_SECRET);
    } else if (!(await octokitVerify(GITHUB_SECRET, body.toString(), one('x-hub-signature-256')))) {
      return 'signature';
    }
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** The id a receiver tells a replay by: `webhook-id`, `X-GitHub-Delivery`, or (Stripe sends none) the event's id. */
function replayKey(scheme: Scheme, headers: IncomingMessage['headers'], body: Buffer): string {
  if (scheme === 'stripe') return String((JSON.parse(body.toString()) as { id: unknown }).id);
  return String(headers[scheme === 'standard' ? 'webhook-id' : 'x-github-delivery']);
}

/** A receiver per scheme at /{scheme}: 204 when the library accepts it, 409 for a replay, 400 with the library's reason otherwise. */
let receiver: Server;
let receiverUrl: string;
const seen = new Set<string>();

let served: ServedApp;
let client: MockpointClient;
let app: MockpointApp;
let counter = 0;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const scheme = (req.url ?? '').slice(1) as Scheme;
      const body = Buffer.concat(chunks);
      const why = await refusal(scheme, req.headers, body);
      if (why !== undefined) {
        res.writeHead(400).end(why);
        return;
      }
      const key = `${scheme}\n${replayKey(scheme, req.headers, body)}`;
      if (seen.has(key)) {
        res.writeHead(409).end('replayed');
        return;
      }
      seen.add(key);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  app = createApp();
  served = await serve(app, { overrideGlobalObjects: false });
  client = createClient({ baseUrl: served.url });
});

afterAll(async () => {
  await app.mockpoint.deliveries.close();
  await served.close();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

async function deliver(request: DeliveryInput): Promise<Delivery> {
  const sent = await client.deliver(request);
  return client.waitForDelivery(sent.id);
}

describe("mockpoint's deliveries, verified by the providers' libraries", () => {
  /** An event with an id of its own (Stripe receivers tell replays by it). */
  const data = () => ({ type: 'invoice.paid', amount: 12.5, id: `evt_${++counter}` });

  it.each(['standard', 'stripe', 'github'] as const)('%s: an untampered delivery is accepted', async (scheme) => {
    const delivery = await deliver({
      url: `${receiverUrl}/${scheme}`,
      data: data(),
      sign: { scheme, secret: SECRETS[scheme] },
    });
    expect(delivery.attempts.map((attempt) => attempt.status)).toEqual([204]);
    expect(delivery.state).toBe('delivered');
  });

  const TAMPERS = {
    standard: ['body', 'signature', 'secret', 'stale', 'duplicate'],
    stripe: ['body', 'signature', 'secret', 'stale', 'duplicate'],
    // GitHub's signature has no timestamp: no stale delivery to make.
    github: ['body', 'signature', 'secret', 'duplicate'],
  } as const;
  const cases = (Object.keys(TAMPERS) as Scheme[]).flatMap((scheme) =>
    TAMPERS[scheme].map((tamper) => [scheme, tamper] as const),
  );

  it.each(cases)('%s: tamper %s is refused by the library', async (scheme, tamper) => {
    const delivery = await deliver({
      url: `${receiverUrl}/${scheme}`,
      data: data(),
      sign: { scheme, secret: SECRETS[scheme] },
      tamper,
    });
    const last = delivery.attempts.at(-1);
    expect(last?.tamper).toBe(tamper);
    // A duplicate's first send is the genuine one (accepted); the second is the replay.
    if (tamper === 'duplicate') {
      expect(delivery.attempts.map((attempt) => attempt.status)).toEqual([204, 409]);
    } else {
      expect(last?.status).toBe(400);
      if (tamper === 'stale') expect(last?.body).toMatch(/timestamp|tolerance/i);
    }
    expect(delivery.state).toBe('failed');
  });

  it("the signing module's own headers are accepted by each library, and refused over another body", async () => {
    const body = Buffer.from('{"type":"ping","n":1.0}');
    for (const scheme of ['standard', 'stripe', 'github'] as const) {
      const headers = await signWebhook({ scheme, secret: SECRETS[scheme], body, id: `module-${scheme}` });
      expect(await refusal(scheme, headers, body), scheme).toBeUndefined();
      expect(await refusal(scheme, headers, Buffer.from('{"type":"ping","n":1}')), scheme).toBeDefined();
    }
  });
});

describe("signatures made by the providers' libraries, checked at /endpoint/{name}", () => {
  const body = '{"type":"invoice.paid","amount":1.50,"id":"evt_1"}';
  const changed = body.replace('1.50', '1.5');

  /** A fresh name with a record and a check of `scheme` (secret: the provider's). */
  async function hook(scheme: Scheme, secret = SECRETS[scheme]): Promise<string> {
    const name = `lib-${scheme}-${++counter}`;
    await client.put(name, { data: { received: true } });
    await client.setSignature(name, { scheme, secret });
    return name;
  }

  async function send(name: string, headers: Record<string, string>, payload = body): Promise<void> {
    const response = await fetch(`${served.url}/endpoint/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: payload,
    });
    expect(response.status).toBe(200);
  }

  async function marks(name: string): Promise<(string | undefined)[]> {
    return (await client.requests(name)).map((entry) => entry.signature?.status);
  }

  it('standardwebhooks: valid, body changed, another secret, stale, replayed', async () => {
    const sign = (id: string, seconds: number, secret = STANDARD_SECRET) => ({
      'webhook-id': id,
      'webhook-timestamp': String(seconds),
      'webhook-signature': new Webhook(secret).sign(id, new Date(seconds * 1000), body),
    });
    const name = await hook('standard');
    await send(name, sign('msg_valid', now()));
    await send(name, sign('msg_changed', now()), changed);
    await send(name, sign('msg_other', now(), OTHER_STANDARD_SECRET));
    await send(name, sign('msg_stale', now() - 3600));
    await send(name, sign('msg_valid', now()));
    expect(await marks(name)).toEqual(['valid', 'invalid', 'invalid', 'stale', 'replayed']);
  });

  it('stripe.webhooks.generateTestHeaderString: valid, body changed, another secret, stale, replayed', async () => {
    const sign = (timestamp: number, secret = STRIPE_SECRET) => ({
      'Stripe-Signature': Stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp }),
    });
    const name = await hook('stripe');
    const valid = sign(now() - 1);
    await send(name, valid);
    await send(name, sign(now()), changed);
    await send(name, sign(now(), 'whsec_another_stripe_secret'));
    await send(name, sign(now() - 3600));
    await send(name, valid);
    expect(await marks(name)).toEqual(['valid', 'invalid', 'invalid', 'stale', 'replayed']);
  });

  it('@octokit/webhooks-methods sign: valid, body changed, another secret, replayed (GitHub signs no timestamp)', async () => {
    const sign = async (delivery: string, secret = GITHUB_SECRET) => ({
      'X-Hub-Signature-256': await octokitSign(secret, body),
      'X-GitHub-Delivery': delivery,
    });
    const name = await hook('github');
    await send(name, await sign('d-1'));
    await send(name, await sign('d-2'), changed);
    await send(name, await sign('d-3', 'another github secret'));
    await send(name, await sign('d-1'));
    await send(name, await sign('d-4'));
    expect(await marks(name)).toEqual(['valid', 'invalid', 'invalid', 'replayed', 'valid']);
  });
});
