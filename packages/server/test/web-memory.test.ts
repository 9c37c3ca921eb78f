/**
 * The web page's memory panel (collections and state, docs/state.md), in a real
 * browser against a real daemon: an endpoint's detail lists its scenarios at
 * their values and its collections with their items as the exact JSON text the
 * server holds (`12345678901234567890`, `1.50`); a request that moves the state
 * shows on the page's own refresh; a value set in the page is put (a bad one
 * shows `INVALID_STATE`); Reset returns the collections to their seed and the
 * state to its start; a collection is removed after asking and put exactly as
 * typed. A name holding nothing has no panel until it holds something. No axe
 * violation with the panel open, at 1280 and 360 px, light and dark.
 */
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { axeViolations, poll, screenshot, smallTargets, useWebTest } from './web-support.js';

const web = useWebTest();

async function call(method: string, path: string, body?: string): Promise<Response> {
  return fetch(`${web.server.url}/api/endpoints/${path}`, { method, body });
}

async function put(path: string, body: unknown): Promise<void> {
  const response = await call('PUT', path, typeof body === 'string' ? body : JSON.stringify(body));
  expect(response.ok, `PUT ${path}: ${response.status} ${await response.clone().text()}`).toBe(true);
}

async function text(path: string): Promise<string> {
  const response = await call('GET', path);
  expect(response.status).toBe(200);
  return response.text();
}

const ITEM = '{"id":1,"balance":12345678901234567890,"price":1.50,"name":"Ada"}';

/** A name answered by routes that look at and move the state, with a collection of exact items. */
async function shop(name: string): Promise<void> {
  await put(`${name}/collections`, `{"users":[${ITEM},{"id":2,"name":"Grace"}],"orders":[]}`);
  await put(`${name}/routes`, {
    routes: [
      { match: { path: '/pay', state: 'started' }, answer: { statusCode: 503, setState: 'failed-once' } },
      { match: { path: '/pay' }, answer: { statusCode: 200, data: { ok: true } } },
      { match: { path: '/users' }, answer: { resource: 'users' } },
    ],
  });
}

const items = (page: Page, collection: string) =>
  page
    .locator('.memory-collection', { has: page.locator('h5', { hasText: collection }) })
    .locator('.memory-item')
    .allTextContents();
const stateValue = (page: Page, scenario: string) =>
  page
    .locator('.memory-state', { has: page.locator('.memory-scenario', { hasText: scenario }) })
    .locator('.memory-value');

