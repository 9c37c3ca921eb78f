/**
 * axe-core (injected into the page in Debian's Chromium) finds no violation,
 * of any impact, on any view: home, the create form with an error, an
 * endpoint's detail with an open journal entry (and its memory panel), the editor, the delete
 * question, a name with no endpoint, new requests held behind "N new" and an
 * empty filter; at 1280×800 and
 * 360×800, light and dark. Screenshots of each go to test-artifacts/web/ for a
 * person to look at.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import { axeViolations, closeBrowser, openPage, poll, screenshot, startWebDaemon, useBrowser } from './web-support.js';

let server: RunningServer;

beforeAll(async () => {
  server = await startWebDaemon();
  const add = (name: string, data: unknown, extra: object = {}) =>
    fetch(`${server.url}/api/endpoint/add`, { method: 'PUT', body: JSON.stringify({ name, data, ...extra }) });
  await add('github-webhook', { ok: true });
  await add('payment-succeeded', { id: 'pi_123', status: 'succeeded', amount: 4200 });
  await add('rate-limited', { error: 'slow down' }, { statusCode: 429 });
  await add('slow-upstream', { items: [] }, { delay: 1500 });
  await add('upstream-down', { error: 'bad gateway' }, { statusCode: 502 });
  for (const [method, body] of [
    ['POST', '{"type":"payment_intent.succeeded","data":{"object":{"id":"pi_123","amount":4200}}}'],
    ['POST', '{"type":"charge.refunded","data":{"object":{"id":"ch_9","amount":1200}}}'],
    ['GET', undefined],
  ] as const) {
    await fetch(`${server.url}/endpoint/payment-succeeded`, {
      method,
      body,
      headers: body ? { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=abc' } : {},
    });
  }
  await fetch(`${server.url}/endpoint/order-payd`, { method: 'POST', body: '{"order":7}' });
  // What the name remembers (its memory panel): a scenario and a collection.
  const memory = (path: string, body: string) =>
    fetch(`${server.url}/api/endpoints/payment-succeeded/${path}`, { method: 'PUT', body });
  await memory('state', '{"checkout":"started"}');
  await memory('collections', '{"payments":[{"id":"pi_123","amount":4200,"fee":1.50}],"refunds":[]}');
});

afterAll(async () => {
  await closeBrowser();
  await server?.close();
});

const SIZES = [
  { label: 'wide', width: 1280, height: 800 },
  { label: 'phone', width: 360, height: 800 },
] as const;

describe.each(SIZES)('at $width×$height', (size) => {
  // Ten views, axe on each: on a loaded 2-core runner one pass took past the 30 s default.
  test.each(['light', 'dark'] as const)(
    '%s: no axe violation on any view',
    async (scheme) => {
      const { page, problems } = await openPage(await useBrowser(), { width: size.width, height: size.height });
      await page.emulateMedia({ colorScheme: scheme });
      const name = (view: string) => `${size.label}-${scheme}-${view}`;
      const found: Record<string, string[]> = {};
      const check = async (view: string) => {
        await page.mouse.move(0, 0);
        found[view] = await axeViolations(page);
        await screenshot(page, name(view));
      };

      await page.goto(`${server.url}/`);
      await poll(() => page.locator('.endpoint-list li').count()).toBe(5);
      await poll(() => page.locator('#version').textContent()).toMatch(/^v/);
      await check('home');

      await page.goto(`${server.url}/#/new`);
      await page.getByLabel('Name', { exact: true }).fill('bad name');
      await poll(() => page.locator('#new-name-error').textContent()).not.toBe('');
      await check('new-with-error');

      await page.goto(`${server.url}/#/e/payment-succeeded`);
      await poll(() => page.locator('.journal-list li').count()).toBe(3);
      await poll(() => page.locator('.live').textContent()).toBe('Live');
      await page.locator('.journal-list summary').nth(1).click();
      await poll(() => page.locator('.memory-panel').isVisible()).toBe(true);
      await check('detail');

      await page.getByRole('button', { name: 'Edit' }).click();
      await poll(() => page.locator('.editor').count()).toBe(1);
      await check('edit');
      await page.keyboard.press('Escape');
      await poll(() => page.locator('.editor').count()).toBe(0);

      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      await check('delete-question');
      await page.keyboard.press('Escape');

      await page.goto(`${server.url}/#/e/order-payd`);
      // Each run adds one request to it (below): at least the one sent before.
      await poll(() => page.locator('.journal-list li').count()).toBeGreaterThan(0);
      await check('missing-name');

      // An open entry holds new requests behind the "N new" button in the journal's head.
      await page.locator('.journal-list summary').first().click();
      await poll(() => page.locator('.live').textContent()).toBe('Live (no endpoint)');
      await fetch(`${server.url}/endpoint/order-payd`, { method: 'POST', body: '{"order":8}' });
      await poll(() => page.locator('.new-requests').textContent()).toBe('1 new ↑');
      await check('new-requests');

      await page.goto(`${server.url}/`);
      await page.getByLabel('Filter endpoints').fill('zzz');
      await poll(() => page.locator('.list-body .empty').textContent()).toBe(
        'No endpoint has “zzz” in its name or body.',
      );
      await check('empty-filter');

      await page.context().close();
      expect(found).toEqual(Object.fromEntries(Object.keys(found).map((view) => [view, []])));
      expect(problems).toEqual([]);
    },
    120_000,
  );
});
