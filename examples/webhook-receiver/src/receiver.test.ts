// The receiver (src/receiver.ts) tested the way its real senders will hit it:
// signed deliveries from mockpoint, good ones, deliberately bad ones and ones
// that arrive while it is busy.
import { expect, it, useMockServer } from '@mockpoint/vitest';
import { afterAll, beforeAll } from 'vitest';
import { type Receiver, startReceiver } from './receiver.js';

const SECRET = `whsec_${Buffer.from('example receiver secret').toString('base64')}`;
const mock = useMockServer();
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver(SECRET);
});
afterAll(() => receiver.close());

const signed = { scheme: 'standard', secret: SECRET } as const;

it('accepts a validly signed delivery', async () => {
  const sent = await mock.deliver({ url: receiver.url, data: { type: 'order.paid', id: 1 }, sign: signed });
  const done = await mock.waitForDelivery(sent.id);
  expect(done.state).toBe('delivered');
  expect(done.attempts[0]?.status).toBe(204);
  expect(receiver.accepted).toContainEqual({ type: 'order.paid', id: 1 });
});

it.each(['body', 'signature', 'secret', 'stale'] as const)('rejects a delivery with tamper %s', async (tamper) => {
  const before = receiver.accepted.length;
  const sent = await mock.deliver({ url: receiver.url, data: { type: 'order.paid', id: 2 }, sign: signed, tamper });
  const done = await mock.waitForDelivery(sent.id);
  expect(done.state).toBe('failed');
  expect(done.attempts[0]?.status).toBe(401);
  expect(receiver.accepted).toHaveLength(before);
});

it('rejects a replayed webhook-id', async () => {
  const sent = await mock.deliver({
    url: receiver.url,
    data: { type: 'order.paid', id: 3 },
    sign: signed,
    tamper: 'duplicate',
  });
  const done = await mock.waitForDelivery(sent.id);
  expect(done.attempts.map((a) => a.status)).toEqual([204, 409]);
});

it('is retried after a 503 and accepts the retry', async () => {
  receiver.busyFor(1);
  const sent = await mock.deliver({
    url: receiver.url,
    data: { type: 'order.paid', id: 4 },
    sign: signed,
    retry: { delaysMs: [50] },
  });
  const done = await mock.waitForDelivery(sent.id);
  expect(done.attempts.map((a) => a.status)).toEqual([503, 204]);
  expect(receiver.accepted).toContainEqual({ type: 'order.paid', id: 4 });
});
