/**
 * The web page in a real browser (Debian's Chromium via playwright-core) against
 * a real daemon: create through the form, list, detail, live journal, edit,
 * delete, validation and server errors, keyboard use and a narrow window.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import {
  closeBrowser,
  comparePictures,
  DOCS_SCREENSHOT,
  docsScreenshot,
  eventually,
  openPage,
  poll,
  screenshot,
  startWebDaemon,
  useBrowser,
  type WatchedPage,
} from './web-support.js';

let server: RunningServer;
let watched: WatchedPage | undefined;
let page: Page;

/** Small enough that the 413 test needs only a few kB; every other body here is far smaller. */
const MAX_BODY_BYTES = 4096;
/** A small journal ring, so a test can fill it. */
const JOURNAL_SIZE = 3;

async function api(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${server.url}/${path}`, init);
}

async function createViaApi(name: string, data: unknown, extra: { statusCode?: number; delay?: number } = {}) {
  const response = await api('api/endpoint/add', { method: 'PUT', body: JSON.stringify({ name, data, ...extra }) });
  expect(response.status).toBe(201);
}

beforeAll(async () => {
  server = await startWebDaemon({ maxBodyBytes: MAX_BODY_BYTES, journalSize: JOURNAL_SIZE });
});

afterAll(async () => {
  await closeBrowser();
  await server?.close();
});

beforeEach(async () => {
  watched = undefined;
  expect((await api('api/endpoints', { method: 'DELETE' })).status).toBe(204);
  watched = await openPage(await useBrowser(), { clipboard: true });
  page = watched.page;
});

afterEach(async () => {
  if (watched === undefined) return; // no browser: the test has already failed with the reason
  await page.context().close();
  // Nothing went wrong in the page: no uncaught error, no console error (CSP violations included).
  expect(watched.problems).toEqual([]);
});

describe('create', () => {
  test('an endpoint created through the form is listed, stored and served', async () => {
    await createViaApi('already-there', { n: 1 });
    await page.goto(`${server.url}/`);
    await poll(() => page.locator('.endpoint-list a').allTextContents()).toEqual([
      expect.stringContaining('already-there'),
    ]);

    await page.getByLabel('Name').fill('orders-webhook');
    await page.getByLabel('Response body (JSON)').fill('{"received": true, "items": [1, 2, 3]}');
    await page.getByLabel('Status code').fill('202');
    await page.getByLabel('Delay (ms)').fill('5');
    await poll(() => page.locator('.json-status').textContent()).toContain('Valid JSON: object with 2 keys');
    await screenshot(page, 'create-form');
    await page.getByRole('button', { name: 'Create endpoint' }).click();

    // The page moves to the new endpoint's detail view and lists it.
    await page.waitForURL(/#\/e\/orders-webhook$/);
    await poll(() => page.locator('.endpoint-list .name').allTextContents()).toEqual([
      'already-there',
      'orders-webhook',
    ]);
    await poll(() => page.locator('.endpoint-list a[aria-current="page"]').textContent()).toContain('orders-webhook');
    await poll(() => page.locator('#detail-url').textContent()).toBe(`${server.url}/endpoint/orders-webhook`);
    expect(await page.locator('#detail-curl').textContent()).toBe(`curl -i ${server.url}/endpoint/orders-webhook`);
    expect(await page.locator('.detail .badge').textContent()).toBe('202');

    const stored = await api('endpoint/orders-webhook');
    expect(stored.status).toBe(202);
    expect(await stored.json()).toEqual({ received: true, items: [1, 2, 3] });
    const record = await (await api('api/endpoints/orders-webhook')).json();
    expect(record).toEqual({
      name: 'orders-webhook',
      data: { received: true, items: [1, 2, 3] },
      statusCode: 202,
      delay: 5,
    });
  });

  test('the name is checked as it is typed, with the server rule', async () => {
    await page.goto(`${server.url}/`);
    const name = page.getByLabel('Name');
    const error = page.locator('#new-name-error');
    await name.fill('has space/slash');
    await poll(() => error.textContent()).toBe('Only letters, digits, _ and - are allowed (not space, "/").');
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    await name.fill('x'.repeat(65));
    await poll(() => error.textContent()).toBe('Too long: 65 characters, at most 64.');
    await name.fill('Ok_name-64');
    await poll(() => error.textContent()).toBe('');
    expect(await name.getAttribute('aria-invalid')).toBe('false');
    expect(await page.locator('.url-preview').textContent()).toBe(`${server.url}/endpoint/Ok_name-64`);
  });

  test('invalid JSON is flagged before submit and nothing is sent', async () => {
    await page.goto(`${server.url}/`);
    await page.getByLabel('Name').fill('broken');
    const data = page.getByLabel('Response body (JSON)');
    await data.fill('{\n  "a": 1,\n  "b": \n}');
    const error = page.locator('#new-data-error');
    await poll(() => error.textContent()).toBe("Invalid JSON at line 4, column 1: expected a value, found '}'.");
    expect(await data.getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Status code').fill('700');
    await poll(() => page.locator('#new-status-error').textContent()).toBe(
      'Status code must be a whole number from 200 to 599.',
    );
    await screenshot(page, 'create-errors');

    await page.getByRole('button', { name: 'Create endpoint' }).click();
    // The first invalid field gets the focus; no create request left the page.
    await poll(() => page.evaluate(() => document.activeElement?.id)).toBe('new-data');
    expect(watched!.requests.filter((url) => url.includes('api/endpoint/add'))).toEqual([]);
    expect((await api('api/endpoints/broken')).status).toBe(404);

    // Format fixes the layout of valid JSON.
    await data.fill('{"z":[1,2]}');
    await page.getByRole('button', { name: 'Format' }).click();
    expect(await data.inputValue()).toBe('{\n  "z": [\n    1,\n    2\n  ]\n}');
    await poll(() => error.textContent()).toBe('');
  });

  test('a taken name (409) is shown next to the name field, with a link to the endpoint', async () => {
    await createViaApi('taken', 'original');
    await page.goto(`${server.url}/`);
    await page.getByLabel('Name').fill('taken');
    await page.getByLabel('Response body (JSON)').fill('"replacement"');
    await page.getByRole('button', { name: 'Create endpoint' }).click();
    const error = page.locator('#new-name-error');
    await poll(() => error.textContent()).toBe(
      'An endpoint named “taken” already exists. Choose another name, or open it to edit it.',
    );
    expect(await page.getByLabel('Name').getAttribute('aria-invalid')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('new-name');
    expect(await (await api('endpoint/taken')).json()).toBe('original');
    await error.getByRole('link', { name: 'open it' }).click();
    await page.waitForURL(/#\/e\/taken$/);
  });

  test('server errors land on their field (413 on the body); the delay is checked against MOCKPOINT_MAX_DELAY_MS', async () => {
    await page.goto(`${server.url}/`);
    await page.getByLabel('Name').fill('big');
    await page.getByLabel('Response body (JSON)').fill(JSON.stringify({ text: 'x'.repeat(MAX_BODY_BYTES) }));
    await page.getByRole('button', { name: 'Create endpoint' }).click();
    await poll(() => page.locator('#new-data-error').textContent()).toMatch(/^Too large for the server: /);

    await page.getByLabel('Response body (JSON)').fill('{}');
    await page.getByLabel('Delay (ms)').fill('60001');
    await page.getByRole('button', { name: 'Create endpoint' }).click();
    // The page knows the server’s MOCKPOINT_MAX_DELAY_MS (from /api/health): caught before sending.
    await poll(() => page.locator('#new-delay-error').textContent()).toBe(
      'Delay must be a whole number from 0 to 60000 ms.',
    );
    await poll(() => page.locator('#new-data-error').textContent()).toBe('');
    expect((await api('api/endpoints/big')).status).toBe(404);
  });

  test('the form works from the keyboard alone', async () => {
    await page.goto(`${server.url}/#/new`);
    await poll(() => page.evaluate(() => document.activeElement?.id)).toBe('new-name');
    await page.keyboard.type('keyboard-only');
    await page.keyboard.press('Tab'); // to the JSON editor
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('[true, null]');
    await page.keyboard.press('ControlOrMeta+Enter');
    await page.waitForURL(/#\/e\/keyboard-only$/);
    expect(await (await api('endpoint/keyboard-only')).json()).toEqual([true, null]);
    // The detail heading takes the focus, for screen readers and keyboard users.
    await poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('keyboard-only');
  });
});

