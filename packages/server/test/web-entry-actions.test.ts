/**
 * One recorded request on the page (issue 24.6 and the journal half of 24.2),
 * in Debian's Chromium: who answered it (a route, with the subpath and the
 * pattern's parameters), "Copy body", "Copy as curl" (run here with the real
 * curl: the daemon records the same method, path, headers and body bytes
 * again) and "Replay" from the page. A truncated body offers neither.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { afterEach, beforeAll, expect, test } from 'vitest';
import { poll, useWebTest } from './web-support.js';

const run = promisify(execFile);
const web = useWebTest();

interface Entry {
  id: number;
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
  body: string;
  bodyEncoding?: string;
}

async function journal(): Promise<Entry[]> {
  return ((await (await fetch(`${web.server.url}/api/endpoints/hook/requests`)).json()) as { requests: Entry[] })
    .requests;
}

/** What a resend must keep: everything but the id, the time and the headers curl or fetch set themselves. */
function sent(entry: Entry, extra: string[] = []) {
  const skip = new Set(['host', 'content-length', 'user-agent', 'accept', 'connection', ...extra]);
  return {
    method: entry.method,
    path: entry.path,
    query: entry.query,
    headers: Object.fromEntries(Object.entries(entry.headers).filter(([k]) => !skip.has(k))),
    body: entry.body,
    bodyEncoding: entry.bodyEncoding,
  };
}

beforeAll(async () => {
  const add = await fetch(`${web.server.url}/api/endpoint/add`, {
    method: 'PUT',
    body: JSON.stringify({ name: 'hook', data: { ok: true } }),
  });
  expect(add.status).toBe(201);
  const routes = await fetch(`${web.server.url}/api/endpoints/hook/routes`, {
    method: 'PUT',
    body: JSON.stringify({
      routes: [{ id: 'order', match: { method: 'POST', path: '/orders/:id' }, answer: { statusCode: 201, data: {} } }],
    }),
  });
  expect(routes.status).toBe(200);
});

afterEach(async () => {
  await fetch(`${web.server.url}/api/endpoints/hook/requests`, { method: 'DELETE' });
});

async function openEntry(): Promise<Page> {
  const watched = await web.open({ clipboard: true });
  await watched.page.goto(`${web.server.url}/#/e/hook`);
  await poll(() => watched.page.locator('.journal-list li').count()).toBe(1);
  await watched.page.locator('.journal-list summary').first().click();
  await poll(() => watched.page.locator('.entry-actions').count()).toBe(1);
  return watched.page;
}

const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

test('a JSON request answered by a route: who answered, copy body, copy as curl (run with curl), replay', async () => {
  const body = '{"order": 12345678901234567890, "note":"it\'s \\"quoted\\" $HOME `x`"}';
  const first = await fetch(`${web.server.url}/endpoint/hook/orders/42?x=1&x=2&y=%20sp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-signature': "t=1,v1='abc'" },
    body,
  });
  expect(first.status).toBe(201);
  const page = await openEntry();

  const answer = page.locator('.entry-body .kv-table').first();
  expect(await answer.locator('tr').evaluateAll((rows) => rows.map((r) => r.textContent))).toEqual([
    'answered byroute order',
    'subpath/orders/42',
    ':id42',
  ]);

  await page.getByRole('button', { name: 'Copy body' }).click();
  await poll(() => clipboard(page)).toBe(body);

  await page.getByRole('button', { name: 'Copy as curl' }).click();
  await poll(() => clipboard(page)).toMatch(/^curl -X POST /);
  const command = await clipboard(page);
  await run('sh', ['-c', `${command} --silent --output /dev/null`]);
  await poll(async () => (await journal()).length).toBe(2);
  const [original, resent] = await journal();
  expect(sent(resent as Entry)).toEqual(sent(original as Entry));

  await page.getByRole('button', { name: 'Replay' }).click();
  await poll(() => page.locator('.toast').last().textContent()).toBe('Replayed POST /endpoint/hook/orders/42: 201');
  await poll(async () => (await journal()).length).toBe(3);
  const replayed = (await journal())[2] as Entry;
  // The browser sets some headers itself (accept-encoding, origin, sec-*): the request's own are there.
  expect(replayed.headers).toMatchObject({ 'content-type': 'application/json', 'x-signature': "t=1,v1='abc'" });
  expect({ ...sent(replayed), headers: {} }).toEqual({ ...sent(original as Entry), headers: {} });
});

test('a binary body goes through base64 -d byte for byte; a truncated body offers neither curl nor replay', async () => {
  const bytes = Buffer.from([0, 255, 1, 2, 0x80, 10, 13, 39]);
  await fetch(`${web.server.url}/endpoint/hook`, {
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream' },
    body: bytes,
  });
  const page = await openEntry();
  expect(await page.getByRole('button', { name: 'Copy body' }).count()).toBe(0);
  await page.getByRole('button', { name: 'Copy as curl' }).click();
  await poll(() => clipboard(page)).toMatch(/^printf %s .* \| base64 -d \| curl -X PUT /);
  await run('sh', ['-c', `${await clipboard(page)} --silent --output /dev/null`]);
  await poll(async () => (await journal()).length).toBe(2);
  const [original, resent] = await journal();
  expect(original?.bodyEncoding).toBe('base64');
  expect(Buffer.from(resent?.body ?? '', 'base64')).toEqual(bytes);
  expect(sent(resent as Entry)).toEqual(sent(original as Entry));

  await fetch(`${web.server.url}/api/endpoints/hook/requests`, { method: 'DELETE' });
  await fetch(`${web.server.url}/endpoint/hook`, { method: 'POST', body: 'y'.repeat(100 * 1024) });
  await page.reload();
  await poll(() => page.locator('.journal-list li').count()).toBe(1);
  await page.locator('.journal-list summary').first().click();
  await poll(() => page.locator('.entry-actions').textContent()).toContain('cannot be sent again as it was');
  expect(await page.getByRole('button', { name: 'Copy body (truncated)' }).count()).toBe(1);
  expect(await page.getByRole('button', { name: 'Copy as curl' }).count()).toBe(0);
  expect(await page.getByRole('button', { name: 'Replay' }).count()).toBe(0);
});