test('state and collections show exactly; a moved state shows on refresh; Set puts it; a bad value shows INVALID_STATE; Reset returns to the seed', async () => {
  await shop('shop');
  const { page } = await web.open();
  await page.goto(`${web.server.url}/#/e/shop`);
  const memory = page.locator('.memory-panel');
  await poll(() => memory.isVisible()).toBe(true);

  // Items as the server holds them, byte for byte: every digit and 1.50.
  await poll(() => items(page, 'users')).toEqual([ITEM, '{"id":2,"name":"Grace"}']);
  expect(await memory.locator('.memory-collection h5').allTextContents()).toEqual(['orders', 'users']);
  expect(await memory.locator('.memory-collection .hint').allTextContents()).toEqual(['0 items', '2 items']);
  expect(await page.locator('.memory-count').textContent()).toBe('1 scenario, 2 collections');
  expect(await stateValue(page, 'default').textContent()).toBe('started');

  // A request moves the state and one adds an item: the page's own refresh shows both.
  expect((await fetch(`${web.server.url}/endpoint/shop/pay`, { method: 'POST' })).status).toBe(503);
  const added = await fetch(`${web.server.url}/endpoint/shop/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"name":"Linus","score":0.10}',
  });
  expect(added.status).toBe(201);
  await poll(() => stateValue(page, 'default').textContent()).toBe('failed-once');
  await poll(() => items(page, 'users')).toEqual([
    ITEM,
    '{"id":2,"name":"Grace"}',
    '{"name":"Linus","score":0.10,"id":3}',
  ]);

  // Reset: the collection back to its seed, the scenario to started (its start).
  await page.getByRole('button', { name: 'Reset', exact: true }).click();
  await poll(() => text('shop/state')).toBe('{"default":"started"}');
  expect(await text('shop/collections/users')).toBe(`[${ITEM},{"id":2,"name":"Grace"}]`);
  await poll(() => items(page, 'users')).toEqual([ITEM, '{"id":2,"name":"Grace"}']);
  await poll(() => stateValue(page, 'default').textContent()).toBe('started');
  await poll(() => page.locator('.toast').allTextContents()).toContain(
    'Reset shop: collections back to their seed, scenarios to their start',
  );

  // A value set in the page is put (and the routes see it).
  await page.getByLabel('New value of default').fill('failed-once');
  await page.getByRole('button', { name: 'Set default' }).click();
  await poll(() => text('shop/state')).toBe('{"default":"failed-once"}');
  await poll(() => stateValue(page, 'default').textContent()).toBe('failed-once');
  expect(await page.getByLabel('New value of default').inputValue()).toBe('');
  expect((await fetch(`${web.server.url}/endpoint/shop/pay`, { method: 'POST' })).status).toBe(200);

  // A bad value is refused with its code, kept in the box to be corrected, and nothing changes.
  await page.getByLabel('New value of default').fill('two words');
  await page.getByLabel('New value of default').press('Enter');
  await poll(() => page.locator('#memory-problem').textContent()).toMatch(/^Could not set the state: INVALID_STATE: /);
  expect(await page.getByLabel('New value of default').inputValue()).toBe('two words');
  expect(await text('shop/state')).toBe('{"default":"failed-once"}');
});

test('a collection is removed after asking, put exactly as typed, and changed from its items', async () => {
  await shop('store');
  const { page } = await web.open();
  await page.goto(`${web.server.url}/#/e/store`);
  await poll(() => items(page, 'users')).toHaveLength(2);

  const remove = page.getByRole('button', { name: 'Remove collection orders' });
  await remove.click();
  await page.getByRole('button', { name: 'Keep it' }).click();
  expect(await text('store/collections')).toContain('"orders":[]');
  await remove.click();
  await page
    .getByRole('group', { name: 'Remove collection orders' })
    .getByRole('button', { name: 'Remove “orders”' })
    .click();
  await poll(() => text('store/collections')).toBe(`{"users":[${ITEM},{"id":2,"name":"Grace"}]}`);
  await poll(() => page.locator('.memory-collection').count()).toBe(1);
  expect(await page.evaluate(() => document.activeElement?.id)).toBe('memory-collections-title');

  // Put exactly as typed: a big integer and 1.50 reach the server byte for byte.
  await page.locator('.memory-put summary').click();
  await page.getByLabel('Collection', { exact: true }).fill('prices');
  await page
    .getByLabel('Items (JSON: a list of objects)')
    .fill('[{"sku":"a","cents":98765432109876543210,"rate":1.50}]');
  await page.getByRole('button', { name: 'Put collection' }).click();
  await poll(() => text('store/collections/prices')).toBe('[{"sku":"a","cents":98765432109876543210,"rate":1.50}]');
  await poll(() => items(page, 'prices')).toEqual(['{"sku":"a","cents":98765432109876543210,"rate":1.50}']);

  // Not a list of objects: refused with its code, the text kept.
  await page.getByLabel('Collection', { exact: true }).fill('prices');
  await page.getByLabel('Items (JSON: a list of objects)').fill('[1]');
  await page.getByRole('button', { name: 'Put collection' }).click();
  await poll(() => page.locator('#memory-problem').textContent()).toMatch(
    /^Could not put the collection: INVALID_COLLECTION: /,
  );
  expect(await page.getByLabel('Items (JSON: a list of objects)').inputValue()).toBe('[1]');

  // Change fills the box with the items, laid out with every token as stored.
  await page.getByRole('button', { name: 'Change users' }).click();
  expect(await page.getByLabel('Collection', { exact: true }).inputValue()).toBe('users');
  expect(await page.getByLabel('Items (JSON: a list of objects)').inputValue()).toBe(
    '[\n  {\n    "id": 1,\n    "balance": 12345678901234567890,\n    "price": 1.50,\n    "name": "Ada"\n  },\n  {\n    "id": 2,\n    "name": "Grace"\n  }\n]',
  );
});

test('a name holding nothing has no panel; its first collection shows it on the next refresh', async () => {
  const add = await fetch(`${web.server.url}/api/endpoint/add`, {
    method: 'PUT',
    body: JSON.stringify({ name: 'plain', data: { ok: true } }),
  });
  expect(add.status).toBe(201);
  const { page } = await web.open();
  await page.goto(`${web.server.url}/#/e/plain`);
  await poll(() => page.locator('.queue-panel').isVisible()).toBe(true);
  expect(await page.locator('.memory-panel').isVisible()).toBe(false);

  await put('plain/collections/notes', '[{"id":1,"text":"hi"}]');
  await poll(() => page.locator('.memory-panel').isVisible()).toBe(true);
  expect(await items(page, 'notes')).toEqual(['{"id":1,"text":"hi"}']);
  expect(await page.locator('.memory-panel .empty').first().textContent()).toMatch(/^No scenarios\. /);

  // Its last collection removed elsewhere: the panel stays, quietly empty, rather than vanishing.
  expect((await call('DELETE', 'plain/collections/notes')).status).toBe(204);
  await poll(() => page.locator('.memory-count').textContent()).toBe('nothing held');
  expect(await page.locator('.memory-panel').isVisible()).toBe(true);
});

const SIZES = [
  { label: 'wide', width: 1280, height: 900 },
  { label: 'phone', width: 360, height: 800 },
] as const;

describe.each(SIZES)('at $width px', (size) => {
  test.each(['light', 'dark'] as const)('%s: no axe violation on the memory panel', async (scheme) => {
    const name = `memory-${size.label}-${scheme}`;
    await shop(name);
    const { page } = await web.open({ width: size.width, height: size.height });
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(`${web.server.url}/#/e/${name}`);
    await poll(() => items(page, 'users')).toHaveLength(2);
    const found: Record<string, string[]> = {};
    const check = async (view: string) => {
      await page.mouse.move(0, 0);
      found[view] = await axeViolations(page);
      await page.locator('.memory-panel').scrollIntoViewIfNeeded();
      await screenshot(page, `${size.label}-${scheme}-${view}`);
      if (size.label === 'phone') {
        const outside = await page.evaluate(() =>
          [...document.querySelectorAll<HTMLElement>('.memory-panel *')]
            .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5)
            .map((el) => `${el.tagName.toLowerCase()}.${el.className}`),
        );
        expect(outside, view).toEqual([]);
        expect(await smallTargets(page), view).toEqual([]);
      }
    };
    await check('memory');

    // Open at once: a removal asked about, the put form, and a refused value's failure beside the state.
    await page.getByRole('button', { name: 'Remove collection orders' }).click();
    await page.locator('.memory-put summary').click();
    await page.getByLabel('New value of default').fill('bad value');
    await page.getByRole('button', { name: 'Set default' }).click();
    await poll(() => page.locator('#memory-problem').textContent()).toMatch(/INVALID_STATE/);
    expect(await page.getByRole('group', { name: 'Remove collection orders' }).isVisible()).toBe(true);
    await check('memory-open');

    expect(found).toEqual({ memory: [], 'memory-open': [] });
  });
});
