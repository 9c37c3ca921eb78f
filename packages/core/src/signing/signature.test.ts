import { createHmac } from 'node:crypto';
import { sign as octokitSign, verify as octokitVerify } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isMockpointError } from '../registry/errors.js';
import { deliveryId, signWebhook, verifyWebhook } from './signature.js';

// Fixed vectors: each signature below was made by the provider's own library (or
// node:crypto) for these inputs, and each test re-derives it, so none needs a clock.
const TEXT = '{"type":"invoice.paid","amount":4200,"note":"café ☕"}';
const BODY = new TextEncoder().encode(TEXT);
const CHANGED = new TextEncoder().encode(TEXT.replace('4200', '4201'));
const TS = 1763870400; // 2025-11-23T04:00:00Z
const LATER = TS + 301; // one second past the default tolerance

const STANDARD_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const STANDARD_ROTATED = 'whsec_dGhlIG5ldyBrZXkgYWZ0ZXIgcm90YXRpb24=';
const MSG_ID = 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W';
const STANDARD_SIG = 'v1,IazwG4SJVzzLtD5feKP6g3qDQsPHATWig2EqirVR9os=';
const STANDARD_ROTATED_SIG = 'v1,jaii9ZPQHiQziuwCC5JXkRLCl6MCcJ1gEbIK0I8AeXA=';

const STRIPE_SECRET = 'whsec_test_secret';
const STRIPE_HEADER = 't=1763870400,v1=6ee3338808aeaa5d012437141c54ef4d1328e9bcf89f27875a399d87ae39c457';

const GITHUB_SECRET = "It's a Secret to Everybody";
const GITHUB_SIG = 'sha256=1c3c0ce732f2f5071c0474a7bd1b1dfb170b55ced681fbcd0cc372c234e81324';

afterEach(() => {
  vi.useRealTimers();
});

/** Freezes `Date` (only) at `seconds`, for the reference libraries that read the clock. */
function clockAt(seconds: number): void {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(seconds * 1000);
}

