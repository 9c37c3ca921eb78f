/**
 * The page on a 360 px phone (issue 24.4), in Debian's Chromium: a request with
 * a very long header name, query and path, opened, fits the width (no sideways
 * scrolling of the page), and every control of the view is a tap target of at
 * least 24×24 CSS px (WCAG 2.2 target size, minimum).
 */
import { expect, test } from 'vitest';
import { poll, screenshot, smallTargets, useWebTest } from './web-support.js';

const web = useWebTest();

test('at 360 px a request with a long header name, path and query fits, and every control is at least 24×24', async () => {
  const add = await fetch(`${web.server.url}/api/endpoint/add`, {
    method: 'PUT',
    body: JSON.stringify({ name: 'a-rather-long-endpoint-name-for-a-phone', data: { ok: true } }),
  });
  expect(add.status).toBe(201);
  const long = 'x-a-very-long-custom-header-name-that-some-webhook-providers-send-along-with-their-signature';
  await fetch(
    `${web.server.url}/endpoint/a-rather-long-endpoint-name-for-a-phone/${'segment/'.repeat(12)}end?${'key=value&'.repeat(10)}k=${'v'.repeat(100)}`,
    {
      method: 'POST',
      headers: { [long]: 'y'.repeat(300), 'content-type': 'text/plain' },
      body: `${'word '.repeat(200)}${'z'.repeat(500)}`,
    },
  );

  const { page } = await web.open({ width: 360, height: 740 });
  await page.goto(`${web.server.url}/#/e/a-rather-long-endpoint-name-for-a-phone`);
  await poll(() => page.locator('.journal-list li').count()).toBe(1);
  await page.locator('.journal-list summary').first().click();
  await poll(() => page.locator('.entry-actions').count()).toBe(1);
  await page.mouse.move(0, 0);
  await screenshot(page, 'phone-360-request', true);

  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const header = page.locator('.kv-table th', { hasText: long });
  const box = (await header.boundingBox()) as { x: number; width: number };
  expect(box.x + box.width).toBeLessThanOrEqual(360);

  // Every button, link, summary and field in view, sized for a finger (at least 24×24 CSS px).
  expect(await smallTargets(page)).toEqual([]);
});
