/**
 * Finding things on the page (issue 24, item 8), in Debian's Chromium against
 * a real daemon: the endpoint list filtered by any part of a name or a stored
 * body, ignoring case (served by the API, conditionally: an unchanged list is a
 * 304); the journal filtered by path or body; the mistyped-name inbox with its
 * one-click create. axe on each, at 1280 and 360 px, with screenshots under
 * test-artifacts/web/.
 */
import { describe, expect, test } from 'vitest';
import { axeViolations, overflowX } from './web-axe.js';
import { poll, screenshot, useWebTest } from './web-support.js';

const web = useWebTest();

async function put(name: string, data: string): Promise<void> {
  const response = await fetch(`${web.server.url}/api/endpoints/${name}`, { method: 'PUT', body: `{"data":${data}}` });
  expect(response.status).toBe(201);
}

async function send(name: string, body: string, path = ''): Promise<void> {
  const response = await fetch(`${web.server.url}/endpoint/${name}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  expect([200, 404]).toContain(response.status);
}

describe('finding things', () => {
  test.each([
    [1280, 860],
    [360, 800],
  ])('at %i px: the list filters by name or body, any case, and polls with 304s', async (width, height) => {
    await fetch(`${web.server.url}/api/endpoints`, { method: 'DELETE' });
    await put('order-paid', '{"event":"Order.Paid","amount":4200}');
    await put('refund', '{"event":"charge.refunded","note":"ORDER 7 refunded"}');
    await put('user-created', '{"id":12345678901234567890}');
    await put('health', '{"ok":true}');
    const { page } = await web.open({ width, height });
    const answers: { url: string; status: number }[] = [];
    page.on('response', (response) => {
      if (response.url().includes('/api/endpoints?')) answers.push({ url: response.url(), status: response.status() });
    });
    await page.goto(`${web.server.url}/`);
    await poll(() => page.locator('#list-title .count').textContent()).toBe('4');

    await page.getByLabel('Filter endpoints').fill('oRdEr');
    // "order-paid" by its name, "refund" by its body ("ORDER 7"); nothing else.
    await poll(() => page.locator('.endpoint-list .name').allTextContents()).toEqual(['order-paid', 'refund']);
    expect(await page.locator('#list-title .count').textContent()).toBe('2 containing “oRdEr”');
    await page.getByLabel('Filter endpoints').fill('345678901234');
    await poll(() => page.locator('.endpoint-list .name').allTextContents()).toEqual(['user-created']);
    await page.getByLabel('Filter endpoints').fill('no such thing');
    await poll(() => page.locator('.list-body .empty').textContent()).toBe(
      'No endpoint has “no such thing” in its name or body.',
    );
    await page.getByLabel('Filter endpoints').fill('order');
    await poll(() => page.locator('.endpoint-list .name').allTextContents()).toEqual(['order-paid', 'refund']);
    // The list is polled: unchanged, the server answers 304 with no body.
    await poll(() => answers.some((a) => a.url.includes('contains=order') && a.status === 304)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    expect(await overflowX(page)).toBe(0);
    await screenshot(page, `find-list-filter-${width}`);
  });

  test.each([
    [1280, 860],
    [360, 800],
  ])(
    'at %i px: the journal filters by path or body; the inbox lists mistyped names and creates one in one click',
    async (width, height) => {
      await fetch(`${web.server.url}/api/endpoints`, { method: 'DELETE' });
      await put('hook', '{"ok":true}');
      await send('hook', '{"type":"invoice.PAID","id":1}');
      await send('hook', '{"type":"customer.created","id":2}');
      await send('hook', '{"type":"invoice.voided","id":3}', '/v2/events');
      await send('hook-paymnt', '{"type":"payment"}');
      await send('hook-paymnt', '{"type":"payment","again":true}');
      await send('ordr', '{}');
      const { page } = await web.open({ width, height });

      await page.goto(`${web.server.url}/#/e/hook`);
      await poll(() => page.locator('.journal-list > li').count()).toBe(3);
      const filter = page.getByLabel('Filter requests');
      await filter.fill('INVOICE');
      await poll(() => page.locator('.journal-list > li:not([hidden])').count()).toBe(2);
      expect(await page.locator('.filter-count').textContent()).toBe('2 of 3 shown');
      await filter.fill('/v2/EVENTS');
      await poll(() => page.locator('.journal-list > li:not([hidden])').count()).toBe(1);
      // A request arriving while filtered is filtered too.
      await send('hook', '{"type":"invoice.created","id":4}', '/v2/events');
      // Taken at once by an idle list, or held behind "1 new" (a phone scrolled into the list): either way, shown.
      const held = page.locator('.new-requests');
      await poll(async () => (await page.locator('.journal-list > li').count()) === 4 || (await held.isVisible())).toBe(
        true,
      );
      if (await held.isVisible()) await held.click();
      await poll(() => page.locator('.journal-list > li').count()).toBe(4);
      await poll(() => page.locator('.journal-list > li:not([hidden])').count()).toBe(2);
      expect(await page.locator('.filter-count').textContent()).toBe('2 of 4 shown');
      expect(await axeViolations(page)).toEqual([]);
      expect(await overflowX(page)).toBe(0);
      // The journal's head at the top, so the screenshot shows the filtered rows.
      await page.locator('.journal').evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await screenshot(page, `find-journal-filter-${width}`);
      await filter.fill('');
      await poll(() => page.locator('.journal-list > li:not([hidden])').count()).toBe(4);

      // The inbox: the names that got requests and have no endpoint, newest first.
      await page.goto(`${web.server.url}/#/`);
      const inbox = page.getByRole('region', { name: /Mistyped URLs/ });
      await poll(() => inbox.locator('.inbox-list .name').allTextContents()).toEqual(['ordr', 'hook-paymnt']);
      expect(await inbox.locator('li[data-name="hook-paymnt"] .inbox-meta').textContent()).toMatch(
        /^2 requests, last (just now|\d+ s ago)$/,
      );
      expect(await axeViolations(page)).toEqual([]);
      expect(await overflowX(page)).toBe(0);
      await screenshot(page, `find-inbox-${width}`);

      // One click: the endpoint exists, the page shows it with the requests it already got.
      await inbox.getByRole('button', { name: 'Create hook-paymnt' }).click();
      await poll(() => page.evaluate(() => location.hash)).toBe('#/e/hook-paymnt');
      expect((await fetch(`${web.server.url}/api/endpoints/hook-paymnt`)).status).toBe(200);
      await poll(() => page.locator('.journal-list > li').count()).toBe(2);
      expect(await (await fetch(`${web.server.url}/endpoint/hook-paymnt`)).text()).toBe('{}');
      await page.goto(`${web.server.url}/#/`);
      await poll(() => inbox.locator('.inbox-list .name').allTextContents()).toEqual(['ordr']);
    },
  );
});
