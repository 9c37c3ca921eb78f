/**
 * A delivery URL's user and password are used to send (node:http makes them
 * `Authorization: Basic`) but never shown: `/api/deliveries` (read without a
 * token) carries `***` instead, and so does an attempt's message.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeDeliverySend } from '../adapter/node/index.js';
import { createApp } from '../http/create-app.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe("a delivery URL's credentials", () => {
  it('are sent to the receiver but never listed by the API', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const receiver = createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(302, { location: 'http://other:hidden@127.0.0.1:1/' }).end();
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => receiver.close(() => resolve())));
    const send = nodeDeliverySend();
    closers.push(async () => send.close());
    const app = createApp({ deliverySend: send });
    const port = (receiver.address() as AddressInfo).port;

    const created = await app.request('/api/deliveries', {
      method: 'POST',
      body: JSON.stringify({ url: `http://hook-user:s3cret@127.0.0.1:${port}/hook`, data: { a: 1 } }),
    });
    expect(created.status).toBe(202);
    const { id } = (await created.json()) as { id: string };
    await expect.poll(() => seen.length).toBe(1);
    expect(seen[0]?.authorization).toBe(`Basic ${Buffer.from('hook-user:s3cret').toString('base64')}`);

    await expect
      .poll(async () => ((await (await app.request(`/api/deliveries/${id}`)).json()) as { state: string }).state)
      .not.toBe('pending');
    for (const path of ['/api/deliveries', `/api/deliveries/${id}`]) {
      const text = await (await app.request(path)).text();
      expect(text, path).toContain(`http://***@127.0.0.1:${port}/hook`);
      for (const secret of ['s3cret', 'hook-user']) expect(text, path).not.toContain(secret);
    }
    // The attempt's message masks a Location's credentials too (its headers are kept as the receiver sent them).
    const shown = (await (await app.request(`/api/deliveries/${id}`)).json()) as {
      attempts: { error?: { message: string } }[];
    };
    expect(shown.attempts[0]?.error?.message).toContain('to http://***@127.0.0.1:1/');
  });
});
