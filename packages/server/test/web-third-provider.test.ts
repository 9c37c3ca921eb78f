/**
 * The page shows a provider it was never told of (docs/twins.md#on-the-page), in Debian's
 * Chromium: the throw-away provider of helpers/folder-provider.ts, loaded from its folder alone,
 * is a twin on its name's page with its objects and the events it lists, and its signature scheme is offered by the signature panel (the
 * page reads the schemes from `GET /api/signature-schemes`, keeping no list of its own), set and
 * shown as any other. No axe violation.
 */
import { afterAll, expect, test } from 'vitest';
import { PROVIDER, writeFolderProvider } from './helpers/folder-provider.js';
import { axeViolations, poll, screenshot, useWebTest } from './web-support.js';

const provider = writeFolderProvider();
const web = useWebTest({ twins: provider.twins });
afterAll(() => provider.remove());

async function call(path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${web.server.url}${path}`, {
    method: path.startsWith('/api/') ? 'PUT' : 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  expect(response.status, `${path}: ${await response.clone().text()}`).toBeLessThan(300);
}

test("shows the provider's twin, and offers and shows its signature scheme", async () => {
  await call('/api/endpoints/journal-notes/twin', { provider: PROVIDER });
  await call('/endpoint/journal-notes/v1/notes', { text: 'from the page test' }, { authorization: 'Bearer page' });

  const { page } = await web.open({ width: 1280, height: 900 });
  await page.goto(`${web.server.url}/#/e/journal-notes`);
  const twin = page.getByRole('region', { name: 'Twin', exact: true });
  await poll(() => page.locator('#twin-about').textContent()).toMatch(/^quill twin: \d+ operations, \d+ collections; /);
  await poll(() => twin.getByRole('region', { name: '/v1/notes: 1' }).textContent()).toMatch(
    /^\/v1\/notes \(1\)note_\w+/,
  );

  // Its events as its API lists them (the collection the twin's answer names, not a provider's name).
  await poll(() => twin.getByRole('list', { name: 'Events' }).locator('li code').allTextContents()).toEqual([
    'note.created',
  ]);

  await page.getByRole('button', { name: 'Set check' }).click();
  const scheme = page.getByLabel('Scheme');
  await poll(() => scheme.locator('option').allTextContents()).toContain(PROVIDER);
  await scheme.selectOption(PROVIDER);
  // Its scheme takes no HMAC settings: the page knows that from the server's list, not from its name.
  expect(await page.locator('.signature-hmac').isVisible()).toBe(false);
  await page.getByLabel('Secret').fill('quill-page-secret-0001');
  await page.getByRole('button', { name: 'Save check' }).click();
  await poll(() => page.locator('#signature-current').textContent()).toBe(
    'quill · secret …0001 · 300 s tolerance · not enforced: only recorded',
  );
  expect(await axeViolations(page)).toEqual([]);
  await screenshot(page, 'third-provider');
});
