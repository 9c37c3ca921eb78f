// What one attempt sends when a delivery is tampered with: `tamper: "signature"`
// must never send a signature that verifies. The changed character must carry
// whole bits of the MAC: in base64 the last character before `=` padding carries
// only 2 or 4 of them (the rest are dropped by a decoder), so changing it could
// leave the MAC as it was. Checked over many random bodies for every scheme,
// hash and encoding, by the module's verifier.
import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { DeliverySign } from '../api/delivery-json.js';
import { toBase64 } from '../codec/base64.js';
import { WebhookVerifier } from '../signing/signature.js';
import { buildSend } from './delivery-attempt.js';
import type { StoredDelivery } from './delivery-store.js';

const WHSEC = `whsec_${randomBytes(32).toString('base64')}`;
const TEXT = 'a shared secret';

const SIGNS: Record<string, DeliverySign> = {
  standard: { scheme: 'standard', secret: WHSEC },
  stripe: { scheme: 'stripe', secret: TEXT },
  github: { scheme: 'github', secret: TEXT },
  slack: { scheme: 'slack', secret: TEXT },
};
for (const algorithm of ['sha1', 'sha256', 'sha512'] as const) {
  for (const encoding of ['hex', 'base64'] as const) {
    SIGNS[`hmac ${algorithm} ${encoding}`] = {
      scheme: 'hmac',
      secret: TEXT,
      hmac: { header: 'X-Signature', algorithm, encoding, prefix: `${algorithm}=` },
    };
  }
}

function delivery(sign: DeliverySign, body: Uint8Array): StoredDelivery {
  return {
    id: 'd',
    url: 'http://127.0.0.1:1/',
    method: 'POST',
    headers: {},
    bodyBase64: toBase64(body),
    bodyBytes: body.length,
    sign,
    webhookId: 'msg_1',
    tamper: 'signature',
    delaysMs: [],
    timeoutMs: 1000,
    createdAt: 0,
    state: 'pending',
    attempts: [],
    version: 1,
  };
}

describe('tamper: "signature" never sends a valid signature', () => {
  it.each(Object.keys(SIGNS))('%s: 300 random bodies, each tampered signature invalid', async (kind) => {
    const sign = SIGNS[kind] as DeliverySign;
    const verifier = new WebhookVerifier({ scheme: sign.scheme, secret: sign.secret, hmac: sign.hmac });
    const nowMs = Date.now();
    const statuses = new Set<string>();
    for (let i = 0; i < 300; i++) {
      const body = randomBytes(1 + (i % 97));
      const { headers } = await buildSend(delivery(sign, body), 'signature', nowMs);
      const header = (name: string) =>
        headers[name] ?? headers[Object.keys(headers).find((k) => k.toLowerCase() === name) ?? ''];
      const untampered = await buildSend(delivery(sign, body), undefined, nowMs);
      expect(headers).not.toEqual(untampered.headers);
      statuses.add((await verifier.verify(header, body, Math.floor(nowMs / 1000))).status);
    }
    expect([...statuses]).toEqual(['invalid']);
  });

  it('github: the SHA-1 X-Hub-Signature sent beside the SHA-256 one is wrong too', async () => {
    const sign = SIGNS.github as DeliverySign;
    for (let i = 0; i < 50; i++) {
      const body = randomBytes(1 + i);
      const { headers } = await buildSend(delivery(sign, body), 'signature', 0);
      const right = `sha1=${createHmac('sha1', TEXT).update(body).digest('hex')}`;
      expect((await buildSend(delivery(sign, body), undefined, 0)).headers['x-hub-signature']).toBe(right);
      expect(headers['x-hub-signature']).toMatch(/^sha1=[0-9a-f]{40}$/);
      expect(headers['x-hub-signature']).not.toBe(right);
    }
  });
});
