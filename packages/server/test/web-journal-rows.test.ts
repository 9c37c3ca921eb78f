/**
 * Each journal row says, in Debian's Chromium against a real daemon, what a
 * request reached and who answered it: the subpath below the endpoint's URL
 * (set apart from it), `queued` / `route <id>` / `record` / `none`, and, where
 * the name checks signatures, the outcome with the reason on hover and in the
 * opened entry; all of it fits a 360 px phone.
 */
import { createHmac } from 'node:crypto';
import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { poll, screenshot, useWebTest } from './web-support.js';

const web = useWebTest();
const SECRET = 'rows-secret-0123456789';

async function api(path: string, method: string, body: unknown): Promise<void> {
  const response = await fetch(`${web.server.url}/api/${path}`, { method, body: JSON.stringify(body) });
  expect(response.ok, `${method} ${path}: ${response.status}`).toBe(true);
}

/** An endpoint with a record, a route, a queued answer and an HMAC check, and one request of each kind. */
async function endpointWithEveryKindOfRow(name: string): Promise<void> {
  await api('endpoint/add', 'PUT', { name, data: { ok: true } });
  await api(`endpoints/${name}/routes`, 'PUT', {
    routes: [{ id: 'user', match: { method: 'GET', path: '/users/:id' }, answer: { statusCode: 200, data: {} } }],
  });
  await api(`endpoints/${name}/signature`, 'PUT', { scheme: 'hmac', secret: SECRET, hmac: { header: 'x-sig' } });
  const send = (path: string, init: RequestInit = {}) => fetch(`${web.server.url}/endpoint/${name}${path}`, init);
  const body = '{"event":"paid"}';
  const signed = createHmac('sha256', SECRET).update(body).digest('hex');
  expect((await send('', { method: 'POST', body, headers: { 'x-sig': signed } })).status).toBe(200);
  expect((await send('/users/7?x=1')).status).toBe(200);
  expect((await send('/nowhere')).status).toBe(404);
  await api(`endpoints/${name}/queue`, 'POST', { answers: [{ statusCode: 503 }] });
  expect((await send('', { method: 'POST', body, headers: { 'x-sig': 'f'.repeat(64) } })).status).toBe(503);
}

/** Each row's summary pieces, newest first. */
function rows(page: Page) {
  return page.locator('.journal-list summary').evaluateAll((summaries) =>
    summaries.map((summary) => ({
      path: summary.querySelector('.path')?.textContent,
      subpath: summary.querySelector('.subpath')?.textContent ?? null,
      by: summary.querySelector('.by, .queued')?.textContent,
      signature: summary.querySelector('.sig')?.textContent,
    })),
  );
}

test('a row shows its subpath, who answered and the signature check, the reason on hover and when opened', async () => {
  await endpointWithEveryKindOfRow('rows');
  const { page } = await web.open();
  await page.goto(`${web.server.url}/#/e/rows`);
  await poll(() => page.locator('.journal-list li').count()).toBe(4);
  expect(await rows(page)).toEqual([
    { path: '/endpoint/rows', subpath: null, by: 'queued', signature: 'signature invalid' },
    { path: '/endpoint/rows/nowhere', subpath: '/nowhere', by: 'none', signature: 'signature missing' },
    { path: '/endpoint/rows/users/7?x=1', subpath: '/users/7?x=1', by: 'route user', signature: 'signature missing' },
    { path: '/endpoint/rows', subpath: null, by: 'record', signature: 'signature valid' },
  ]);
  const invalid = page.locator('.journal-list .sig').first();
  expect(await invalid.getAttribute('title')).toMatch(/^hmac: .*does not match/);

  await page.locator('.journal-list summary').first().click();
  const answer = page.locator('.journal-list .entry-body .kv-table').first();
  await poll(() => answer.locator('tr').allTextContents()).toEqual([
    'answered bya queued one-shot answer',
    'subpath/',
    expect.stringMatching(/^signatureinvalid \(hmac\): .*does not match/),
  ]);
  await page.mouse.move(0, 0);
  await screenshot(page, 'journal-rows-1280');
});

test('at 360 px the marks fit and the subpath stays in view when the path is cut', async () => {
  const name = 'a-long-endpoint-name-that-fills-a-phone-line';
  await endpointWithEveryKindOfRow(name);
  const { page } = await web.open({ width: 360, height: 740 });
  await page.goto(`${web.server.url}/#/e/${name}`);
  await poll(() => page.locator('.journal-list li').count()).toBe(4);
  await page.locator('.journal-list li').first().scrollIntoViewIfNeeded();
  await page.mouse.move(0, 0);
  await screenshot(page, 'journal-rows-360');
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  // The route's row: the endpoint's URL is cut, the subpath is shown whole.
  const subpath = page.locator('.journal-list .subpath', { hasText: '/users/7' });
  const shown = await subpath.evaluate((el) => {
    // The text's own width in the element's font, against the width it is given.
    const context = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;
    context.font = getComputedStyle(el).font;
    return { text: context.measureText(el.textContent ?? '').width, box: el.getBoundingClientRect().width };
  });
  expect(shown.text).toBeGreaterThan(0);
  expect(shown.box).toBeGreaterThanOrEqual(shown.text - 0.01);
  for (const mark of await page.locator('.journal-list .by, .journal-list .queued, .journal-list .sig').all()) {
    const box = (await mark.boundingBox()) as { x: number; width: number };
    expect(box.x + box.width).toBeLessThanOrEqual(360);
  }
});

test("an opened entry answered by a validating route lists what did not fit the route's schemas", async () => {
  const query = { type: 'object', properties: { limit: { type: 'integer' } } };
  await api('endpoints/checked/routes', 'PUT', {
    routes: [{ id: 'list', match: { path: '/items' }, validate: { mode: 'report', query }, answer: {} }],
  });
  expect((await fetch(`${web.server.url}/endpoint/checked/items?limit=ten`)).status).toBe(200);
  const { page } = await web.open();
  await page.goto(`${web.server.url}/#/e/checked`);
  await poll(() => page.locator('.journal-list li').count()).toBe(1);
  await page.locator('.journal-list summary').first().click();
  const answer = page.locator('.journal-list .entry-body .kv-table').first();
  await poll(() => answer.locator('tr').allTextContents()).toEqual([
    'answered byroute list',
    'subpath/items',
    expect.stringMatching(/^validationquery\/limit: .*integer/),
  ]);
});
