// The check where the runtime has no node:crypto (Cloudflare Workers): the same
// module loaded with process.getBuiltinModule answering nothing, so every HMAC goes
// through crypto.subtle and WebhookVerifier.verify answers with a promise — with the
// same results as the node:crypto path, against HMACs computed here with node:crypto.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

type SignatureModule = typeof import('./signature.js');
let subtle: SignatureModule;
let native: SignatureModule;

beforeAll(async () => {
  native = await import('./signature.js');
  vi.resetModules();
  vi.stubGlobal('process', { ...process, getBuiltinModule: () => undefined });
  subtle = await import('./signature.js');
  vi.unstubAllGlobals();
});
afterAll(() => vi.resetModules());

const SECRET = 'a text secret';
const BODY = new TextEncoder().encode('{"type":"invoice.paid","amount":1.50}');
const TS = 1_764_000_000;
const stripe = (body: Uint8Array, ts = TS) =>
  `t=${ts},v1=${createHmac('sha256', SECRET).update(`${ts}.`).update(body).digest('hex')}`;

describe('without node:crypto (Workers): crypto.subtle, through a promise', () => {
  it('verify answers with a promise, and the same results as with node:crypto', async () => {
    const cases = [
      { header: stripe(BODY), body: BODY, now: TS, status: 'valid' },
      { header: stripe(BODY), body: BODY.subarray(1), now: TS, status: 'invalid' },
      { header: stripe(BODY), body: BODY, now: TS + 301, status: 'stale' },
    ];
    for (const { header, body, now, status } of cases) {
      const headers = (name: string) => (name === 'stripe-signature' ? header : undefined);
      const later = new subtle.WebhookVerifier({ scheme: 'stripe', secret: SECRET }).verify(headers, body, now);
      expect(later).toBeInstanceOf(Promise);
      const at = new native.WebhookVerifier({ scheme: 'stripe', secret: SECRET }).verify(headers, body, now);
      expect(at).not.toBeInstanceOf(Promise);
      expect(await later).toEqual(at);
      expect((await later).status).toBe(status);
    }
  });

  it('signs the same headers as with node:crypto, for every scheme', async () => {
    const hmac = { header: 'X-Sig', algorithm: 'sha512', encoding: 'base64', prefix: 'sha512=' } as const;
    const { signatureSchemes } = await import('./signature-schemes.js');
    for (const { name: scheme } of signatureSchemes()) {
      const options = {
        scheme,
        secret: scheme === 'standard' ? `whsec_${Buffer.from('key bytes').toString('base64')}` : SECRET,
        body: BODY,
        timestamp: TS,
        id: 'msg_1',
        hmac,
      };
      expect(await subtle.signWebhook(options), scheme).toEqual(await native.signWebhook(options));
    }
  });
});
