/**
 * The signature check from the endpoint's view, in Debian's Chromium against a
 * real daemon: set (scheme, secret in a password field, tolerance, enforce, the
 * hmac scheme's header), shown with the secret masked (the page never holds it
 * again), enforced on the next requests (their rows say valid / missing),
 * refused settings shown with the API's code, removed after asking.
 */
import { createHmac } from 'node:crypto';
import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { poll, useWebTest } from './web-support.js';

const web = useWebTest();
const SECRET = 'page-secret-0123456789abcd';

/** How many arrivals the "N new" button holds (0 when it is hidden). */
async function pendingCount(page: Page): Promise<number> {
  const button = page.locator('.new-requests');
  if (!(await button.isVisible())) return 0;
  return Number.parseInt((await button.textContent()) ?? '0', 10) || 0;
}

async function check(name: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${web.server.url}/api/endpoints/${name}/signature`);
  return { status: response.status, body: await response.json() };
}

test('set, shown masked, enforced, refused with a code, removed', async () => {
  const add = await fetch(`${web.server.url}/api/endpoint/add`, {
    method: 'PUT',
    body: JSON.stringify({ name: 'signed', data: { ok: true } }),
  });
  expect(add.status).toBe(201);
  const { page } = await web.open();
  await page.goto(`${web.server.url}/#/e/signed`);
  const current = page.locator('.signature-current');
  await poll(() => current.textContent()).toMatch(/^Off: requests are not checked/);

  await page.getByRole('button', { name: 'Set check' }).click();
  expect(await page.getByRole('button', { name: 'Set check' }).getAttribute('aria-expanded')).toBe('true');
  expect(await page.locator('.signature-hmac').isVisible()).toBe(false);
  await page.getByLabel('Scheme').selectOption('hmac');
  await page.getByLabel('Header').fill('x-sig');
  await page.getByLabel('Secret').fill(SECRET);
  expect(await page.getByLabel('Secret').getAttribute('type')).toBe('password');
  await page.getByLabel('Tolerance (seconds)').fill('120');
  await page.getByLabel('Enforce: answer 401 to anything not valid').check();
  await page.getByRole('button', { name: 'Save check' }).click();

  await poll(() => current.textContent()).toBe(
    'hmac (x-sig, sha256, hex) · secret …abcd · 120 s tolerance · enforced: anything not valid is answered 401',
  );
  expect(await page.locator('#signature-form').isHidden()).toBe(true);
  expect(await check('signed')).toEqual({
    status: 200,
    body: {
      scheme: 'hmac',
      secrets: [{ hint: '…abcd' }],
      toleranceSec: 120,
      enforce: true,
      hmac: { header: 'x-sig', algorithm: 'sha256', encoding: 'hex', prefix: '' },
    },
  });
  // The secret went to the server once: nothing on the page holds it now.
  const held = await page.evaluate(
    (secret) =>
      document.documentElement.outerHTML.includes(secret) ||
      [...document.querySelectorAll('input')].some((input) => input.value.includes(secret)),
    SECRET,
  );
  expect(held).toBe(false);

  const body = '{"event":"paid"}';
  const signature = createHmac('sha256', SECRET).update(body).digest('hex');
  const send = (headers: Record<string, string>) =>
    fetch(`${web.server.url}/endpoint/signed`, { method: 'POST', body, headers });
  expect((await send({ 'x-sig': signature })).status).toBe(200);
  expect((await send({})).status).toBe(401);
  // The check is set below the requests, so the page is scrolled past the list's top: arrivals are
  // held behind "N new" (nothing moves under the reader); pressing it shows them.
  await poll(async () => (await page.locator('.journal-list .sig').count()) + (await pendingCount(page))).toBe(2);
  if (await page.locator('.new-requests').isVisible()) await page.locator('.new-requests').click();
  await poll(() => page.locator('.journal-list .sig').allTextContents()).toEqual([
    'signature missing',
    'signature valid',
  ]);
  expect(await page.locator('.journal-list .badge').first().textContent()).toBe('401');

  // Changing the check needs the secret again; a bad one is refused with the API's code and nothing changes.
  await page.getByRole('button', { name: 'Change check' }).click();
  expect(await page.getByLabel('Scheme').inputValue()).toBe('hmac');
  expect(await page.getByLabel('Header').inputValue()).toBe('x-sig');
  await page.getByLabel('Scheme').selectOption('standard');
  await page.getByLabel('Secret').fill('whsec_not*base64');
  await page.getByRole('button', { name: 'Save check' }).click();
  await poll(() => page.locator('#signature-problem').textContent()).toMatch(
    /^Could not save the check: INVALID_SIGNATURE_SECRET: /,
  );
  expect((await check('signed')).body).toMatchObject({ scheme: 'hmac' });
  await page.getByLabel('Secret').press('Escape');
  expect(await page.locator('#signature-form').isHidden()).toBe(true);
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Change check');

  await page.getByRole('button', { name: 'Remove check' }).click();
  await page.getByRole('button', { name: 'Remove it' }).click();
  await poll(() => current.textContent()).toMatch(/^Off: requests are not checked/);
  expect((await check('signed')).status).toBe(404);
  expect((await send({})).status).toBe(200);
});
