/**
 * Chaos on the page, in Debian's Chromium against a real daemon: the endpoint's
 * chaos panel turns it on (share, faults, seed), shows it, and turns it off;
 * with none of its own it says the namespace's applies; each injected fault is
 * marked in the journal (`chaos 503`, `chaos 500 · namespace`).
 */
import { expect, test } from 'vitest';
import { poll, useWebTest } from './web-support.js';

const web = useWebTest();

async function send(path: string, method = 'GET', body?: string): Promise<number> {
  const response = await fetch(`${web.server.url}${path}`, { method, body });
  await response.text();
  return response.status;
}

test('the chaos panel switches it on and off; injected faults are marked in the journal', async () => {
  expect(await send('/api/endpoints/pay', 'PUT', '{"data":{"ok":true}}')).toBe(201);
  const { page } = await web.open();
  // Rows arrive at once only while the list is not in use (the page scrolled above it holds them behind "N new").
  const top = () => page.evaluate(() => window.scrollTo(0, 0));
  await page.goto(`${web.server.url}/#/e/pay`);
  const current = page.locator('#chaos-current');
  await poll(() => current.textContent()).toMatch(/^Off: /);
  expect(await page.locator('.chaos-panel button', { hasText: 'Turn off' }).isVisible()).toBe(false);

  // On: every request gets a 503.
  await page.getByRole('button', { name: 'Turn on' }).click();
  await page.locator('#chaos-rate').fill('100');
  await page.locator('#chaos-seed').fill('7');
  await page.getByRole('button', { name: 'Save chaos' }).click();
  await poll(() => current.textContent()).toBe('On: 100% of requests get 503 · seed 7');
  expect(JSON.parse(await (await fetch(`${web.server.url}/api/endpoints/pay/chaos`)).text())).toEqual({
    rate: 1,
    faults: ['503'],
    seed: 7,
  });
  await top();
  expect(await send('/endpoint/pay')).toBe(503);
  await poll(() => page.locator('.journal-list .by').allTextContents()).toEqual(['chaos 503']);

  // Off: the namespace's chaos, when there is one, is said to apply, and its faults are marked as its own.
  expect(await send('/api/chaos', 'PUT', '{"rate":1,"faults":["500"]}')).toBe(200);
  await page.getByRole('button', { name: 'Turn off' }).click();
  await poll(() => current.textContent()).toBe(
    "Off for this endpoint; the namespace's chaos applies: 100% of requests get 500 · random",
  );
  expect(await send('/api/endpoints/pay/chaos')).toBe(404);
  await top();
  expect(await send('/endpoint/pay')).toBe(500);
  await poll(() => page.locator('.journal-list .by').allTextContents()).toEqual(['chaos 500 · namespace', 'chaos 503']);
  expect(await page.locator('.journal-list .by').first().getAttribute('title')).toBe(
    "a fault the namespace's chaos injected",
  );

  // A bad value is the server's to refuse, with its code, in the panel.
  await page.getByRole('button', { name: 'Turn on' }).click();
  await page.locator('#chaos-rate').fill('150');
  await page.getByRole('button', { name: 'Save chaos' }).click();
  await poll(() => page.locator('#chaos-problem').textContent()).toContain('INVALID_CHAOS');
});
