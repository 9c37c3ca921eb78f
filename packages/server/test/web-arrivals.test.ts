/**
 * Requests arriving while the journal is read (issue 24.3), in Debian's
 * Chromium: new rows never move what is under the pointer or the focus, nor
 * the rows of a list scrolled into (layout shift measured by Chromium's
 * `layout-shift` entries); a "N new" button inserts them on demand; an idle
 * list takes them at once.
 */
import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { layoutShifts, poll, screenshot, useWebTest, watchLayoutShifts } from './web-support.js';

const web = useWebTest();

async function endpointWithRequests(name: string, count: number): Promise<void> {
  const added = await fetch(`${web.server.url}/api/endpoint/add`, {
    method: 'PUT',
    body: JSON.stringify({ name, data: { ok: true } }),
  });
  expect(added.status).toBe(201);
  for (let i = 1; i <= count; i++) await send(name, `old-${i}`);
}

async function send(name: string, label: string): Promise<void> {
  const response = await fetch(`${web.server.url}/endpoint/${name}?n=${label}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ event: 'order.paid', label }),
  });
  expect(response.status).toBe(200);
}

async function open(name: string, size: { width: number; height: number }): Promise<Page> {
  const watched = await web.open(size);
  await watchLayoutShifts(watched.page);
  await watched.page.goto(`${web.server.url}/#/e/${name}`);
  await poll(() => watched.page.locator('.live').textContent()).toBe('Live');
  return watched.page;
}

/** The journal row's id at a point of the window (what a click there would open). */
function rowAt(page: Page, x: number, y: number): Promise<string | undefined> {
  return page.evaluate(
    ([px, py]) =>
      (document.elementFromPoint(px as number, py as number)?.closest('.entry') as HTMLElement | null)?.dataset.id,
    [x, y],
  );
}

test('with the pointer on the list, arrivals wait behind "N new": nothing moves (CLS 0); the button shows them, newest first, focused', async () => {
  await endpointWithRequests('watched', 12);
  const page = await open('watched', { width: 1280, height: 860 });
  await poll(() => page.locator('.journal-list li').count()).toBe(12);
  const newButton = page.locator('.new-requests');
  expect(await newButton.isVisible()).toBe(false);

  // The pointer rests on the third row, as one about to click it.
  const third = page.locator('.journal-list li').nth(2).locator('summary');
  // The endpoint's view (record, routes panel) may push the journal below the fold: bring the row into view first.
  await third.scrollIntoViewIfNeeded();
  const box = (await third.boundingBox()) as { x: number; y: number; width: number; height: number };
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  await page.mouse.move(x, y);
  const under = await rowAt(page, x, y);
  expect(under).toBeDefined();
  const before = await layoutShifts(page);

  for (let i = 1; i <= 3; i++) {
    await send('watched', `new-${i}`);
    await poll(() => newButton.textContent()).toBe(`${i} new ↑`);
  }
  expect(await newButton.isVisible()).toBe(true);
  expect(await newButton.getAttribute('aria-label')).toBe('Show 3 new requests');
  expect(await page.locator('.journal-list li').count()).toBe(12);
  expect(await rowAt(page, x, y)).toBe(under);
  const after = await layoutShifts(page);
  expect(after.value - before.value, after.shifts.join('; ')).toBe(0);
  await screenshot(page, 'journal-new-requests-1280');

  await newButton.click();
  await poll(() => page.locator('.journal-list li').count()).toBe(15);
  expect(await newButton.isVisible()).toBe(false);
  expect(
    await page.locator('.journal-list .path').evaluateAll((paths) => paths.slice(0, 4).map((p) => p.textContent)),
  ).toEqual([
    '/endpoint/watched?n=new-3',
    '/endpoint/watched?n=new-2',
    '/endpoint/watched?n=new-1',
    '/endpoint/watched?n=old-12',
  ]);
  // The keyboard continues at the newest request.
  expect(
    await page.evaluate(() => document.activeElement?.closest('.entry')?.querySelector('.path')?.textContent),
  ).toBe('/endpoint/watched?n=new-3');
});

test('on a 360 px phone scrolled into the list, arrivals wait; the sticky head shows "N new" in view; nothing moves', async () => {
  await endpointWithRequests('phone', 30);
  const page = await open('phone', { width: 360, height: 640 });
  await poll(() => page.locator('.journal-list li').count()).toBe(30);
  // Scrolled halfway down the list, the pointer away from it (a touch screen has none).
  await page
    .locator('.journal-list li')
    .nth(15)
    .evaluate((el) => el.scrollIntoView({ block: 'center' }));
  const scrolled = await page.evaluate(() => window.scrollY);
  expect(scrolled).toBeGreaterThan(0);
  const middle = await rowAt(page, 180, 320);
  expect(middle).toBeDefined();
  const before = await layoutShifts(page);

  await send('phone', 'new-1');
  await send('phone', 'new-2');
  const newButton = page.locator('.new-requests');
  await poll(() => newButton.textContent()).toBe('2 new ↑');
  // The head (with the button) stays at the top of the window while the list scrolls.
  const head = (await newButton.boundingBox()) as { y: number; height: number };
  expect(head.y).toBeGreaterThanOrEqual(0);
  expect(head.y + head.height).toBeLessThan(640);
  expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
  expect(await rowAt(page, 180, 320)).toBe(middle);
  const after = await layoutShifts(page);
  expect(after.value - before.value, after.shifts.join('; ')).toBe(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await screenshot(page, 'journal-new-requests-360');

  await newButton.click();
  await poll(() => page.locator('.journal-list li').count()).toBe(32);
  // The view went to them: the newest row is on screen, below the sticky head.
  const newest = page.locator('.journal-list li').first();
  await poll(() =>
    newest.evaluate((el) => {
      const { top, bottom } = el.getBoundingClientRect();
      return top >= 0 && bottom <= window.innerHeight;
    }),
  ).toBe(true);
  expect(await newest.locator('.path').textContent()).toBe('/endpoint/phone?n=new-2');
});

test('an idle list (pointer and focus elsewhere, not scrolled) takes new rows at once', async () => {
  await endpointWithRequests('idle', 2);
  const page = await open('idle', { width: 1280, height: 860 });
  await poll(() => page.locator('.journal-list li').count()).toBe(2);
  await page.mouse.move(5, 5);
  await send('idle', 'new-1');
  await poll(() => page.locator('.journal-list li').count()).toBe(3);
  expect(await page.locator('.journal-list .path').first().textContent()).toBe('/endpoint/idle?n=new-1');
  expect(await page.locator('.new-requests').isVisible()).toBe(false);
  // An open entry counts as in use: the next one waits.
  await page.locator('.journal-list li').nth(1).locator('summary').click();
  await page.mouse.move(5, 5);
  await send('idle', 'new-2');
  await poll(() => page.locator('.new-requests').textContent()).toBe('1 new ↑');
  expect(await page.locator('.journal-list li').count()).toBe(3);
});
