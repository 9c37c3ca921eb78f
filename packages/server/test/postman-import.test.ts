// A Postman collection v2.1 as Postman writes it: built with the `postman-collection` SDK and
// saved with its toJSON(); `mockpoint import` (the real CLI, format told from the file) turns it into
// a mock file a real daemon serves, and each saved example is answered to the request it was saved
// with: its status, its Content-Type and its body byte for byte. Every process on 127.0.0.1.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Collection, Item, ItemGroup, Response } from 'postman-collection';
import { describe, expect, it } from 'vitest';
import { makeTempDir, runCli, startDaemon, useDaemons } from './helpers/daemon.js';

useDaemons();

interface Saved {
  method: string;
  /** The URL as the example's request has it (collection variables in it). */
  url: string;
  body?: string;
  code: number;
  type?: string;
  answer: string;
}

/** The examples, grouped by request: what the test sends, and what each must answer. */
const REQUESTS: {
  folder?: string;
  name: string;
  method: string;
  url: string;
  examples: (Saved & { name: string })[];
}[] = [
  {
    folder: 'Users',
    name: 'Get user',
    method: 'GET',
    url: '{{baseUrl}}/users/:id',
    examples: [
      {
        name: 'Ada',
        method: 'GET',
        url: '{{baseUrl}}/users/1',
        code: 200,
        type: 'application/json',
        answer: '{\n  "id": 1,\n  "name": "Ada",\n  "balance": 12345678901234567890\n}',
      },
      {
        name: 'verbose',
        method: 'GET',
        url: '{{baseUrl}}/users/1?verbose=true&fields=a&fields=b',
        code: 200,
        type: 'application/json; charset=utf-8',
        answer: '{"id":1,"name":"Ada","note":"h\\u00e9llo ✓ 𝄞"}',
      },
    ],
  },
  {
    folder: 'Users',
    name: 'Missing user',
    method: 'GET',
    url: '{{baseUrl}}/users/404',
    examples: [
      {
        name: 'gone',
        method: 'GET',
        url: '{{baseUrl}}/users/404',
        code: 404,
        type: 'text/plain',
        answer: 'no such user: 404 ✗',
      },
    ],
  },
  {
    name: 'Create order',
    method: 'POST',
    url: '{{baseUrl}}/orders',
    examples: [
      {
        name: 'created',
        method: 'POST',
        url: '{{baseUrl}}/orders',
        body: '{"sku":"A-1","qty":2}',
        code: 201,
        type: 'application/json',
        answer: '{"order":7,"sku":"A-1"}',
      },
      {
        name: 'refused',
        method: 'POST',
        url: '{{baseUrl}}/orders',
        body: '{"sku":"A-1","qty":0}',
        code: 422,
        type: 'application/problem+json',
        answer: '{"title":"qty must be at least 1"}',
      },
    ],
  },
  {
    name: 'Page',
    method: 'GET',
    url: 'https://{{host}}/static/page.html',
    examples: [
      {
        name: 'html',
        method: 'GET',
        url: 'https://{{host}}/static/page.html',
        code: 200,
        type: 'text/html',
        answer: '<!doctype html>\r\n<p>{{not a template}}</p>\n',
      },
    ],
  },
];

function collection(): unknown {
  const made = new Collection({
    info: { name: 'Shop' },
    variable: [
      { key: 'baseUrl', value: 'https://api.example.com/{{version}}' },
      { key: 'version', value: 'v2' },
      { key: 'host', value: 'www.example.com' },
    ],
  });
  const folders = new Map<string, ItemGroup>();
  for (const request of REQUESTS) {
    const item = new Item({ name: request.name, request: { method: request.method, url: request.url } });
    for (const example of request.examples) {
      item.responses.add(
        new Response({
          name: example.name,
          code: example.code,
          header: example.type === undefined ? [] : [{ key: 'Content-Type', value: example.type }],
          body: example.answer,
          originalRequest: {
            method: example.method,
            url: example.url,
            ...(example.body === undefined ? {} : { body: { mode: 'raw', raw: example.body } }),
          },
        }),
      );
    }
    if (request.folder === undefined) {
      made.items.add(item);
      continue;
    }
    let folder = folders.get(request.folder);
    if (folder === undefined) {
      folder = new ItemGroup({ name: request.folder });
      folders.set(request.folder, folder);
      made.items.add(folder);
    }
    folder.items.add(item);
  }
  return made.toJSON();
}

/** The example's URL on the daemon: its path (variables put in) below the endpoint, and its query. */
function local(url: string, daemon: string): string {
  const resolved = url.replace('{{baseUrl}}', 'https://api.example.com/v2').replace('{{host}}', 'www.example.com');
  const parsed = new URL(resolved);
  return `${daemon}/endpoint/shop${parsed.pathname}${parsed.search}`;
}

describe('Postman collections built with the postman-collection SDK', () => {
  it('imported by mockpoint import (told from the file), each saved example answers its request byte for byte', async () => {
    const dir = await makeTempDir('mockpoint-postman-');
    await writeFile(join(dir, 'shop.postman_collection.json'), JSON.stringify(collection(), null, 2));
    const imported = await runCli({
      cwd: dir,
      args: ['import', 'shop.postman_collection.json', '--name', 'shop', '--out', 'mock.json', '--strict'],
    });
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toBe('mockpoint import: 4 of 4 request(s) as 6 route(s) of endpoint shop\n');
    const daemon = await startDaemon({ cwd: dir, args: ['--config', 'mock.json'] });
    for (const request of REQUESTS) {
      for (const example of request.examples) {
        const response = await fetch(local(example.url, daemon.url), {
          method: example.method,
          ...(example.body === undefined
            ? {}
            : { body: example.body, headers: { 'content-type': 'application/json' } }),
        });
        const bytes = Buffer.from(await response.arrayBuffer());
        const what = `${request.name} / ${example.name}`;
        expect(response.status, what).toBe(example.code);
        expect(response.headers.get('content-type'), what).toBe(example.type ?? null);
        expect(bytes.equals(Buffer.from(example.answer, 'utf8')), `${what}: ${bytes}`).toBe(true);
      }
    }
    // The ids keep the folders.
    const routes = (await (await fetch(`${daemon.url}/api/endpoints/shop/routes`)).json()) as {
      routes: { id: string }[];
    };
    expect(routes.routes.map((route) => route.id)).toEqual([
      'Users-Missing-user',
      'Create-order',
      'Create-order-2',
      'Page',
      'Users-Get-user',
      'Users-Get-user-2',
    ]);
  });
});