describe('standard (Standard Webhooks)', () => {
  const signed = { 'webhook-id': MSG_ID, 'webhook-timestamp': String(TS), 'webhook-signature': STANDARD_SIG };
  const check = (
    headers: Record<string, string>,
    extra: { body?: Uint8Array; now?: number; secrets?: string[] } = {},
  ) =>
    verifyWebhook({
      scheme: 'standard',
      secrets: extra.secrets ?? [STANDARD_SECRET],
      headers,
      body: extra.body ?? BODY,
      now: extra.now ?? TS,
    });

  it('the vector is what the standardwebhooks library makes', () => {
    expect(new Webhook(STANDARD_SECRET).sign(MSG_ID, new Date(TS * 1000), TEXT)).toBe(STANDARD_SIG);
  });

  it('signs exactly as the library does, and the library accepts it', async () => {
    const headers = await signWebhook({
      scheme: 'standard',
      secret: STANDARD_SECRET,
      body: BODY,
      id: MSG_ID,
      timestamp: TS,
    });
    expect(headers).toEqual(signed);
    clockAt(TS);
    expect(new Webhook(STANDARD_SECRET).verify(TEXT, headers)).toEqual(JSON.parse(TEXT));
    expect(() => new Webhook(STANDARD_ROTATED).verify(TEXT, headers)).toThrow();
  });

  it('gives a fresh msg_ id when none is passed', async () => {
    const a = await signWebhook({ scheme: 'standard', secret: STANDARD_SECRET, body: BODY, timestamp: TS });
    const b = await signWebhook({ scheme: 'standard', secret: STANDARD_SECRET, body: BODY, timestamp: TS });
    expect(a['webhook-id']).toMatch(/^msg_[0-9a-f]{24}$/);
    expect(a['webhook-id']).not.toBe(b['webhook-id']);
  });

  it('accepts the library signature, and reports the id for replay detection', async () => {
    expect(await check(signed)).toEqual({ status: 'valid', reason: 'signature matches', id: MSG_ID });
  });

  it('accepts a secret without the whsec_ prefix, and svix- header names', async () => {
    const svix = { 'svix-id': MSG_ID, 'svix-timestamp': String(TS), 'svix-signature': STANDARD_SIG };
    const result = await verifyWebhook({
      scheme: 'standard',
      secret: STANDARD_SECRET.slice(6),
      headers: svix,
      body: BODY,
      now: TS,
    });
    expect(result).toMatchObject({ status: 'valid', id: MSG_ID });
  });

  it('a changed body is invalid', async () => {
    const result = await check(signed, { body: CHANGED });
    expect(result.status).toBe('invalid');
    expect(result.reason).toContain('webhook-signature');
    expect(result.reason).not.toContain(STANDARD_SECRET.slice(6));
  });

  it('a changed id or timestamp is invalid', async () => {
    expect((await check({ ...signed, 'webhook-id': 'msg_other' })).status).toBe('invalid');
    expect((await check({ ...signed, 'webhook-timestamp': String(TS + 1) })).status).toBe('invalid');
  });

  it('another secret is invalid', async () => {
    expect((await check(signed, { secrets: [STANDARD_ROTATED] })).status).toBe('invalid');
  });

  it('a timestamp outside the tolerance is stale, either way; inside it is valid', async () => {
    expect(await check(signed, { now: LATER })).toMatchObject({
      status: 'stale',
      reason: expect.stringContaining('301 s old'),
    });
    expect((await check(signed, { now: TS - 301 })).status).toBe('stale');
    expect((await check(signed, { now: TS + 300 })).status).toBe('valid');
    const wide = await verifyWebhook({
      scheme: 'standard',
      secret: STANDARD_SECRET,
      headers: signed,
      body: BODY,
      now: LATER,
      toleranceSec: 400,
    });
    expect(wide.status).toBe('valid');
  });

  it('a missing header is missing, naming it', async () => {
    for (const name of Object.keys(signed)) {
      const { [name]: _, ...rest } = signed as Record<string, string>;
      expect(await check(rest)).toMatchObject({ status: 'missing', reason: `no ${name} header` });
    }
  });

  it('key rotation: any signature in the list may match any of the secrets', async () => {
    const rotatedSig = new Webhook(STANDARD_ROTATED).sign(MSG_ID, new Date(TS * 1000), TEXT);
    expect(rotatedSig).toBe(STANDARD_ROTATED_SIG);
    // the sender signs with old and new key; the receiver knows only the new one
    const both = { ...signed, 'webhook-signature': `${STANDARD_SIG} ${STANDARD_ROTATED_SIG}` };
    expect((await check(both, { secrets: [STANDARD_ROTATED] })).status).toBe('valid');
    // the sender still signs with the old key; the receiver knows both
    const result = await check(signed, { secrets: [STANDARD_ROTATED, STANDARD_SECRET] });
    expect(result).toMatchObject({ status: 'valid', reason: 'signature matches (secret 2 of 2)' });
    // neither entry signed by a known secret
    expect((await check(both, { secrets: ['whsec_b3RoZXI='] })).status).toBe('invalid');
    // entries of other versions are not checked
    expect((await check({ ...signed, 'webhook-signature': STANDARD_SIG.replace('v1,', 'v2,') })).status).toBe(
      'invalid',
    );
  });
});

