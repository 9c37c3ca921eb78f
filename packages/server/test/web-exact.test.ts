/**
 * The web page keeps data exact, in a real browser against a real daemon: the
 * stored JSON text is shown, edited and saved with every digit, escape and key
 * in place (big integers, `1.0`, `-0`, `1E+400`, `\u` escapes, a key "2" before
 * "b"), only the whitespace laid out for reading. The same for a request body
 * in the journal, the Format button and the create form.
 */
import { scanJson } from '@mockpoint/core/client';
import type { Page } from 'playwright-core';
import { beforeEach, expect, test } from 'vitest';
import { poll, useWebTest } from './web-support.js';

const web = useWebTest();
let page: Page;

/** Everything JSON.parse + JSON.stringify would change: rounded, shortened, unescaped, reordered. */
const EXACT =
  '{"b":"first","2":"two","id":12345678901234567890,"f":1.0,"z":-0,"big":1E+400,"u":"\\u00e9\\ud83d\\ude00","list":[1.50,-0.0,{}]}';
/** {@link EXACT} laid out for reading: the same tokens, one member a line. */
const PRETTY = [
  '{',
  '  "b": "first",',
  '  "2": "two",',
  '  "id": 12345678901234567890,',
  '  "f": 1.0,',
  '  "z": -0,',
  '  "big": 1E+400,',
  '  "u": "\\u00e9\\ud83d\\ude00",',
  '  "list": [',
  '    1.50,',
  '    -0.0,',
  '    {}',
  '  ]',
  '}',
].join('\n');

/** The stored `data` of `name`, as the API's text (not parsed). */
async function storedText(name: string): Promise<string | undefined> {
  const response = await fetch(`${web.server.url}/api/endpoints/${name}`);
  expect(response.status).toBe(200);
  return scanJson(await response.text()).members?.get('data');
}

async function putRaw(name: string, dataText: string): Promise<void> {
  const response = await fetch(`${web.server.url}/api/endpoints/${name}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: `{"data":${dataText},"statusCode":200}`,
  });
  expect(response.ok).toBe(true);
}

beforeEach(async () => {
  expect((await fetch(`${web.server.url}/api/endpoints`, { method: 'DELETE' })).status).toBe(204);
  ({ page } = await web.open());
});

test('view → edit → save → API read keeps the stored text byte for byte', async () => {
  await putRaw('exact', EXACT);
  expect(await storedText('exact')).toBe(EXACT);

  await page.goto(`${web.server.url}/#/e/exact`);
  const shown = page.locator('.stored pre');
  await poll(() => shown.textContent()).toBe(PRETTY);

  await page.getByRole('button', { name: 'Edit' }).click();
  const editor = page.getByLabel('Response body (JSON)');
  await poll(() => editor.inputValue()).toBe(PRETTY);
  // Saved untouched: the stored text is what it was.
  await page.getByRole('button', { name: 'Save changes' }).click();
  await page.waitForURL(/#\/e\/exact$/);
  await poll(() => shown.textContent()).toBe(PRETTY);
  expect(await storedText('exact')).toBe(EXACT);
  expect(await (await fetch(`${web.server.url}/endpoint/exact`)).text()).toBe(EXACT);

  // Edited: the change is saved, every other token stays as it was.
  await page.getByRole('button', { name: 'Edit' }).click();
  await poll(() => editor.inputValue()).toBe(PRETTY);
  await editor.fill(PRETTY.replace('"two"', '"deux"').replace('12345678901234567890', '12345678901234567891'));
  await page.getByRole('button', { name: 'Save changes' }).click();
  await page.waitForURL(/#\/e\/exact$/);
  const edited = EXACT.replace('"two"', '"deux"').replace('12345678901234567890', '12345678901234567891');
  await poll(() => storedText('exact')).toBe(edited);
  await poll(() => shown.textContent()).toBe(
    PRETTY.replace('"two"', '"deux"').replace('12345678901234567890', '12345678901234567891'),
  );
});

test('a change elsewhere to a digit a double cannot hold shows on the next refresh', async () => {
  await putRaw('drift', '{"id":12345678901234567890}');
  await page.goto(`${web.server.url}/#/e/drift`);
  const shown = page.locator('.stored pre');
  await poll(() => shown.textContent()).toBe('{\n  "id": 12345678901234567890\n}');
  // Both numbers are the same double: only a comparison of the text notices the change.
  await putRaw('drift', '{"id":12345678901234567891}');
  await poll(() => shown.textContent()).toBe('{\n  "id": 12345678901234567891\n}');
});

test('Format lays out the editor text without changing a token; the create form saves what was typed', async () => {
  await page.goto(`${web.server.url}/#/new`);
  await page.getByLabel('Name').fill('typed');
  const editor = page.getByLabel('Response body (JSON)');
  await editor.fill(EXACT);
  await page.getByRole('button', { name: 'Format' }).click();
  expect(await editor.inputValue()).toBe(PRETTY);
  await page.getByRole('button', { name: 'Create endpoint' }).click();
  await page.waitForURL(/#\/e\/typed$/);
  expect(await storedText('typed')).toBe(EXACT);
  await poll(() => page.locator('.stored pre').textContent()).toBe(PRETTY);
});

test('a key twice in one object is flagged before saving, as the server would refuse it', async () => {
  await page.goto(`${web.server.url}/#/new`);
  await page.getByLabel('Name').fill('twice');
  await page.getByLabel('Response body (JSON)').fill('{\n  "a": 1,\n  "a": 2\n}');
  await page.getByRole('button', { name: 'Create endpoint' }).click();
  await poll(() => page.locator('#new-data-error').textContent()).toBe(
    'Invalid JSON at line 3, column 3: the key "a" appears twice in one object; keys must be distinct.',
  );
  expect((await fetch(`${web.server.url}/api/endpoints/twice`)).status).toBe(404);
});

test('a JSON request body in the journal shows its own tokens', async () => {
  await putRaw('hook', '{}');
  await page.goto(`${web.server.url}/#/e/hook`);
  await poll(() => page.locator('.live').textContent()).toBe('Live');
  const sent = await fetch(`${web.server.url}/endpoint/hook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: EXACT,
  });
  expect(sent.status).toBe(200);
  const row = page.locator('.journal-list li').first();
  await row.locator('summary').click();
  await poll(() => row.locator('.entry-body pre').textContent()).toBe(PRETTY);
});
