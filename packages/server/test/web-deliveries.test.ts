/**
 * The deliveries view (issue 26, the page's part), in Debian's Chromium against
 * a real daemon and a real node:http receiver on 127.0.0.1: a webhook sent from
 * the form (the body as exact text, a signing scheme and secret, a tamper
 * mode), each delivery listed newest first with its attempts (time, status,
 * duration, error, the receiver's answer) as they happen, the server's refusal
 * next to its field; axe clean and no sideways scrolling at 1280 and 360 px,
 * with screenshots under test-artifacts/web/.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { axeViolations, overflowX } from './web-axe.js';
import { poll, screenshot, useWebTest } from './web-support.js';

const web = useWebTest();

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
/** Statuses the receiver answers with, in turn (then 200). */
const script: number[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const status = script.shift() ?? 200;
      res.writeHead(status, { 'content-type': 'application/json', 'x-receiver': 'test' });
      res.end(status === 200 ? '{"received":true}' : '{"error":"try later"}');
    });
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
});

afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

/** A port nothing listens on: one the system just handed out, closed again. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
/** Exact text the page must not reformat: a big integer, key order, a decimal's zeros. */
const BODY = '{"type":"order.paid","id":12345678901234567890,"b":1,"a":1.50}';

describe('the deliveries view', () => {
  test.each([
    [1280, 860],
    [360, 800],
  ])('at %i px: sends a signed webhook from the form and shows every attempt as it happens', async (width, height) => {
    received.length = 0;
    const { page } = await web.open({ width, height });
    await page.goto(`${web.server.url}/`);
    await page.getByRole('link', { name: 'Deliveries' }).click();
    await poll(() => page.evaluate(() => location.hash)).toBe('#/deliveries');
    // The daemon is the file's: deliveries of an earlier run are listed too.
    const listed = await fetch(`${web.server.url}/api/deliveries`);
    const before = ((await listed.json()) as { deliveries: unknown[] }).deliveries.length;
    // While the list loads it has no items either: wait for the loaded state's words, not the count alone.
    if (before === 0)
      await poll(() => page.locator('.deliveries-view p[role="status"]').textContent()).toMatch(/No deliveries yet/);
    await poll(() => page.locator('.delivery-list > li').count()).toBe(before);

    // A refusal lands on its field: the secret of a standard scheme must be whsec_….
    await page.getByLabel('Receiver URL').fill(receiverUrl);
    await page.getByLabel('Body (sent exactly as written)').fill(BODY);
    await page.getByLabel('Signature scheme').selectOption('standard');
    await page.getByLabel('Secret', { exact: true }).fill('not a secret');
    await page.getByRole('button', { name: 'Send' }).click();
    await poll(() => page.locator('#delivery-secret-error').textContent()).toMatch(/./);
    expect(await page.getByLabel('Secret', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(received).toHaveLength(0);

    // A first attempt answered 503, the retry (after the standard 5 s) 200.
    script.push(503);
    await page.getByLabel('Secret', { exact: true }).fill(SECRET);
    await page.getByLabel('Retries').selectOption('standard');
    await page.getByRole('button', { name: 'Send' }).click();
    await poll(() => page.locator('.delivery-list > li').count()).toBe(before + 1);
    const card = page.locator('.delivery-list > li').first();
    await poll(() => card.locator('.attempt').count()).toBe(1);
    expect(await card.locator('.attempt').first().locator('.badge').textContent()).toBe('503');
    expect(await card.locator('.state').textContent()).toBe('Pending');
    expect(await card.locator('.delivery-meta').textContent()).toMatch(/next attempt at/);
    await expect.poll(() => card.locator('.state').textContent(), { timeout: 20_000, interval: 250 }).toBe('Delivered');
    expect(await card.locator('.attempt').count()).toBe(2);
    expect(await card.locator('.attempt').nth(1).locator('.badge').textContent()).toBe('200');
    expect(await card.locator('.attempt-duration').first().textContent()).toMatch(/^\d+ ms$/);
    // What the receiver got: the exact bytes, signed (Standard Webhooks), one id for both attempts.
    expect(received).toHaveLength(2);
    expect(received.map((r) => r.body)).toEqual([BODY, BODY]);
    expect(received[0]?.headers['webhook-signature']).toMatch(/^v1,/);
    expect(received[1]?.headers['webhook-id']).toBe(received[0]?.headers['webhook-id']);
    // The receiver's answer, on demand.
    await card.locator('.attempt').nth(1).locator('summary').click();
    expect(await card.locator('.attempt').nth(1).locator('pre').textContent()).toContain('{"received":true}');
    expect(await card.locator('.attempt').nth(1).locator('pre').textContent()).toContain('x-receiver: test');

    // A tampered one: the receiver (which checks nothing) answers 200, the page says which tamper it carried.
    await page.getByLabel('Retries').selectOption('');
    await page.getByLabel('Tamper').selectOption('body');
    await page.getByRole('button', { name: 'Send' }).click();
    await poll(() => page.locator('.delivery-list > li').count()).toBe(before + 2);
    const tampered = page.locator('.delivery-list > li').first();
    await poll(() => tampered.locator('.state').textContent()).toBe('Delivered');
    expect(await tampered.locator('.tag').textContent()).toBe('tamper: body');
    // The earlier one kept its open answer (rows are rebuilt only when they change).
    expect(await page.locator('.delivery-list > li').nth(1).locator('details[open]').count()).toBe(1);

    // An unreachable receiver: the error is shown on the attempt.
    await page.getByLabel('Tamper').selectOption('');
    await page.getByLabel('Receiver URL').fill(`http://127.0.0.1:${await closedPort()}/nothing-listens`);
    await page.getByRole('button', { name: 'Send' }).click();
    await poll(() => page.locator('.delivery-list > li').count()).toBe(before + 3);
    const refused = page.locator('.delivery-list > li').first();
    await poll(() => refused.locator('.state').textContent()).toBe('Failed');
    expect(await refused.locator('.attempt-error').textContent()).toMatch(/^CONNECTION_REFUSED: /);

    expect(await axeViolations(page)).toEqual([]);
    expect(await overflowX(page)).toBe(0);
    await screenshot(page, `deliveries-${width}`, true);
  });

  test("lists a twin's webhook to a host not allowed as not sent, with why and how to allow it (#84)", async () => {
    const twin = await fetch(`${web.server.url}/api/endpoints/stripe-far/twin`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ provider: 'stripe' }),
    });
    expect(twin.status).toBe(200);
    const stripe = (path: string, form: Record<string, string>) =>
      fetch(`${web.server.url}/endpoint/stripe-far${path}`, {
        method: 'POST',
        headers: { authorization: 'Bearer sk_test_far', 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form).toString(),
      });
    const made = await stripe('/v1/webhook_endpoints', { url: 'https://example.com/hook', 'enabled_events[]': '*' });
    expect(made.status).toBe(200);
    expect((await stripe('/v1/customers', { email: 'far@example.com' })).status).toBe(200);

    const { page } = await web.open({ width: 1280, height: 860 });
    await page.goto(`${web.server.url}/#/deliveries`);
    const card = page.locator('.delivery-list > li', { hasText: 'https://example.com/hook' }).first();
    await poll(() => card.locator('.state').textContent()).toBe('Not sent');
    expect(await card.locator('.delivery-outcome').textContent()).toMatch(/^not sent: .*"example\.com" is not$/);
    expect(await card.locator('.delivery-hint').textContent()).toMatch(/MOCKPOINT_DELIVERY_ALLOW_HOSTS=example\.com/);
    expect(await card.locator('.attempt').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'deliveries-not-sent', true);
  });
});