describe('stripe', () => {
  const check = (header: string | undefined, extra: { body?: Uint8Array; now?: number; secrets?: string[] } = {}) =>
    verifyWebhook({
      scheme: 'stripe',
      secrets: extra.secrets ?? [STRIPE_SECRET],
      headers: header === undefined ? {} : { 'Stripe-Signature': header },
      body: extra.body ?? BODY,
      now: extra.now ?? TS,
    });

  it('the vector is what the stripe library makes', () => {
    expect(Stripe.webhooks.generateTestHeaderString({ payload: TEXT, secret: STRIPE_SECRET, timestamp: TS })).toBe(
      STRIPE_HEADER,
    );
  });

  it('signs exactly as the library does, and constructEvent accepts it', async () => {
    const headers = await signWebhook({ scheme: 'stripe', secret: STRIPE_SECRET, body: BODY, timestamp: TS });
    expect(headers).toEqual({ 'stripe-signature': STRIPE_HEADER });
    clockAt(TS);
    const event = Stripe.webhooks.constructEvent(
      Buffer.from(BODY),
      headers['stripe-signature'] as string,
      STRIPE_SECRET,
    );
    expect(event).toEqual(JSON.parse(TEXT));
    expect(() =>
      Stripe.webhooks.constructEvent(Buffer.from(BODY), headers['stripe-signature'] as string, 'whsec_other'),
    ).toThrow();
  });

  it('accepts the library signature', async () => {
    expect(await check(STRIPE_HEADER)).toEqual({ status: 'valid', reason: 'signature matches', id: undefined });
  });

  it('a changed body, another secret or a changed t= is invalid', async () => {
    expect((await check(STRIPE_HEADER, { body: CHANGED })).status).toBe('invalid');
    expect((await check(STRIPE_HEADER, { secrets: ['whsec_other'] })).status).toBe('invalid');
    expect((await check(STRIPE_HEADER.replace(`t=${TS}`, `t=${TS + 1}`))).status).toBe('invalid');
  });

  it('a timestamp outside the tolerance is stale', async () => {
    expect(await check(STRIPE_HEADER, { now: LATER })).toMatchObject({
      status: 'stale',
      reason: expect.stringContaining('301 s old'),
    });
  });

  it('no header is missing; a header without t= or v1= is invalid', async () => {
    expect(await check(undefined)).toMatchObject({ status: 'missing', reason: 'no Stripe-Signature header' });
    expect(await check(STRIPE_HEADER.replace(`t=${TS},`, ''))).toMatchObject({
      status: 'invalid',
      reason: expect.stringContaining('no t='),
    });
    expect(await check(`t=${TS}`)).toMatchObject({ status: 'invalid', reason: expect.stringContaining('no v1=') });
  });

  it('several v1= (secrets being rolled) pass when any matches; v0= is not checked', async () => {
    const v1 = STRIPE_HEADER.split('v1=')[1] as string;
    const other = createHmac('sha256', 'whsec_new').update(`${TS}.`).update(BODY).digest('hex');
    expect((await check(`t=${TS},v1=${other},v1=${v1}`)).status).toBe('valid');
    expect((await check(`t=${TS},v1=${other},v1=${v1}`, { secrets: ['whsec_new'] })).status).toBe('valid');
    expect((await check(`t=${TS},v0=${v1}`)).status).toBe('invalid');
  });
});

describe('github', () => {
  const check = (headers: Record<string, string>, extra: { body?: Uint8Array; secrets?: string[] } = {}) =>
    verifyWebhook({ scheme: 'github', secrets: extra.secrets ?? [GITHUB_SECRET], headers, body: extra.body ?? BODY });

  it("GitHub's documented example vector", async () => {
    // docs.github.com "Validating webhook deliveries": this secret, body "Hello, World!"
    const documented = 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17';
    const headers = await signWebhook({
      scheme: 'github',
      secret: GITHUB_SECRET,
      body: new TextEncoder().encode('Hello, World!'),
    });
    // And the SHA-1 X-Hub-Signature GitHub still sends beside it.
    const sha1 = createHmac('sha1', GITHUB_SECRET).update('Hello, World!').digest('hex');
    expect(sha1).toBe('01dc10d0c83e72ed246219cdd91669667fe2ca59');
    expect(headers).toEqual({ 'x-hub-signature-256': documented, 'x-hub-signature': `sha1=${sha1}` });
  });

  it('signs exactly as @octokit/webhooks-methods does, and it accepts it', async () => {
    expect(await octokitSign(GITHUB_SECRET, TEXT)).toBe(GITHUB_SIG);
    const headers = await signWebhook({ scheme: 'github', secret: GITHUB_SECRET, body: BODY, id: 'delivery-1' });
    expect(headers).toEqual({
      'x-hub-signature-256': GITHUB_SIG,
      'x-hub-signature': `sha1=${createHmac('sha1', GITHUB_SECRET).update(BODY).digest('hex')}`,
      'x-github-delivery': 'delivery-1',
    });
    expect(await octokitVerify(GITHUB_SECRET, TEXT, headers['x-hub-signature-256'] as string)).toBe(true);
    expect(await octokitVerify('another', TEXT, headers['x-hub-signature-256'] as string)).toBe(false);
  });

  it('accepts the library signature and reports X-GitHub-Delivery as the id', async () => {
    const result = await check({ 'X-Hub-Signature-256': GITHUB_SIG, 'X-GitHub-Delivery': 'abc-123' });
    expect(result).toEqual({ status: 'valid', reason: 'X-Hub-Signature-256 matches', id: 'abc-123' });
    expect(deliveryId('github', new Headers({ 'X-GitHub-Delivery': 'abc-123' }))).toBe('abc-123');
  });

  it('a changed body or another secret is invalid; no header is missing', async () => {
    expect((await check({ 'x-hub-signature-256': GITHUB_SIG }, { body: CHANGED })).status).toBe('invalid');
    expect((await check({ 'x-hub-signature-256': GITHUB_SIG }, { secrets: ['another'] })).status).toBe('invalid');
    expect((await check({ 'x-hub-signature-256': GITHUB_SIG.replace('sha256=', 'sha1=') })).status).toBe('invalid');
    // a cut-off signature (a prefix of the right one) or a non-hex one is not a match
    expect((await check({ 'x-hub-signature-256': GITHUB_SIG.slice(0, 39) })).status).toBe('invalid');
    expect((await check({ 'x-hub-signature-256': 'sha256=' })).status).toBe('invalid');
    expect((await check({ 'x-hub-signature-256': `${GITHUB_SIG.slice(0, -1)}g` })).status).toBe('invalid');
    expect(await check({ 'x-hub-signature': 'sha1=00' })).toMatchObject({
      status: 'missing',
      reason: expect.stringContaining('SHA-1'),
    });
  });

  it('key rotation: any of the secrets may have signed', async () => {
    expect((await check({ 'x-hub-signature-256': GITHUB_SIG }, { secrets: ['old', GITHUB_SECRET] })).status).toBe(
      'valid',
    );
  });
});

