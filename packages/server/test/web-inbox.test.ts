/**
 * The page as a webhook inbox used for an afternoon (issue 12), in Debian's
 * Chromium against real daemons: a restart mid-session, a mistyped name's
 * requests, no layout shift on a phone, rows updated in place while requests
 * arrive, a filter over 500 endpoints with live list updates, and the smaller
 * points (bodiless statuses, Escape, unsaved edits, the inline token field,
 * focus after delete, the server's MOCKPOINT_MAX_DELAY_MS, binary bodies, the `<h1>`).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import type { RunningServer, StartServerOptions } from '../src/start-server.js';
import { startDaemon } from './helpers/daemon.js';
import {
  closeBrowser,
  openPage,
  poll,
  screenshot,
  startWebDaemon,
  useBrowser,
  type WatchedPage,
} from './web-support.js';

const cleanups: (() => Promise<void>)[] = [];
const pages: WatchedPage[] = [];

async function daemon(options: StartServerOptions = {}): Promise<RunningServer> {
  const server = await startWebDaemon(options);
  cleanups.push(() => server.close());
  return server;
}

async function create(
  server: { url: string },
  name: string,
  data: unknown,
  extra: { statusCode?: number; delay?: number } = {},
  token?: string,
): Promise<void> {
  const response = await fetch(`${server.url}/api/endpoint/add`, {
    method: 'PUT',
    headers: token ? { authorization: `Bearer ${token}` } : {},
    body: JSON.stringify({ name, data, ...extra }),
  });
  expect(response.status).toBe(201);
}

async function browse(options: { width?: number; height?: number } = {}): Promise<Page> {
  const watched = await openPage(await useBrowser(), options);
  pages.push(watched);
  // A native dialog (prompt, confirm, alert) would be a failure of the page.
  watched.page.on('dialog', (dialog) => {
    watched.problems.push(`dialog: ${dialog.type()} ${dialog.message()}`);
    void dialog.dismiss();
  });
  return watched.page;
}

const activeId = (page: Page) => page.evaluate(() => document.activeElement?.id);

afterEach(async () => {
  for (const watched of pages.splice(0)) {
    await watched.page.context().close();
    // The browser logs the requests cut or refused while a daemon restarts; nothing else may go wrong.
    const restart = /net::ERR_(CONNECTION_REFUSED|CONNECTION_RESET|EMPTY_RESPONSE|INCOMPLETE_CHUNKED_ENCODING)/;
    expect(watched.problems.filter((p) => !restart.test(p))).toEqual([]);
  }
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

afterAll(async () => {
  await closeBrowser();
});

test('1. a tab open across a daemon crash and restart keeps the rows it showed, marked "before restart", shows the new journal above them, and Clear asks first', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'mockpoint-restart-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  // The real daemon process, on LevelDB: the endpoint survives, the journal starts anew (ids from 1).
  let daemon = await startDaemon({ args: ['--data-dir', dataDir] });
  cleanups.push(async () => {
    await daemon.stop('SIGKILL');
  });
  const server = { url: daemon.url };
  await create(server, 'hook', { ok: true });
  const page = await browse();
  await page.goto(`${server.url}/#/e/hook`);
  await poll(() => page.locator('.live').textContent()).toBe('Live');
  for (const n of [1, 2])
    await fetch(`${server.url}/endpoint/hook?before=${n}`, { method: 'POST', body: `{"n":${n}}` });
  await poll(() => page.locator('.journal-list li').count()).toBe(2);

  // Killed with SIGKILL mid-session (the journal stream is open), then started again on the same port.
  expect((await daemon.stop('SIGKILL')).signal).toBe('SIGKILL');
  daemon = await startDaemon({ args: ['--data-dir', dataDir, '--port', String(daemon.port)] });
  await fetch(`${server.url}/endpoint/hook?after=1`, { method: 'POST', body: '{"n":3}' });

  await poll(() => page.locator('.journal-list .path').allTextContents()).toEqual([
    '/endpoint/hook?after=1',
    '/endpoint/hook?before=2',
    '/endpoint/hook?before=1',
  ]);
  await poll(() => page.locator('.live').textContent()).toBe('Live');
  expect(await page.locator('.journal-notice').textContent()).toContain('The mockpoint server restarted');
  // The rows from before are kept and say so; the new journal's are not marked.
  const marks = () =>
    page
      .locator('.journal-list > li')
      .evaluateAll((rows) => rows.map((row) => row.querySelector('.tag-restart')?.textContent ?? ''));
  expect(await marks()).toEqual(['', 'before restart', 'before restart']);
  // And it keeps listening on the new journal.
  await fetch(`${server.url}/endpoint/hook?after=2`);
  await poll(() => page.locator('.journal-list .path').allTextContents()).toEqual([
    '/endpoint/hook?after=2',
    '/endpoint/hook?after=1',
    '/endpoint/hook?before=2',
    '/endpoint/hook?before=1',
  ]);
  expect(await marks()).toEqual(['', '', 'before restart', 'before restart']);
  console.log(`screenshot: ${await screenshot(page, 'journal-before-restart')}`);

  // Clear asks first: "Keep them" (and Escape) leave every row; "Remove them" removes all, the old ones too.
  await page.getByRole('button', { name: 'Clear', exact: true }).click();
  expect(await page.locator('.clear-confirm').textContent()).toContain('Remove all 4 requests recorded for “hook”?');
  await page.getByRole('button', { name: 'Keep them' }).click();
  await page.getByRole('button', { name: 'Clear', exact: true }).click();
  await page.keyboard.press('Escape');
  expect(await page.locator('.journal-list li').count()).toBe(4);
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Clear');
  await page.getByRole('button', { name: 'Clear', exact: true }).click();
  await page.getByRole('button', { name: 'Remove them' }).click();
  await poll(() => page.locator('.journal-list li').count()).toBe(0);
  expect(await page.locator('.journal-notice').isHidden()).toBe(true);
  expect((await (await fetch(`${server.url}/api/endpoints/hook/requests`)).json()).requests).toEqual([]);
});

test('3. on a 390 px phone nothing shifts while the page loads (CLS < 0.1), and "+ New" on #/new focuses the form', async () => {
  const server = await daemon();
  for (let i = 0; i < 40; i++) await create(server, `hook-${String(i).padStart(2, '0')}`, { i });
  const page = await browse({ width: 390, height: 844 });
  await page.addInitScript(() => {
    type Shift = PerformanceEntry & { value: number; hadRecentInput: boolean; sources: { node?: Node }[] };
    const w = window as unknown as { cls: number; shifts: string[] };
    w.cls = 0;
    w.shifts = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Shift[]) {
        if (entry.hadRecentInput) continue;
        w.cls += entry.value;
        // What moved, for the failure message.
        const nodes = entry.sources.map((s) =>
          s.node instanceof Element ? `${s.node.tagName}.${s.node.className}` : '',
        );
        w.shifts.push(`${entry.value.toFixed(3)} ${location.hash} ${nodes.join(' ')}`);
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  const cls = async () => {
    return page.evaluate(() => {
      const w = window as unknown as { cls: number; shifts: string[] };
      return { value: w.cls, shifts: w.shifts };
    });
  };

  await page.goto(`${server.url}/#/new`);
  await poll(() => activeId(page)).toBe('new-name');
  const top = await page.getByLabel('Name', { exact: true }).evaluate((el) => el.getBoundingClientRect().top);
  await page.waitForLoadState('networkidle');
  await poll(() => page.locator('#version').textContent()).toMatch(/^v/);
  expect(await page.getByLabel('Name', { exact: true }).evaluate((el) => el.getBoundingClientRect().top)).toBe(top);
  const shifted = await cls();
  expect(shifted.value, shifted.shifts.join('; ')).toBeLessThan(0.1);

  await page.goto(`${server.url}/#/`);
  await poll(() => page.locator('.endpoint-list li').count()).toBe(40);
  await page.locator('.endpoint-list a').nth(3).click();
  await poll(() => page.locator('.live').textContent()).toBe('Live');
  await fetch(`${server.url}/endpoint/hook-03`, { method: 'POST', body: '{}' });
  await poll(() => page.locator('.journal-list li').count()).toBe(1);
  const shiftedAfter = await cls();
  expect(shiftedAfter.value, shiftedAfter.shifts.join('; ')).toBeLessThan(0.1);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

  // Wide window: "+ New" while the form is shown takes the keyboard to the name field.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${server.url}/#/new`);
  await page.getByLabel('Response body (JSON)').click();
  await page.getByRole('link', { name: '+ New' }).click();
  await poll(() => activeId(page)).toBe('new-name');
});

test('4. rows update in place: focus, a selection and an open entry survive new requests (held behind "N new" while an entry is open); each is announced', async () => {
  const server = await daemon();
  await create(server, 'hook', { ok: true });
  const body = JSON.stringify({ event: 'order.paid', id: 'ord_1', note: 'x'.repeat(200) });
  await fetch(`${server.url}/endpoint/hook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const page = await browse();
  await page.goto(`${server.url}/#/e/hook`);
  await poll(() => page.locator('.journal-list li').count()).toBe(1);

  // The one-line preview: method, path, status, size, the start of the body, date and time.
  const row = page.locator('.journal-list li').first();
  expect(await row.locator('.body-preview').textContent()).toMatch(/^\{"event":"order\.paid","id":"ord_1",.*…$/);
  expect(await row.locator('.size').textContent()).toBe(`${body.length} B`);
  // A relative time, the exact one on hover.
  expect(await row.locator('time').textContent()).toMatch(/^(just now|\d+ s ago)$/);
  expect(await row.locator('time').getAttribute('title')).toMatch(
    /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} \(\d{4}-.*Z\)$/,
  );

  await row.locator('summary').click();
  const pre = row.locator('pre');
  await pre.focus();
  await pre.evaluate((el) => {
    (el as unknown as { marker: string }).marker = 'the same node';
    const range = document.createRange();
    range.selectNodeContents(el);
    getSelection()?.removeAllRanges();
    getSelection()?.addRange(range);
  });
  const selected = await page.evaluate(() => getSelection()?.toString());
  expect(selected).toContain('order.paid');
  const opened = page.locator(`.journal-list li[data-id="${await row.getAttribute('data-id')}"]`);
  await opened.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  const top = () => opened.evaluate((el) => Math.round(el.getBoundingClientRect().top));
  const topBefore = await top();

  await fetch(`${server.url}/endpoint/hook?second=1`, { method: 'PUT', body: 'plain text' });
  await fetch(`${server.url}/endpoint/hook?third=1`);
  // An entry is open: the new rows wait behind the "2 new" button, announced, and nothing moves.
  await poll(() => page.locator('.new-requests').textContent()).toBe('2 new ↑');
  expect(await page.locator('.journal-list li').count()).toBe(1);
  expect(await page.evaluate(() => (document.activeElement as unknown as { marker?: string } | null)?.marker)).toBe(
    'the same node',
  );
  expect(await page.evaluate(() => getSelection()?.toString())).toBe(selected);
  expect(await top()).toBe(topBefore);
  await poll(() => page.locator('#announce').textContent()).toMatch(/^2 new requests, the latest GET \/endpoint\/hook/);
  expect(await page.locator('#announce').getAttribute('aria-live')).toBe('polite');

  // On demand they go in above, in place: the open entry stays open and is the same node.
  await page.locator('.new-requests').click();
  await poll(() => page.locator('.journal-list li').count()).toBe(3);
  expect(await page.locator('.journal-list li').nth(2).locator('details').getAttribute('open')).toBe('');
  expect(
    await page
      .locator('.journal-list li')
      .nth(2)
      .locator('pre')
      .evaluate((el) => (el as unknown as { marker: string }).marker),
  ).toBe('the same node');
  // The relative time keeps up by itself (the page refreshes it every few seconds).
  await expect
    .poll(() => opened.locator('time').textContent(), { timeout: 20_000, interval: 200 })
    .toMatch(/^\d+ s ago$/);
});

test('5. a filter over 500 endpoints served by the API, the total, and live list updates', async () => {
  const server = await daemon();
  const names = Array.from({ length: 500 }, (_, i) => `ep-${String(i).padStart(3, '0')}`);
  for (let i = 0; i < names.length; i += 50) {
    await Promise.all(names.slice(i, i + 50).map((name) => create(server, name, 1)));
  }
  const page = await browse();
  await page.goto(`${server.url}/`);
  await poll(() => page.locator('#list-title .count').textContent()).toBe('500');
  expect(await page.locator('.endpoint-list li').count()).toBe(50);

  const filtered = page.waitForResponse((r) => r.url().includes('contains=ep-42'));
  await page.getByLabel('Filter endpoints').fill('ep-42');
  expect((await filtered).status()).toBe(200);
  const expected = names.filter((n) => n.startsWith('ep-42'));
  await poll(() => page.locator('.endpoint-list .name').allTextContents()).toEqual(expected);
  expect(await page.locator('#list-title .count').textContent()).toBe('10 containing “ep-42”');

  // Endpoints added and deleted elsewhere show up without a reload.
  await create(server, 'ep-42x', 2);
  expect((await fetch(`${server.url}/api/endpoints/ep-421`, { method: 'DELETE' })).status).toBe(204);
  await poll(() => page.locator('.endpoint-list .name').allTextContents()).toEqual([
    ...expected.filter((n) => n !== 'ep-421'),
    'ep-42x',
  ]);

  // A shown endpoint deleted elsewhere says so; the view no longer claims it is live.
  await page.locator('.endpoint-list a[data-name="ep-425"]').click();
  await poll(() => page.locator('.live').textContent()).toBe('Live');
  // The record is shown (the page read it) before it is deleted: deleted before that read, the page
  // rightly says there is no such endpoint (seen on a loaded machine, where the journal went live first).
  await poll(() => page.locator('#detail-url').count()).toBe(1);
  expect((await fetch(`${server.url}/api/endpoints/ep-425`, { method: 'DELETE' })).status).toBe(204);
  await poll(() => page.locator('.missing').textContent()).toContain('“ep-425” was deleted');
  expect(await page.locator('.live').textContent()).toBe('Live (no endpoint)');
});

describe('6. the smaller points', () => {
  test('bodiless statuses, Escape, unsaved edits, binary bodies and the <h1>', async () => {
    const server = await daemon();
    await create(server, 'empty', { never: 'sent' }, { statusCode: 204 });
    await create(server, 'hook', { ok: true });
    const page = await browse();
    await page.goto(`${server.url}/#/e/empty`);
    await poll(() => page.locator('.stored h3').textContent()).toBe('Stored body (not sent)');
    expect(await page.locator('.bodiless').textContent()).toContain('Status 204 answers have no body');
    expect(await page.locator('h1').count()).toBe(1);

    // Escape cancels the delete confirmation.
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Keep it');
    await page.keyboard.press('Escape');
    await poll(() => page.getByRole('button', { name: 'Delete “empty”' }).count()).toBe(0);
    expect((await fetch(`${server.url}/api/endpoints/empty`)).status).toBe(200);

    // Escape cancels an unchanged edit at once; a changed one asks first.
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.waitForURL(/#\/e\/empty\/edit$/);
    // The URL changes before the hashchange renders the form; Escape goes to the focused form.
    await poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('TEXTAREA');
    await page.keyboard.press('Escape');
    await page.waitForURL(/#\/e\/empty$/);
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Response body (JSON)').fill('{"changed": true}');
    await page.keyboard.press('Escape');
    await poll(() => page.locator('.discard-bar').textContent()).toContain('You have unsaved changes');
    expect(page.url()).toMatch(/#\/e\/empty\/edit$/);
    // Leaving through a link asks too, and "Keep editing" keeps the text.
    await page.locator('.endpoint-list a[data-name="hook"]').click();
    await page.getByRole('button', { name: 'Keep editing' }).click();
    expect(page.url()).toMatch(/#\/e\/empty\/edit$/);
    expect(await page.getByLabel('Response body (JSON)').inputValue()).toBe('{"changed": true}');
    await page.locator('.endpoint-list a[data-name="hook"]').click();
    await page.getByRole('button', { name: 'Discard changes' }).click();
    await page.waitForURL(/#\/e\/hook$/);
    expect(await (await fetch(`${server.url}/api/endpoints/empty`)).json()).toMatchObject({ data: { never: 'sent' } });

    // A binary body is shown as binary, with its real size.
    const bytes = new Uint8Array(1500).map((_, i) => (i * 37) % 256);
    await fetch(`${server.url}/endpoint/hook`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: bytes,
    });
    await poll(() => page.locator('.journal-list .body-preview').textContent()).toBe('binary data, 1.5 kB');
    await page.locator('.journal-list summary').first().click();
    expect(await page.locator('.journal-list .entry-body').textContent()).toContain(
      '1.5 kB of binary data (application/octet-stream)',
    );
    // The bytes exactly as sent (the journal keeps them in base64), in hex.
    expect(await page.locator('.journal-list pre.hex').textContent()).toMatch(
      /^0000 {2}00 25 4a 6f 94 b9 de 03 28 4d 72 97 bc e1 06 2b\n0010 /,
    );
    // Many steps in one browser: on a loaded 2-core CI machine it once ran past the default 30 s.
  }, 90_000);

  test('with MOCKPOINT_ADMIN_TOKEN and MOCKPOINT_MAX_DELAY_MS: the inline token field deletes, focus goes to the list; the delay limit is the server’s', async () => {
    const server = await daemon({ adminToken: 'sekret', maxDelayMs: 5000 });
    await create(server, 'guarded', 1, {}, 'sekret');
    await create(server, 'other', 2, {}, 'sekret');
    const page = await browse();
    await page.goto(`${server.url}/#/e/guarded`);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('button', { name: 'Delete “guarded”' }).click();
    await poll(() => activeId(page)).toBe('delete-token');
    await page.getByLabel('Admin token').fill('sekret');
    await page.getByRole('button', { name: 'Use token and retry' }).click();
    await page.waitForURL(/#\/$/);
    expect((await fetch(`${server.url}/api/endpoints/guarded`)).status).toBe(404);
    await poll(() => activeId(page)).toBe('list-title');
    await poll(() => page.locator('.endpoint-list .name').allTextContents()).toEqual(['other']);

    await page.getByLabel('Name', { exact: true }).fill('slow');
    await poll(() => page.locator('#version').textContent()).toMatch(/^v/);
    await page.getByLabel('Delay (ms)').fill('6000');
    await poll(() => page.locator('#new-delay-error').textContent()).toBe(
      'Delay must be a whole number from 0 to 5000 ms.',
    );
  });
});
