// The signature check on the read path, over real sockets: requests signed by the
// module's own signer and, separately, by a computation written here with
// node:crypto (so a bug shared by both sides of the module cannot cancel out),
// for every scheme; missing, invalid, stale and replayed; key rotation; the exact
// bytes (re-serialised JSON fails); enforcement; and the one request filter.
import { createHmac, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServedApp, serve } from '../adapter/node/index.js';
import { createApp, createClient, type JournalEntry, type MockpointClient } from '../index.js';
import { JOURNAL_BODY_LIMIT } from '../registry/limits.js';
import { signWebhook } from '../signing/signature.js';
import type { SignatureSettings } from '../signing/signature-settings.js';
import { MemoryReplayGuard } from '../store/memory/memory-replay-guard.js';
import { SignatureCheck, UNTIMED_ID_MEMORY_SEC } from './signature-check.js';

const KEY = randomBytes(32);
const WHSEC = `whsec_${KEY.toString('base64')}`;
const TEXT_SECRET = 'a shared secret for stripe, github, slack and hmac';
const now = () => Math.floor(Date.now() / 1000);

/** Signatures computed here, from each provider's documentation, without the module. */
const independent = {
  standard(id: string, ts: number, body: Buffer, key = KEY) {
    const mac = createHmac('sha256', key).update(`${id}.${ts}.`).update(body).digest('base64');
    return { 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': `v1,${mac}` };
  },
  svix(id: string, ts: number, body: Buffer) {
    const mac = createHmac('sha256', KEY).update(`${id}.${ts}.`).update(body).digest('base64');
    return { 'svix-id': id, 'svix-timestamp': String(ts), 'svix-signature': `v1,${mac}` };
  },
  stripe(ts: number, body: Buffer, secret = TEXT_SECRET) {
    const mac = createHmac('sha256', secret).update(`${ts}.`).update(body).digest('hex');
    return { 'Stripe-Signature': `t=${ts},v1=${mac}` };
  },
  github(body: Buffer, delivery?: string) {
    const mac = createHmac('sha256', TEXT_SECRET).update(body).digest('hex');
    const headers: Record<string, string> = { 'X-Hub-Signature-256': `sha256=${mac}` };
    if (delivery !== undefined) headers['X-GitHub-Delivery'] = delivery;
    return headers;
  },
  slack(ts: number, body: Buffer) {
    const mac = createHmac('sha256', TEXT_SECRET).update(`v0:${ts}:`).update(body).digest('hex');
    return { 'X-Slack-Request-Timestamp': String(ts), 'X-Slack-Signature': `v0=${mac}` };
  },
  hmac(body: Buffer) {
    return { 'X-Signature': `sha512=${createHmac('sha512', TEXT_SECRET).update(body).digest('base64')}` };
  },
};

const HMAC_SETTINGS = { header: 'X-Signature', algorithm: 'sha512', encoding: 'base64', prefix: 'sha512=' } as const;

let served: ServedApp;
let client: MockpointClient;
let counter = 0;

beforeAll(async () => {
  served = await serve(createApp(), { overrideGlobalObjects: false });
  client = createClient({ baseUrl: served.url });
});
afterAll(() => served.close());

/** A fresh endpoint name with a record and a signature check. */
async function hook(check: Parameters<MockpointClient['setSignature']>[1]): Promise<string> {
  const name = `hook-${++counter}`;
  await client.put(name, { data: { received: true } });
  await client.setSignature(name, check);
  return name;
}

/** Posts `body` exactly as these bytes, with `headers`, to `/endpoint/{name}{subpath}`. */
function post(name: string, body: Buffer | string, headers: Record<string, string>, subpath = ''): Promise<Response> {
  return fetch(`${served.url}/endpoint/${name}${subpath}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
}

/** The signature of each request to `name`, oldest first. */
async function statuses(name: string): Promise<JournalEntry['signature'][]> {
  return (await client.requests(name)).map((entry) => entry.signature);
}

const BODY = Buffer.from('{"type":"invoice.paid",  "amount": 1.50, "id":"evt_1"}');

describe('each scheme: signed by the module and by an independent computation', () => {
  it('standard (and Svix header names)', async () => {
    const name = await hook({ scheme: 'standard', secret: WHSEC });
    const own = await signWebhook({ scheme: 'standard', secret: WHSEC, body: BODY, id: 'msg_own' });
    expect((await post(name, BODY, own)).status).toBe(200);
    expect((await post(name, BODY, independent.standard('msg_indep', now(), BODY))).status).toBe(200);
    expect((await post(name, BODY, independent.svix('msg_svix', now(), BODY))).status).toBe(200);
    expect((await statuses(name)).map((s) => s?.status)).toEqual(['valid', 'valid', 'valid']);
    expect((await statuses(name))[0]).toEqual({ scheme: 'standard', status: 'valid', reason: 'signature matches' });
  });

  it('stripe', async () => {
    const name = await hook({ scheme: 'stripe', secret: TEXT_SECRET });
    const own = await signWebhook({ scheme: 'stripe', secret: TEXT_SECRET, body: BODY });
    expect((await post(name, BODY, own)).status).toBe(200);
    expect((await post(name, BODY, independent.stripe(now() - 60, BODY))).status).toBe(200);
    expect((await statuses(name)).map((s) => s?.status)).toEqual(['valid', 'valid']);
  });

  it('github', async () => {
    const name = await hook({ scheme: 'github', secret: TEXT_SECRET });
    const own = await signWebhook({ scheme: 'github', secret: TEXT_SECRET, body: BODY, id: 'gh-own' });
    expect((await post(name, BODY, own)).status).toBe(200);
    expect((await post(name, BODY, independent.github(BODY, 'gh-indep'))).status).toBe(200);
    expect((await statuses(name)).map((s) => s?.status)).toEqual(['valid', 'valid']);
  });

  it('slack', async () => {
    const name = await hook({ scheme: 'slack', secret: TEXT_SECRET });
    const own = await signWebhook({ scheme: 'slack', secret: TEXT_SECRET, body: BODY });
    expect((await post(name, BODY, own)).status).toBe(200);
    expect((await post(name, BODY, independent.slack(now() - 60, BODY))).status).toBe(200);
    expect((await statuses(name)).map((s) => s?.status)).toEqual(['valid', 'valid']);
  });

  it('hmac (sha512, base64, with a prefix)', async () => {
    const name = await hook({ scheme: 'hmac', secret: TEXT_SECRET, hmac: HMAC_SETTINGS });
    const own = await signWebhook({ scheme: 'hmac', secret: TEXT_SECRET, body: BODY, hmac: HMAC_SETTINGS });
    expect((await post(name, BODY, own)).status).toBe(200);
    expect((await post(name, BODY, independent.hmac(BODY))).status).toBe(200);
    // The same body again is no replay: the generic scheme has no id or timestamp.
    expect((await post(name, BODY, independent.hmac(BODY))).status).toBe(200);
    expect((await statuses(name)).map((s) => s?.status)).toEqual(['valid', 'valid', 'valid']);
  });

  it('subpaths are checked too, and a binary body is checked over its bytes', async () => {
    const name = await hook({ scheme: 'github', secret: TEXT_SECRET });
    const binary = Buffer.from([0, 255, 254, 1, 0x80, 0xc3]);
    await post(name, binary, independent.github(binary), '/deep/path?x=1');
    const [entry] = await client.requests(name);
    expect(entry).toMatchObject({ subpath: '/deep/path', bodyEncoding: 'base64', signature: { status: 'valid' } });
  });
});

describe('what is not valid', () => {
  it('the exact bytes count: the same JSON re-serialised is invalid, and says how many bytes were checked', async () => {
    const name = await hook({ scheme: 'standard', secret: WHSEC });
    const headers = independent.standard('msg_bytes', now(), BODY);
    const reserialised = Buffer.from(JSON.stringify(JSON.parse(BODY.toString())));
    expect(reserialised.equals(BODY)).toBe(false);
    await post(name, reserialised, headers);
    const [mark] = await statuses(name);
    expect(mark).toMatchObject({ scheme: 'standard', status: 'invalid' });
    expect(mark?.reason).toContain(`over the ${reserialised.length} body bytes received`);
  });

  it('missing: no signature headers, or only some', async () => {
    const name = await hook({ scheme: 'slack', secret: TEXT_SECRET });
    await post(name, BODY, {});
    await post(name, BODY, { 'X-Slack-Request-Timestamp': String(now()) });
    const [none, part] = await statuses(name);
    expect(none).toMatchObject({ status: 'missing', reason: 'no X-Slack-Signature, X-Slack-Request-Timestamp header' });
    expect(part).toMatchObject({ status: 'missing', reason: 'no X-Slack-Signature header' });
  });

  it('invalid: another secret; the reason never holds a secret', async () => {
    const name = await hook({ scheme: 'stripe', secret: TEXT_SECRET });
    await post(name, BODY, independent.stripe(now(), BODY, 'someone else'));
    const [mark] = await statuses(name);
    expect(mark?.status).toBe('invalid');
    expect(mark?.reason).not.toContain(TEXT_SECRET);
    expect(mark?.reason).not.toContain('someone else');
  });

  it('stale: a correct signature with a timestamp outside the tolerance, either way', async () => {
    const name = await hook({ scheme: 'standard', secret: WHSEC, toleranceSec: 60 });
    await post(name, BODY, independent.standard('msg_old', now() - 600, BODY));
    await post(name, BODY, independent.standard('msg_future', now() + 600, BODY));
    await post(name, BODY, independent.standard('msg_inside', now() - 30, BODY));
    const [old, future, inside] = await statuses(name);
    expect(old).toMatchObject({ status: 'stale' });
    expect(old?.reason).toMatch(/is \d+ s old \(tolerance 60 s\)/);
    expect(future?.reason).toMatch(/in the future/);
    expect(inside?.status).toBe('valid');
  });

  it('replayed: a delivery id seen before within the tolerance, per scheme', async () => {
    const standard = await hook({ scheme: 'standard', secret: WHSEC });
    const first = independent.standard('msg_again', now(), BODY);
    await post(standard, BODY, first);
    await post(standard, BODY, first);
    // A new id with the same body is a new delivery.
    await post(standard, BODY, independent.standard('msg_other', now(), BODY));
    expect((await statuses(standard)).map((s) => s?.status)).toEqual(['valid', 'replayed', 'valid']);
    expect((await statuses(standard))[1]?.reason).toContain('delivery id "msg_again" arrived before');

    const stripe = await hook({ scheme: 'stripe', secret: TEXT_SECRET });
    const signed = independent.stripe(now(), BODY);
    await post(stripe, BODY, signed);
    await post(stripe, BODY, signed);
    expect((await statuses(stripe)).map((s) => s?.status)).toEqual(['valid', 'replayed']);

    const github = await hook({ scheme: 'github', secret: TEXT_SECRET });
    await post(github, BODY, independent.github(BODY, 'delivery-1'));
    await post(github, BODY, independent.github(BODY, 'delivery-1'));
    await post(github, BODY, independent.github(BODY, 'delivery-2'));
    expect((await statuses(github)).map((s) => s?.status)).toEqual(['valid', 'replayed', 'valid']);

    // Replays are known by what was verified, not by the header's text: the same
    // hex signature in capitals, or with another (bogus) v1 beside it, is the same delivery.
    const stripeCase = await hook({ scheme: 'stripe', secret: TEXT_SECRET });
    const original = independent.stripe(now(), BODY);
    const [t, v1] = (original['Stripe-Signature'] as string).split(',') as [string, string];
    await post(stripeCase, BODY, original);
    await post(stripeCase, BODY, { 'Stripe-Signature': `${t},${v1.toUpperCase().replace('V1=', 'v1=')}` });
    await post(stripeCase, BODY, { 'Stripe-Signature': `${t},v1=${'0'.repeat(64)},${v1}` });
    expect((await statuses(stripeCase)).map((s) => s?.status)).toEqual(['valid', 'replayed', 'replayed']);

    const slackCase = await hook({ scheme: 'slack', secret: TEXT_SECRET });
    const slackSigned = independent.slack(now(), BODY);
    await post(slackCase, BODY, slackSigned);
    await post(slackCase, BODY, {
      ...slackSigned,
      'X-Slack-Signature': `v0=${(slackSigned['X-Slack-Signature'] as string).slice(3).toUpperCase()}`,
    });
    expect((await statuses(slackCase)).map((s) => s?.status)).toEqual(['valid', 'replayed']);

    // An invalid request does not use up its id: the real delivery after it is valid.
    const fresh = await hook({ scheme: 'standard', secret: WHSEC });
    const good = independent.standard('msg_late', now(), BODY);
    await post(fresh, BODY, { ...good, 'webhook-signature': 'v1,AAAA' });
    await post(fresh, BODY, good);
    expect((await statuses(fresh)).map((s) => s?.status)).toEqual(['invalid', 'valid']);
  });
});

describe('bodies longer than the journal keeps (64 KiB): checked over every byte received', () => {
  const MB = 1_000_000;
  /** 1 MB of JSON-ish text whose last byte differs in `tampered`. */
  const big = Buffer.alloc(MB, '{"pad":"0123456789abcdef"}');
  const tampered = Buffer.from(big);
  tampered[MB - 1] = (tampered[MB - 1] as number) ^ 1;
  const SCHEMES = {
    standard: () => ({
      check: { scheme: 'standard', secret: WHSEC },
      headers: independent.standard('msg_big', now(), big),
    }),
    stripe: () => ({ check: { scheme: 'stripe', secret: TEXT_SECRET }, headers: independent.stripe(now(), big) }),
    github: () => ({ check: { scheme: 'github', secret: TEXT_SECRET }, headers: independent.github(big) }),
    slack: () => ({ check: { scheme: 'slack', secret: TEXT_SECRET }, headers: independent.slack(now(), big) }),
    hmac: () => ({
      check: { scheme: 'hmac', secret: TEXT_SECRET, hmac: HMAC_SETTINGS },
      headers: independent.hmac(big),
    }),
  } as const;

  it.each(Object.keys(SCHEMES) as (keyof typeof SCHEMES)[])(
    '%s: a 1 MB body is valid, and invalid when its last byte changed; the journal keeps its first 64 KiB',
    async (scheme) => {
      const { check, headers } = SCHEMES[scheme]();
      const name = await hook(check as Parameters<MockpointClient['setSignature']>[1]);
      expect((await post(name, big, headers)).status).toBe(200);
      expect((await post(name, tampered, headers)).status).toBe(200);
      expect((await statuses(name)).map((s) => s?.status)).toEqual(['valid', 'invalid']);
      const [entry] = await client.requests(name);
      expect(entry?.bodyTruncated).toBe(true);
      expect(entry?.body).toBe(big.subarray(0, JOURNAL_BODY_LIMIT).toString());
    },
  );

  it('the same through the Fetch route (Bun, Deno, Workers, app.fetch)', async () => {
    const app = createApp();
    const direct = createClient({ baseUrl: 'http://127.0.0.1', app });
    await direct.put('big', { data: { received: true } });
    await direct.setSignature('big', { scheme: 'stripe', secret: TEXT_SECRET, enforce: true });
    const send = (body: Buffer) =>
      app.fetch(
        new Request('http://127.0.0.1/endpoint/big', {
          method: 'POST',
          headers: independent.stripe(now() - 1, big),
          body,
        }),
      );
    expect((await send(big)).status).toBe(200);
    expect((await send(tampered)).status).toBe(401);
    const entries = await direct.requests('big');
    expect(entries.map((entry) => entry.signature?.status)).toEqual(['valid', 'invalid']);
    expect(entries.map((entry) => entry.bodyTruncated)).toEqual([true, true]);
  });

  it('a body over MOCKPOINT_MAX_BODY_BYTES is refused (413) before it is checked (#86)', async () => {
    const small = await serve(createApp({ maxBodyBytes: 100_000 }), { overrideGlobalObjects: false });
    try {
      const admin = createClient({ baseUrl: small.url });
      await admin.put('capped', { data: { received: true } });
      await admin.setSignature('capped', { scheme: 'github', secret: TEXT_SECRET });
      const body = big.subarray(0, 200_000);
      await fetch(`${small.url}/endpoint/capped`, { method: 'POST', headers: independent.github(body), body }).catch(
        () => undefined, // the server may close the connection before the whole upload is sent
      );
      await expect.poll(async () => (await admin.requests('capped')).length, { timeout: 10_000 }).toBe(1);
      const [entry] = await admin.requests('capped');
      expect(entry?.statusCode).toBe(413);
      expect(entry?.signature).toBeUndefined();
    } finally {
      await small.close();
    }
  });
});

describe('key rotation', () => {
  it('any secret of the list may sign; the reason says which; one not in it is invalid', async () => {
    const old = randomBytes(24);
    const oldSecret = `whsec_${old.toString('base64')}`;
    const name = await hook({ scheme: 'standard', secrets: [oldSecret, WHSEC] });
    await post(name, BODY, independent.standard('msg_k1', now(), BODY, old));
    await post(name, BODY, independent.standard('msg_k2', now(), BODY, KEY));
    await post(name, BODY, independent.standard('msg_k3', now(), BODY, randomBytes(24)));
    const [first, second, third] = await statuses(name);
    expect(first).toMatchObject({ status: 'valid', reason: 'signature matches (secret 1 of 2)' });
    expect(second).toMatchObject({ status: 'valid', reason: 'signature matches (secret 2 of 2)' });
    expect(third?.status).toBe('invalid');
    expect(third?.reason).toContain('webhook-signature: the signature does not match any of 2 secrets');
  });

  it('a sender listing two signatures (its own rotation) is valid when either matches', async () => {
    const name = await hook({ scheme: 'standard', secret: WHSEC });
    const headers = independent.standard('msg_two', now(), BODY);
    headers['webhook-signature'] = `v1,${randomBytes(32).toString('base64')} ${headers['webhook-signature']}`;
    await post(name, BODY, headers);
    expect((await statuses(name))[0]?.status).toBe('valid');
  });
});

describe('enforce', () => {
  it('answers 401 SIGNATURE_INVALID with the reason to anything but valid, and journals it; valid gets the normal answer', async () => {
    const name = await hook({ scheme: 'github', secret: TEXT_SECRET, enforce: true });
    const refused = await post(name, BODY, {});
    expect(refused.status).toBe(401);
    const body = (await refused.json()) as { error: { code: string; message: string; details: unknown } };
    expect(body.error.code).toBe('SIGNATURE_INVALID');
    expect(body.error.message).toContain('the github signature is missing: no X-Hub-Signature-256 header');
    expect(body.error.message).toContain(`PUT /api/endpoints/${name}/signature`);
    expect(body.error.details).toEqual({
      scheme: 'github',
      status: 'missing',
      reason: 'no X-Hub-Signature-256 header',
    });
    const tampered = Buffer.from(BODY.toString().replace('1.50', '9.50'));
    expect((await post(name, tampered, independent.github(BODY))).status).toBe(401);

    const accepted = await post(name, BODY, independent.github(BODY));
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toEqual({ received: true });
    const entries = await client.requests(name);
    expect(entries.map((e) => [e.statusCode, e.signature?.status])).toEqual([
      [401, 'missing'],
      [401, 'invalid'],
      [200, 'valid'],
    ]);
  });

  it('without enforce, an invalid request gets the normal answer', async () => {
    const name = await hook({ scheme: 'github', secret: TEXT_SECRET });
    const response = await post(name, BODY, {});
    expect(response.status).toBe(200);
    expect((await statuses(name))[0]?.status).toBe('missing');
  });

  it('removing the check stops checking: entries have no signature, enforce no longer refuses', async () => {
    const name = await hook({ scheme: 'github', secret: TEXT_SECRET, enforce: true });
    expect((await post(name, BODY, {})).status).toBe(401);
    await client.clearSignature(name);
    expect((await post(name, BODY, {})).status).toBe(200);
    const entries = await client.requests(name);
    expect(entries[1]).not.toHaveProperty('signature');
  });
});

describe('the request filter: signature', () => {
  it('journal reads, long-polls and quiet periods match on the status', async () => {
    const name = await hook({ scheme: 'stripe', secret: TEXT_SECRET });
    await post(name, BODY, {});
    await post(name, BODY, independent.stripe(now(), BODY));
    await post(name, BODY, independent.stripe(now(), BODY, 'wrong'));
    const valid = await client.requests(name, { match: { signature: 'valid' } });
    expect(valid.map((e) => e.signature?.status)).toEqual(['valid']);
    const invalid = await client.waitForRequests(name, { match: { signature: 'invalid' }, timeout: 2000 });
    expect(invalid).toHaveLength(1);
    // A name without a check has no signature: nothing matches.
    await client.put('unchecked', { data: 1 });
    await fetch(`${served.url}/endpoint/unchecked`);
    expect(await client.requests('unchecked', { match: { signature: 'missing' } })).toEqual([]);
    // No further invalid request arrives while only valid ones are sent.
    const quiet = client.expectNoRequests(name, { within: 300, match: { signature: 'invalid' } });
    await post(name, BODY, independent.stripe(now() - 5, BODY));
    await quiet;
  });

  it('a route can answer by signature status', async () => {
    const name = await hook({ scheme: 'github', secret: TEXT_SECRET });
    await client.setRoutes(name, [
      { match: { signature: 'valid' }, answer: { statusCode: 202, data: { accepted: true } } },
      { answer: { statusCode: 403, data: { accepted: false } } },
    ]);
    expect((await post(name, BODY, independent.github(BODY), '/events')).status).toBe(202);
    expect((await post(name, BODY, {}, '/events')).status).toBe(403);
  });

  it('an unknown status in a filter is refused with INVALID_QUERY', async () => {
    const response = await fetch(
      `${served.url}/api/endpoints/x/requests?match=${encodeURIComponent('{"signature":"good"}')}`,
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('INVALID_QUERY');
  });
});

describe('how long a delivery is remembered', () => {
  /** A check of `scheme` with a 60 s tolerance, and a replay memory on a clock the test moves. */
  function checker(check: Omit<SignatureSettings, 'toleranceSec' | 'enforce'>) {
    let clockMs = Date.now();
    const memory = new MemoryReplayGuard({}, () => clockMs);
    const signatureCheck = new SignatureCheck({ ...check, toleranceSec: 60, enforce: false });
    return {
      judge: (headers: Record<string, string>) => {
        const request = {
          method: 'POST',
          target: '/',
          rawHeaders: Object.entries(headers).flat(),
          body: new Uint8Array(BODY),
          bodyTruncated: false,
        };
        return Promise.resolve(signatureCheck.check('hook', request, memory)).then((mark) => mark.status);
      },
      later: (seconds: number) => {
        clockMs += seconds * 1000;
      },
    };
  }

  it('GitHub ids (no timestamp, so never stale) are remembered for a day, not the tolerance', async () => {
    const { judge, later } = checker({ scheme: 'github', secrets: [TEXT_SECRET] });
    const signed = independent.github(BODY, 'delivery-9');
    expect(await judge(signed)).toBe('valid');
    later(3600);
    expect(await judge(signed)).toBe('replayed');
    later(UNTIMED_ID_MEMORY_SEC);
    expect(await judge(signed)).toBe('valid');
  });

  it('ids of schemes with a timestamp are remembered for the tolerance (a later replay is stale)', async () => {
    const { judge, later } = checker({ scheme: 'standard', secrets: [WHSEC] });
    const signed = independent.standard('msg_tol', now(), BODY);
    expect(await judge(signed)).toBe('valid');
    later(30);
    expect(await judge(signed)).toBe('replayed');
  });
});
