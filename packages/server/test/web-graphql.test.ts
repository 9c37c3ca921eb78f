/**
 * GraphQL requests in the page's journal, in Debian's Chromium against a real
 * daemon: each row names the operation (`query Viewer`, `+1` for the rest of a
 * batch), the variables on hover, `schema` when the endpoint's GraphQL schema
 * answered; the opened entry lists each operation and its variables.
 */
import { expect, test } from 'vitest';
import { poll, useWebTest } from './web-support.js';

const web = useWebTest();

async function send(path: string, method: string, body: unknown): Promise<number> {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const response = await fetch(`${web.server.url}${path}`, { method, body: text });
  await response.text();
  return response.status;
}

test('a row names the GraphQL operation, the variables on hover; the opened entry lists each operation', async () => {
  expect(await send('/api/endpoints/gql/graphql', 'PUT', 'type Query { viewer(id: ID): String }')).toBe(201);
  expect(
    await send('/endpoint/gql', 'POST', { query: 'query Viewer($id: ID) { viewer(id: $id) }', variables: { id: '7' } }),
  ).toBe(200);
  expect(await send('/endpoint/gql', 'POST', [{ query: '{ viewer }' }, { query: 'query Again { viewer }' }])).toBe(200);
  const { page } = await web.open();
  await page.goto(`${web.server.url}/#/e/gql`);
  await poll(() => page.locator('.journal-list li').count()).toBe(2);
  const marks = await page.locator('.journal-list summary').evaluateAll((summaries) =>
    summaries.map((summary) => ({
      by: summary.querySelector('.by')?.textContent,
      gql: summary.querySelector('.gql')?.textContent,
      title: summary.querySelector('.gql')?.getAttribute('title'),
    })),
  );
  expect(marks).toEqual([
    { by: 'schema', gql: 'query (anonymous) +1', title: 'GraphQL operation' },
    { by: 'schema', gql: 'query Viewer', title: 'variables {"id":"7"}' },
  ]);
  await page.locator('.journal-list summary').nth(1).click();
  const table = page.locator('.journal-list .entry-body .kv-table').first();
  await poll(() => table.locator('tr').allTextContents()).toEqual([
    "answered bythe endpoint's GraphQL schema",
    'subpath/',
    'graphqlquery Viewer',
    'graphql variables{"id":"7"}',
  ]);
});