describe('slack (vectors from node:crypto)', () => {
  const secret = '8f742231b10e8888abcd99yyyzzz85a5';
  const slackSig = (ts: number, body: Uint8Array, key = secret) =>
    `v0=${createHmac('sha256', key).update(`v0:${ts}:`).update(body).digest('hex')}`;
  const check = (headers: Record<string, string>, extra: { body?: Uint8Array; now?: number } = {}) =>
    verifyWebhook({ scheme: 'slack', secret, headers, body: extra.body ?? BODY, now: extra.now ?? TS });
  const signed = { 'X-Slack-Request-Timestamp': String(TS), 'X-Slack-Signature': slackSig(TS, BODY) };

  it('signs as Slack does', async () => {
    expect(await signWebhook({ scheme: 'slack', secret, body: BODY, timestamp: TS })).toEqual({
      'x-slack-request-timestamp': String(TS),
      'x-slack-signature': slackSig(TS, BODY),
    });
  });

  it('valid, changed body, another secret, stale, missing', async () => {
    expect((await check(signed)).status).toBe('valid');
    expect((await check(signed, { body: CHANGED })).status).toBe('invalid');
    expect((await check({ ...signed, 'X-Slack-Signature': slackSig(TS, BODY, 'other') })).status).toBe('invalid');
    expect((await check({ ...signed, 'X-Slack-Request-Timestamp': String(TS + 1) })).status).toBe('invalid');
    expect((await check(signed, { now: LATER })).status).toBe('stale');
    expect(await check({ 'X-Slack-Signature': signed['X-Slack-Signature'] })).toMatchObject({
      status: 'missing',
      reason: 'no X-Slack-Request-Timestamp header',
    });
    expect((await check({ 'X-Slack-Request-Timestamp': String(TS) })).status).toBe('missing');
  });
});

