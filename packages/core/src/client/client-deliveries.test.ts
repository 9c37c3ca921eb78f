import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { JsonText } from '../codec/json-text.js';
import { createApp, type MockpointApp } from '../http/create-app.js';
import { createClient } from './client.js';

let server: Server | undefined;
let app: MockpointApp | undefined;
afterEach(async () => {
  await app?.mockpoint.deliveries.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

/** A real receiver answering `statuses` in turn (the last one repeats), recording each body. */
async function receiver(statuses: number[]): Promise<{ url: string; bodies: string[] }> {
  const bodies: string[] = [];
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      bodies.push(body);
      res.writeHead(statuses[Math.min(bodies.length, statuses.length) - 1] as number).end();
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, bodies };
}

function client() {
  app = createApp();
  return createClient({ baseUrl: 'http://mockpoint.test', app });
}

it('deliver() sends exact JSON text and waitForDelivery() resolves with the attempts', async () => {
  const target = await receiver([503, 200]);
  const mock = client();
  const sent = await mock.deliver({
    url: target.url,
    data: JsonText.parse('{"id":12345678901234567890}'),
    retry: { delaysMs: [5] },
  });
  expect(sent.state).toBe('pending');
  const done = await mock.waitForDelivery(sent.id);
  expect(done.state).toBe('delivered');
  expect(done.attempts.map((a) => a.status)).toEqual([503, 200]);
  expect(target.bodies).toEqual(['{"id":12345678901234567890}', '{"id":12345678901234567890}']);
  expect((await mock.deliveries()).map((d) => d.id)).toEqual([sent.id]);
  expect((await mock.delivery(sent.id)).attempts).toHaveLength(2);
});

it('waitForDelivery() throws WAIT_TIMEOUT naming the attempts while it is still pending; cancelDelivery() ends it', async () => {
  const target = await receiver([500]);
  const mock = client();
  const sent = await mock.deliver({ url: target.url, body: 'x', retry: { delaysMs: [3_600_000] } });
  // The first attempt made (on a busy machine it may take longer than the wait below).
  await expect.poll(async () => (await mock.delivery(sent.id)).attempts.length, { timeout: 15_000 }).toBe(1);
  await expect(mock.waitForDelivery(sent.id, { timeout: 300 })).rejects.toMatchObject({
    code: 'WAIT_TIMEOUT',
    message: expect.stringContaining('attempts: 500'),
  });
  expect((await mock.cancelDelivery(sent.id)).state).toBe('cancelled');
  await expect(mock.cancelDelivery(sent.id)).rejects.toMatchObject({ code: 'DELIVERY_FINISHED' });
});
