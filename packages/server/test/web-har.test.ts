/**
 * The journal's HAR link, in Debian's Chromium against a real daemon: it downloads
 * this name's requests (and no other name's) as a HAR 1.2 file, each body exact.
 */
import { readFile } from 'node:fs/promises';
import { expect, test } from 'vitest';
import { poll, useWebTest } from './web-support.js';

const web = useWebTest();

test("the journal's HAR link downloads this name's requests as HAR, bodies exact", async () => {
  const body = '{"big":12345678901234567890,"name":"Zoë"}';
  expect((await fetch(`${web.server.url}/endpoint/har-page/hooks`, { method: 'POST', body })).status).toBe(404);
  expect((await fetch(`${web.server.url}/endpoint/someone-else`)).status).toBe(404);
  const { page } = await web.open();
  await page.goto(`${web.server.url}/#/e/har-page`);
  await poll(() => page.locator('.journal-list li').count()).toBe(1);
  const link = page.getByRole('link', { name: 'HAR', exact: true });
  expect(await link.getAttribute('title')).toBe('Download the requests to har-page as a HAR file');
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  expect(download.suggestedFilename()).toBe('mockpoint-har-page.har');
  const har = JSON.parse(await readFile((await download.path()) as string, 'utf8')) as {
    log: {
      version: string;
      entries: { request: { method: string; postData?: { text: string } }; _mockpoint: { name: string } }[];
    };
  };
  expect(har.log.version).toBe('1.2');
  expect(
    har.log.entries.map((entry) => [entry._mockpoint.name, entry.request.method, entry.request.postData?.text]),
  ).toEqual([['har-page', 'POST', body]]);
});