describe('hmac (generic; vectors from node:crypto)', () => {
  // bytes that are not UTF-8: the signature must be over the bytes, not a decoded text
  const raw = new Uint8Array([0x7b, 0xff, 0xfe, 0x00, 0x22, 0x7d]);
  const cases = [
    { algorithm: 'sha256', encoding: 'hex', prefix: 'sha256=' },
    { algorithm: 'sha1', encoding: 'base64', prefix: '' },
    { algorithm: 'sha512', encoding: 'hex', prefix: '' },
    { algorithm: 'sha512', encoding: 'base64', prefix: 'v1=' },
  ] as const;

  for (const { algorithm, encoding, prefix } of cases) {
    it(`${algorithm} ${encoding} prefix ${JSON.stringify(prefix)}`, async () => {
      const expected = prefix + createHmac(algorithm, 'shh').update(raw).digest(encoding);
      const hmac = { header: 'X-Signature', algorithm, encoding, prefix };
      expect(await signWebhook({ scheme: 'hmac', hmac, secret: 'shh', body: raw })).toEqual({
        'x-signature': expected,
      });
      const check = (body: Uint8Array, value: string | undefined, secret = 'shh') =>
        verifyWebhook({
          scheme: 'hmac',
          hmac,
          secret,
          body,
          headers: value === undefined ? {} : { 'X-Signature': value },
        });
      expect(await check(raw, expected)).toMatchObject({ status: 'valid' });
      expect((await check(raw.slice(0, -1), expected)).status).toBe('invalid');
      expect((await check(raw, expected, 'other')).status).toBe('invalid');
      expect(await check(raw, undefined)).toMatchObject({ status: 'missing', reason: 'no x-signature header' });
    });
  }

  it('a value without the prefix is invalid', async () => {
    const value = createHmac('sha256', 'shh').update(raw).digest('hex');
    const result = await verifyWebhook({
      scheme: 'hmac',
      hmac: { header: 'X-Signature', prefix: 'sha256=' },
      secret: 'shh',
      body: raw,
      headers: { 'x-signature': value },
    });
    expect(result).toMatchObject({ status: 'invalid', reason: 'x-signature does not start with "sha256="' });
  });
});

describe('bad settings throw a MockpointError with a stable code', () => {
  const codeOf = async (run: () => Promise<unknown>) => {
    const error = await run().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isMockpointError(error)).toBe(true);
    return (error as { code: string }).code;
  };

  it('unknown scheme', async () => {
    const scheme = 'paypal' as 'stripe';
    expect(await codeOf(() => signWebhook({ scheme, secret: 's', body: BODY }))).toBe('UNKNOWN_SIGNATURE_SCHEME');
    expect(await codeOf(() => verifyWebhook({ scheme, secret: 's', body: BODY, headers: {} }))).toBe(
      'UNKNOWN_SIGNATURE_SCHEME',
    );
  });

  it('a secret that does not decode, an empty one, or none', async () => {
    const secret = 'whsec_not base64!';
    expect(await codeOf(() => signWebhook({ scheme: 'standard', secret, body: BODY }))).toBe(
      'INVALID_SIGNATURE_SECRET',
    );
    expect(
      await codeOf(() =>
        verifyWebhook({ scheme: 'standard', secrets: [STANDARD_SECRET, secret], body: BODY, headers: {} }),
      ),
    ).toBe('INVALID_SIGNATURE_SECRET');
    expect(await codeOf(() => signWebhook({ scheme: 'github', secret: '', body: BODY }))).toBe(
      'INVALID_SIGNATURE_SECRET',
    );
    expect(await codeOf(() => verifyWebhook({ scheme: 'github', body: BODY, headers: {} }))).toBe(
      'INVALID_SIGNATURE_SECRET',
    );
  });

  it('the message never holds the secret', async () => {
    const error = await signWebhook({ scheme: 'standard', secret: 'whsec_s3cr3t!!', body: BODY }).catch(
      (e: Error) => e,
    );
    expect((error as Error).message).not.toContain('s3cr3t');
  });

  it('bad hmac settings, timestamps and tolerances', async () => {
    const sign = (hmac: unknown) => () =>
      signWebhook({ scheme: 'hmac', hmac: hmac as { header: string }, secret: 's', body: BODY });
    expect(await codeOf(sign(undefined))).toBe('INVALID_SIGNATURE_OPTIONS');
    expect(await codeOf(sign({ header: 'bad header' }))).toBe('INVALID_SIGNATURE_OPTIONS');
    expect(await codeOf(sign({ header: 'x-sig', algorithm: 'md5' }))).toBe('INVALID_SIGNATURE_OPTIONS');
    expect(await codeOf(sign({ header: 'x-sig', encoding: 'base32' }))).toBe('INVALID_SIGNATURE_OPTIONS');
    expect(await codeOf(() => signWebhook({ scheme: 'stripe', secret: 's', body: BODY, timestamp: 1.5 }))).toBe(
      'INVALID_SIGNATURE_OPTIONS',
    );
    expect(
      await codeOf(() => verifyWebhook({ scheme: 'stripe', secret: 's', body: BODY, headers: {}, toleranceSec: -1 })),
    ).toBe('INVALID_SIGNATURE_OPTIONS');
  });
});
