/**
 * The endpoint's panels (queued answers, routes with headers and streams, the
 * signature check) and the journal rows' marks, in Debian's Chromium: no axe
 * violation of any impact with the panels as they first show and with their
 * forms open (the hmac settings, an API error, an answer's JSON), at 1280 and
 * 360 px, light and dark; on the phone nothing scrolls sideways and every
 * control is at least 24×24. Screenshots of each go to test-artifacts/web/.
 */
import { createHmac } from 'node:crypto';
import { beforeAll, describe, expect, test } from 'vitest';
import { axeViolations, poll, screenshot, smallTargets, useWebTest } from './web-support.js';

const web = useWebTest();
const NAME = 'payments-webhook';

async function api(path: string, method: string, body: unknown): Promise<void> {
  const response = await fetch(`${web.server.url}/api/${path}`, { method, body: JSON.stringify(body) });
  expect(response.ok, `${method} ${path}: ${response.status}`).toBe(true);
}

/** An endpoint using every panel: queued answers, routes, a signature check, and signed and unsigned requests. */
async function everyPanel(): Promise<void> {
  await api('endpoint/add', 'PUT', { name: NAME, data: { received: true } });
  await api(`endpoints/${NAME}/routes`, 'PUT', {
    routes: [
      { id: 'refund', match: { method: 'POST', path: '/refunds/:id' }, answer: { statusCode: 202, data: {} } },
      {
        id: 'events',
        match: { path: '/events' },
        answer: {
          headers: { 'cache-control': 'no-store' },
          stream: { format: 'sse', events: [{ data: { n: 1 } }, { data: { n: 2 } }], end: 'close' },
        },
      },
    ],
  });
  await api(`endpoints/${NAME}/signature`, 'PUT', {
    scheme: 'hmac',
    secret: 'panels-secret-0123456789',
    hmac: { header: 'x-signature', prefix: 'sha256=' },
  });
  const body = '{"type":"invoice.paid"}';
  const signature = `sha256=${createHmac('sha256', 'panels-secret-0123456789').update(body).digest('hex')}`;
  const send = (path: string, headers: Record<string, string>) =>
    fetch(`${web.server.url}/endpoint/${NAME}${path}`, { method: 'POST', body, headers });
  await send('', { 'x-signature': signature });
  await send('/refunds/re_42', {});
  await api(`endpoints/${NAME}/queue`, 'POST', {
    answers: [
      { statusCode: 503, data: { error: 'busy' }, times: 2 },
      { match: { method: 'POST', path: '/refunds/:id' }, headers: { 'retry-after': '5' }, statusCode: 429 },
      { fault: 'reset' },
    ],
  });
}

beforeAll(everyPanel);

const SIZES = [
  { label: 'wide', width: 1280, height: 900 },
  { label: 'phone', width: 360, height: 800 },
] as const;

describe.each(SIZES)('at $width px', (size) => {
  test.each(['light', 'dark'] as const)('%s: no axe violation on the panels, closed and open', async (scheme) => {
    const { page } = await web.open({ width: size.width, height: size.height });
    await page.emulateMedia({ colorScheme: scheme });
    const found: Record<string, string[]> = {};
    const check = async (view: string, selector: string) => {
      await page.mouse.move(0, 0);
      found[view] = await axeViolations(page);
      await page.locator(selector).scrollIntoViewIfNeeded();
      await screenshot(page, `${size.label}-${scheme}-${view}`);
      if (size.label === 'phone') {
        // Nothing sticks out to the right (named, when something does).
        const outside = await page.evaluate(() =>
          [...document.querySelectorAll<HTMLElement>('body *')]
            .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5)
            .map((el) => `${el.tagName.toLowerCase()}.${el.className} ${el.getBoundingClientRect().right.toFixed(0)}`),
        );
        expect(outside, view).toEqual([]);
        expect(await smallTargets(page), view).toEqual([]);
      }
    };

    await page.goto(`${web.server.url}/#/e/${NAME}`);
    await poll(() => page.locator('.queue-list li').count()).toBe(3);
    await poll(() => page.locator('.route-list li').count()).toBe(2);
    await poll(() => page.locator('.signature-current').textContent()).toMatch(/^hmac/);
    await poll(() => page.locator('.journal-list li').count()).toBe(2);
    await check('queue', '.queue-panel');
    await check('routes-signature', '.signature-panel');
    await check('journal-rows', '.journal-list');

    await page.locator('.queue-json summary').first().click();
    await page.locator('#queue-text').fill('{"fault":"explode"}');
    await page.getByRole('button', { name: 'Queue it' }).click();
    await poll(() => page.locator('#queue-problem').textContent()).toMatch(/INVALID_FAULT/);
    await check('queue-open', '.queue-form');

    await page.getByRole('button', { name: 'Change check' }).click();
    await poll(() => page.locator('.signature-hmac').isVisible()).toBe(true);
    await check('signature-form', '.signature-form');

    await page.getByRole('button', { name: 'Remove check' }).click();
    await check('signature-remove', '.signature-panel');
    await page.keyboard.press('Escape');

    expect(found).toEqual(Object.fromEntries(Object.keys(found).map((view) => [view, []])));
  });
});