describe('list', () => {
  test('is paginated with limit/after/next: 50 at first, then "Load more"', async () => {
    const names = Array.from({ length: 63 }, (_, i) => `ep-${String(i).padStart(3, '0')}`);
    for (const [index, name] of names.entries()) await createViaApi(name, index);
    const firstPage = page.waitForResponse((answer) => new URL(answer.url()).pathname === '/api/endpoints');
    await page.goto(`${server.url}/`);
    // The list asks for summaries: records without `data` (it shows only name, status and delay), with request counts.
    const answer = await firstPage;
    expect(answer.url()).toBe(`${server.url}/api/endpoints?limit=50&summary=true&requests=true`);
    const listed = (await answer.json()) as { endpoints: unknown[]; next: string | null };
    expect(listed.endpoints[0]).toEqual({ name: 'ep-000', statusCode: 200, delay: 0, requests: 0 });
    expect(listed.next).toBe('ep-049');
    await poll(() => page.locator('.endpoint-list li').count()).toBe(50);
    // The total comes with the first page.
    expect(await page.locator('#list-title .count').textContent()).toBe('63');
    await page.getByRole('button', { name: 'Load more' }).click();
    await poll(() => page.locator('.endpoint-list li').count()).toBe(63);
    expect(await page.locator('.endpoint-list .name').allTextContents()).toEqual(names);
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    expect(
      watched!.requests.some((url) => url.endsWith('api/endpoints?limit=50&after=ep-049&summary=true&requests=true')),
    ).toBe(true);
  });

  test('a slow earlier answer never overwrites a newer list', async () => {
    await createViaApi('first', 1);
    // Notes when the page has read the held (stale) answer, marked by a header. Its code
    // continues in microtasks right after, so once a later page.evaluate() sees the mark,
    // that answer has been handled. (Live refreshes may add list requests meanwhile.)
    await page.addInitScript(() => {
      const json = Response.prototype.json;
      Response.prototype.json = async function (this: Response) {
        const body = await json.call(this);
        if (this.headers.get('x-test-stale') === '1') (window as unknown as { staleRead?: boolean }).staleRead = true;
        return body;
      };
    });
    // The page's first list request is answered with the list as it was then, but only later.
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let fetched!: () => void;
    const heldFetched = new Promise<void>((resolve) => {
      fetched = resolve;
    });
    let seen = 0;
    await page.route(
      (url) => url.pathname === '/api/endpoints',
      async (route) => {
        if (seen++ > 0) return route.continue();
        const stale = await route.fetch();
        fetched();
        await released;
        await route.fulfill({ response: stale, headers: { ...stale.headers(), 'x-test-stale': '1' } });
      },
    );

    await page.goto(`${server.url}/#/new`);
    await heldFetched;
    // Creating reloads the list: this newer answer arrives first.
    await page.getByLabel('Name').fill('second');
    await page.getByLabel('Response body (JSON)').fill('2');
    await page.getByRole('button', { name: 'Create endpoint' }).click();
    await page.waitForURL(/#\/e\/second$/);
    await poll(() => page.locator('.endpoint-list .name').allTextContents()).toEqual(['first', 'second']);

    release();
    await poll(() => page.evaluate(() => (window as unknown as { staleRead?: boolean }).staleRead)).toBe(true);
    expect(await page.locator('.endpoint-list .name').allTextContents()).toEqual(['first', 'second']);
    expect(await page.locator('#list-title .count').textContent()).toBe('2');
    expect(await page.locator('.endpoint-list a[aria-current="page"] .name').textContent()).toBe('second');
    expect(seen).toBeGreaterThanOrEqual(2);
  });
});

describe('detail', () => {
  test('copy buttons put the URL and the curl command on the clipboard', async () => {
    await createViaApi('copy-me', { ok: true });
    await page.goto(`${server.url}/#/e/copy-me`);
    const url = `${server.url}/endpoint/copy-me`;
    await poll(() => page.locator('#detail-url').textContent()).toBe(url);
    await page
      .locator('.copy-row', { has: page.locator('#detail-url') })
      .getByRole('button', { name: 'Copy' })
      .click();
    await poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    await page
      .locator('.copy-row', { has: page.locator('#detail-curl') })
      .getByRole('button', { name: 'Copy' })
      .click();
    await poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(`curl -i ${url}`);
  });

  test('requests appear live in the journal, newest first, expandable to headers and pretty body', async () => {
    await createViaApi('hook', { thanks: true }, { statusCode: 201 });
    await page.goto(`${server.url}/#/e/hook`);
    await poll(() => page.locator('.live').textContent()).toBe('Live');
    // The page follows the journal stream.
    await eventually(
      () => watched!.requests.some((url) => url.includes('api/endpoints/hook/requests/stream')),
      5000,
      'the journal stream',
    );
    // Polled: the empty journal's line is drawn after the first read, which can come after the
    // stream is asked for on a loaded machine (CI at load 4 once saw it not yet drawn).
    await poll(() => page.locator('.journal-empty').isVisible()).toBe(true);

    const started = Date.now();
    const sent = await fetch(`${server.url}/endpoint/hook?source=test`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': 'sig-123' },
      body: JSON.stringify({ event: 'order.paid', amount: 42 }),
    });
    expect(sent.status).toBe(201);
    await poll(() => page.locator('.journal-list li').count()).toBe(1);
    // Pushed as it was recorded.
    expect(Date.now() - started).toBeLessThan(10_000);
    const first = page.locator('.journal-list li').first();
    expect(await first.locator('summary').textContent()).toMatch(/^POST\s*\/endpoint\/hook\?source=test\s*201/);

    await fetch(`${server.url}/endpoint/hook`, { method: 'GET' });
    await poll(() => page.locator('.journal-list li').count()).toBe(2);
    expect(await page.locator('.journal-list .method').allTextContents()).toEqual(['GET', 'POST']);

    await page.locator('.journal-list li').nth(1).locator('summary').click();
    const body = page.locator('.journal-list li').nth(1).locator('.entry-body');
    await poll(() => body.isVisible()).toBe(true);
    expect(await body.locator('pre').textContent()).toBe('{\n  "event": "order.paid",\n  "amount": 42\n}');
    const headerRow = body.locator('tr', { has: page.locator('th', { hasText: 'x-signature' }) });
    expect(await headerRow.locator('td').textContent()).toBe('sig-123');
    expect(await body.locator('.kv-table').nth(1).textContent()).toContain('source');
    await page.mouse.move(0, 0);
    await screenshot(page, 'detail-journal');

    // Clearing empties the view and the journal, and the view keeps listening.
    await page.getByRole('button', { name: 'Clear', exact: true }).click();
    await page.getByRole('button', { name: 'Remove them' }).click();
    await poll(() => page.locator('.journal-list li').count()).toBe(0);
    expect((await (await api('api/endpoints/hook/requests')).json()).requests).toEqual([]);
    await fetch(`${server.url}/endpoint/hook`, { method: 'DELETE' });
    await poll(() => page.locator('.journal-list .method').allTextContents()).toEqual(['DELETE']);
  });

  test('follows the journal stream past the server ring (one read, then only the stream)', async () => {
    await createViaApi('busy', { ok: true });
    await page.goto(`${server.url}/#/e/busy`);
    await poll(() => page.locator('.live').textContent()).toBe('Live');
    for (let i = 1; i <= JOURNAL_SIZE + 2; i++) {
      await fetch(`${server.url}/endpoint/busy?n=${i}`);
      await poll(() => page.locator('.journal-list li').count()).toBe(i);
    }
    // One read when the view opened; every request after it came through one stream.
    const reads = watched!.requests.filter((url) => url.includes('api/endpoints/busy/requests'));
    expect(reads.map((url) => url.slice(server.url.length))).toEqual([
      '/api/endpoints/busy/requests',
      expect.stringMatching(/^\/api\/endpoints\/busy\/requests\/stream(\?journal=[\w-]+)?$/),
    ]);
    const summaries = await page.locator('.journal-list summary').allTextContents();
    expect(summaries[0]).toContain(`n=${JOURNAL_SIZE + 2}`);
  });

  test('edit replaces the endpoint through PUT /api/endpoints/{name}', async () => {
    await createViaApi('editable', { v: 1 });
    await page.goto(`${server.url}/#/e/editable`);
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.waitForURL(/#\/e\/editable\/edit$/);
    expect(await page.getByLabel('Name').getAttribute('readonly')).not.toBeNull();
    expect(JSON.parse(await page.getByLabel('Response body (JSON)').inputValue())).toEqual({ v: 1 });
    await page.getByLabel('Response body (JSON)').fill('{"v": 2}');
    await page.getByLabel('Status code').fill('404');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(/#\/e\/editable$/);
    await poll(() => page.locator('.detail .badge').textContent()).toBe('404');
    await poll(() => page.locator('.endpoint-list a[aria-current="page"] .badge').textContent()).toBe('404');
    expect(watched!.requests.some((url) => url.endsWith('/api/endpoints/editable'))).toBe(true);
    const answer = await api('endpoint/editable');
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual({ v: 2 });
  });

  test('delete asks inline, then removes the endpoint', async () => {
    await createViaApi('doomed', 1);
    await createViaApi('kept', 2);
    await page.goto(`${server.url}/#/e/doomed`);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    // "Keep it" takes the focus and cancels.
    await poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Keep it');
    await page.keyboard.press('Enter');
    expect((await api('endpoint/doomed')).status).toBe(200);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('button', { name: 'Delete “doomed”' }).click();
    await page.waitForURL(/#\/$/);
    await poll(() => page.locator('.endpoint-list .name').allTextContents()).toEqual(['kept']);
    expect((await api('endpoint/doomed')).status).toBe(404);
  });

  test('a mistyped name shows the requests sent to it, and creates it in two steps', async () => {
    await fetch(`${server.url}/endpoint/order-payd`, { method: 'POST', body: '{"order":7}' });
    await page.goto(`${server.url}/#/e/order-payd`);
    await poll(() => page.locator('.missing').textContent()).toContain('There is no endpoint named “order-payd”.');
    // The request the sender made to the mistyped name is there, answered 404.
    await poll(() => page.locator('.journal-list li').count()).toBe(1);
    expect(await page.locator('.journal-list .badge').textContent()).toBe('404');
    expect(await page.locator('.journal-list .body-preview').textContent()).toBe('{"order":7}');
    expect(await page.locator('.live').textContent()).toBe('Live (no endpoint)');
    // Live too: a second request shows up without a reload.
    await fetch(`${server.url}/endpoint/order-payd?again=1`);
    await poll(() => page.locator('.journal-list li').count()).toBe(2);

    await page.getByRole('link', { name: 'Create “order-payd”' }).click();
    await page.waitForURL(/#\/new\/order-payd$/);
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('order-payd');
    await poll(() => page.evaluate(() => document.activeElement?.id)).toBe('new-data');
    await page.getByLabel('Response body (JSON)').fill('{"paid": true}');
    await page.getByRole('button', { name: 'Create endpoint' }).click();
    await page.waitForURL(/#\/e\/order-payd$/);
    await poll(() => page.locator('#detail-url').textContent()).toBe(`${server.url}/endpoint/order-payd`);
    // The journal kept what was sent before the endpoint existed.
    await poll(() => page.locator('.journal-list li').count()).toBe(2);
    expect(await (await api('endpoint/order-payd')).json()).toEqual({ paid: true });
  });
});

describe('layout', () => {
  test('is readable in a narrow window: no sideways scrolling, detail without the list', async () => {
    await createViaApi('a-rather-long-endpoint-name-for-a-phone-screen', { hello: 'world' });
    await createViaApi('short', [], { statusCode: 503, delay: 250 });
    await page.setViewportSize({ width: 380, height: 820 });
    await page.goto(`${server.url}/`);
    await poll(() => page.locator('.endpoint-list li').count()).toBe(2);
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await screenshot(page, 'narrow-home', true);

    await page.locator('.endpoint-list a').first().click();
    await poll(() => page.locator('#detail-url').isVisible()).toBe(true);
    await fetch(`${server.url}/endpoint/a-rather-long-endpoint-name-for-a-phone-screen?x=1`, {
      method: 'POST',
      body: '{"ping":1}',
    });
    await poll(() => page.locator('.journal-list li').count()).toBe(1);
    expect(await page.locator('.sidebar').isVisible()).toBe(false);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await screenshot(page, 'narrow-detail', true);
    await page.getByRole('link', { name: '← All endpoints' }).click();
    await poll(() => page.locator('.sidebar').isVisible()).toBe(true);
  });

  test('the overview: list with status badges and delay, the selected endpoint, its live journal (README screenshot)', async () => {
    await createViaApi('github-webhook', { ok: true });
    await createViaApi('payment-succeeded', { id: 'pi_123', status: 'succeeded', amount: 4200 });
    await createViaApi('rate-limited', { error: 'slow down' }, { statusCode: 429 });
    await createViaApi('slow-upstream', { items: [] }, { delay: 1500 });
    await createViaApi('upstream-down', { error: 'bad gateway' }, { statusCode: 502 });
    const twin = await fetch(`${server.url}/api/endpoints/stripe/twin`, {
      method: 'PUT',
      body: '{"provider":"stripe"}',
    });
    expect(twin.status).toBe(200);
    await page.goto(`${server.url}/#/e/payment-succeeded`);
    await poll(() => page.locator('.live').textContent()).toBe('Live');
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
    await poll(() => page.locator('.journal-list li').count()).toBe(3);

    // The list: every endpoint in name order, its status badge coloured by class, a delay label only where set.
    const rows = page.locator('.endpoint-list li');
    await poll(() => rows.locator('.name').allTextContents()).toEqual([
      'github-webhook',
      'payment-succeeded',
      'rate-limited',
      'slow-upstream',
      'stripe',
      'upstream-down',
    ]);
    expect(await page.locator('#list-title .count').textContent()).toBe('6');
    // Which names are twins: said on the row, only there.
    expect(await rows.locator('.twin').allTextContents()).toEqual(['twin']);
    expect(await page.locator('.endpoint-list a[data-name="stripe"] .twin').count()).toBe(1);
    expect(await rows.locator('.badge').allTextContents()).toEqual(['200', '200', '429', '200', '502']);
    expect(await rows.locator('.badge').evaluateAll((badges) => badges.map((b) => b.className))).toEqual([
      'badge s2xx',
      'badge s2xx',
      'badge s4xx',
      'badge s2xx',
      'badge s5xx',
    ]);
    expect(await rows.locator('.delay').allTextContents()).toEqual(['1500 ms']);
    expect(await page.locator('.endpoint-list a[data-name="slow-upstream"] .delay').getAttribute('title')).toBe(
      'waits 1500 ms',
    );

    // The selected endpoint: marked in the list, its detail beside it.
    expect(await page.locator('.endpoint-list a[aria-current="page"]').count()).toBe(1);
    expect(await page.locator('.endpoint-list a[aria-current="page"] .name').textContent()).toBe('payment-succeeded');
    expect(await page.locator('#detail-title').textContent()).toBe('payment-succeeded');
    expect(await page.locator('.detail-badges').textContent()).toBe('200no delay');
    expect(await page.locator('#detail-url').textContent()).toBe(`${server.url}/endpoint/payment-succeeded`);
    expect(JSON.parse((await page.getByLabel('Stored response body').textContent()) ?? '')).toEqual({
      id: 'pi_123',
      status: 'succeeded',
      amount: 4200,
    });

    // Its journal, newest first; the second request expanded to its headers and pretty body.
    expect(await page.locator('.journal-list .method').allTextContents()).toEqual(['GET', 'POST', 'POST']);
    const refund = page.locator('.journal-list li').nth(1);
    await refund.locator('summary').click();
    await poll(() => refund.locator('.entry-body').isVisible()).toBe(true);
    expect(JSON.parse((await refund.locator('pre').textContent()) ?? '')).toEqual({
      type: 'charge.refunded',
      data: { object: { id: 'ch_9', amount: 1200 } },
    });
    const signature = refund.locator('tr', { has: page.locator('th', { hasText: 'stripe-signature' }) });
    expect(await signature.locator('td').textContent()).toBe('t=1,v1=abc');

    await page.mouse.move(0, 0);
    const shot = await screenshot(page, 'overview', true);
    // docs/screenshot.png is this picture: `MOCKPOINT_WRITE_SCREENSHOT=1` rewrites it (docs/web.md#screenshots).
    if (await docsScreenshot(shot)) expect(readFileSync(DOCS_SCREENSHOT).equals(readFileSync(shot))).toBe(true);
    // …and a picture older than the page fails here: the same size, and at most 0.2 % of the pixels
    // visibly different (the journal's times and ids change from run to run: 0.01–0.03 % here).
    const difference = await comparePictures(page, readFileSync(DOCS_SCREENSHOT), readFileSync(shot));
    const stale = `docs/screenshot.png predates the page (${JSON.stringify(difference)}): rewrite it with MOCKPOINT_WRITE_SCREENSHOT=1 (docs/web.md#screenshots)`;
    expect(difference.sizes[0], stale).toBe(difference.sizes[1]);
    expect(difference.changed, stale).toBeLessThan(0.002);
  });
});
