/**
 * Side by side with json-server 0.17.4 itself (a real process on 127.0.0.1):
 * the same database, the same requests; the items, their order, and the
 * X-Total-Count and Link headers must be the same as ours. Writes are compared
 * where docs/design.md#collections-and-state keeps json-server's behaviour (ids, PUT keeps the id, a
 * PATCH of top-level fields); docs/state.md lists where ours differs.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Item, indexOfId, insertItem, itemOf, parseItem, patchItem, replaceItem } from './item.js';
import { linkHeader, parseListQuery, runListQuery } from './list-query.js';
import { type RelationContext, related } from './relations.js';

const DB = {
  posts: [
    {
      id: 1,
      title: 'json-server',
      views: 100,
      published: true,
      author: { name: 'typicode' },
      tags: ['a', 'b'],
      userId: 1,
    },
    { id: 2, title: 'JSON Schema', views: 9, published: false, author: { name: 'Ada' }, tags: ['b'], userId: 2 },
    { id: 3, title: 'mockpoint', views: '15', author: { name: 'typicode' }, userId: 1 },
    { id: 4, title: 'Server sent', views: null, published: true, tags: [] },
    { id: 5, title: 'zebra', views: 10.5, published: true, author: { name: 'Zed' }, userId: 3 },
    { id: 6, title: 'alpha', views: 0, author: {}, userId: 2 },
    { id: 7, title: 'Beta 1', views: 1000, published: false, userId: 9 },
  ],
  comments: [
    { id: 1, body: 'first', postId: 1 },
    { id: 2, body: 'second', postId: 1 },
    { id: 3, body: 'other', postId: 3 },
    { id: 4, body: 'text id', postId: '2' },
  ],
  users: [
    { id: 1, name: 'typicode' },
    { id: 2, name: 'Ada' },
    { id: 3, name: 'Zed' },
  ],
};

/** Ours: the database as items, per collection. */
function ourCollections(): Map<string, Item[]> {
  return new Map(Object.entries(DB).map(([name, list]) => [name, list.map((item) => itemOf(JSON.stringify(item)))]));
}

let server: ChildProcess;
let base: string;
let dir: string;

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function startJsonServer(): Promise<void> {
  writeFileSync(join(dir, 'db.json'), JSON.stringify(DB));
  const bin = createRequire(import.meta.url).resolve('json-server/lib/cli/bin.js');
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = spawn(
    process.execPath,
    [bin, join(dir, 'db.json'), '--host', '127.0.0.1', '--port', String(port), '--quiet'],
    {
      stdio: 'ignore',
    },
  );
  await vi.waitFor(
    async () => {
      if (!(await fetch(`${base}/db`)).ok) throw new Error('json-server did not start within 10 s');
    },
    { timeout: 10_000, interval: 50 },
  );
}

async function stopJsonServer(): Promise<void> {
  if (server.exitCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGKILL');
  await exited;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mockpoint-json-server-'));
  await startJsonServer();
}, 20_000);

afterAll(async () => {
  await stopJsonServer();
  rmSync(dir, { recursive: true, force: true });
});

function context(collections: Map<string, Item[]>, collection: string): RelationContext {
  return {
    collection,
    idField: 'id',
    find: (name) => {
      const items = collections.get(name);
      return items && { items, idField: 'id' };
    },
  };
}

/** Our answer to `GET /<collection>?<search>`, as json-server's parts. */
function ourList(collections: Map<string, Item[]>, collection: string, search: string, url: string) {
  const query = parseListQuery(new URLSearchParams(search));
  if ('problem' in query) throw new Error(query.problem);
  const items = collections.get(collection) ?? [];
  const result = runListQuery(items, query);
  const texts = result.indexes.map((i) =>
    related(items[i] as Item, query.embed, query.expand, context(collections, collection)),
  );
  return {
    body: `[${texts.join(',')}]`,
    total: result.total === undefined ? null : String(result.total),
    link: result.pages === undefined ? null : linkHeader(url, result.pages),
  };
}

/** Same JSON values with keys in the same order. */
function sameJson(ours: string, theirs: unknown): void {
  expect(JSON.stringify(JSON.parse(ours))).toBe(JSON.stringify(theirs));
}

describe('the list query, side by side with json-server 0.17.4', () => {
  const QUERIES = [
    '',
    'title=json-server',
    'id=1&id=3',
    'id_ne=1&id_ne=2',
    'views_gte=10',
    'views_lte=100&views_gte=10',
    'views_gte=a',
    'title_gte=a',
    'author.name=typicode',
    'author.name_ne=typicode',
    'tags.0=b',
    'published=true',
    'published=false',
    'title_like=^j',
    'title_like=server$',
    'title_like=s.*r',
    'nothing=1',
    'nothing_ne=1',
    'q=SERVER',
    'q=1',
    'q=0',
    'q=typi',
    '_sort=views',
    '_sort=views&_order=desc',
    '_sort=title',
    '_sort=author.name,id&_order=asc,desc',
    '_sort=published,views&_order=DESC',
    '_sort=missing',
    '_page=2&_limit=2',
    '_page=1&_limit=10',
    '_page=3',
    '_page=0&_limit=3',
    '_page=4&_limit=3',
    '_page=2&_limit=3&title_like=e',
    '_start=1&_end=3',
    '_start=1&_limit=2',
    '_end=2',
    '_limit=0',
    '_start=-2&_end=-1',
    '_embed=comments',
    '_embed=comments&_embed=nothing',
    '_expand=user&id_ne=4',
    '_embed=comments&_expand=user&_sort=id&_order=desc&_limit=3',
    'q=a&views_gte=1&_sort=title&_page=1&_limit=2',
  ];

  it.each(QUERIES)('GET /posts?%s', async (search) => {
    const url = `${base}/posts${search ? `?${search}` : ''}`;
    const response = await fetch(url);
    const ours = ourList(ourCollections(), 'posts', search, url);
    expect(response.status).toBe(200);
    sameJson(ours.body, await response.json());
    expect(ours.total).toBe(response.headers.get('x-total-count'));
    expect(ours.link ?? null).toBe(ours.link === null ? null : response.headers.get('link'));
    if (ours.link === null) expect(response.headers.get('link')).toBeNull();
  });

  it.each(['1', '3?_embed=comments', '2?_expand=user&_embed=comments', '7?_expand=user'])(
    'GET /posts/%s',
    async (path) => {
      const response = await fetch(`${base}/posts/${path}`);
      const [id, search = ''] = path.split('?') as [string, string?];
      const collections = ourCollections();
      const posts = collections.get('posts') as Item[];
      const query = parseListQuery(new URLSearchParams(search));
      if ('problem' in query) throw new Error(query.problem);
      const item = posts[indexOfId(posts, 'id', id)] as Item;
      sameJson(related(item, query.embed, query.expand, context(collections, 'posts')), await response.json());
    },
  );

  it('_expand where an item has no <name>Id: json-server fails (500), ours leaves the field out', async () => {
    expect((await fetch(`${base}/posts?_expand=user`)).status).toBe(500);
    const ours = JSON.parse(ourList(ourCollections(), 'posts', '_expand=user', '').body) as {
      id: number;
      user?: unknown;
    }[];
    expect(ours.map((post) => post.user === undefined)).toEqual([false, false, false, true, false, false, true]);
  });

  it('GET /comments/2?_expand=post finds the post by id as text; /posts/99 is 404 on both', async () => {
    const collections = ourCollections();
    const comments = collections.get('comments') as Item[];
    const ours = related(comments[3] as Item, [], ['post'], context(collections, 'comments'));
    sameJson(ours, await (await fetch(`${base}/comments/4?_expand=post`)).json());
    expect((await fetch(`${base}/posts/99`)).status).toBe(404);
    expect(indexOfId(collections.get('posts') as Item[], 'id', '99')).toBe(-1);
  });
});

describe('writes, side by side with json-server 0.17.4', () => {
  beforeAll(async () => {
    await stopJsonServer();
    await startJsonServer();
  }, 20_000);

  const send = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  };

  it('POST assigns the next id (at the end, or in place of a falsy one) or keeps a free one; PUT keeps the id; PATCH sets fields; DELETE answers {}', async () => {
    // Replaced, never changed in place: a collection's items array is immutable (as every store hands it out).
    let users: readonly Item[] = ourCollections().get('users') as Item[];
    const set = (at: number, next: Item) => {
      users = users.map((user, i) => (i === at ? next : user));
      return next.text;
    };
    const item = (value: unknown) => {
      const parsed = parseItem(JSON.stringify(value));
      if ('problem' in parsed) throw new Error(parsed.message);
      return parsed;
    };
    const insert = (value: unknown) => {
      const inserted = insertItem(users, item(value), 'id');
      if (!('item' in inserted)) throw new Error('taken');
      users = [...users, inserted.item];
      return inserted.item.text;
    };

    let theirs = await send('POST', '/users', { name: 'Grace' });
    expect(theirs.status).toBe(201);
    sameJson(insert({ name: 'Grace' }), theirs.body);

    theirs = await send('POST', '/users', { id: 0, name: 'Zero' });
    sameJson(insert({ id: 0, name: 'Zero' }), theirs.body);

    theirs = await send('POST', '/users', { id: 10, name: 'Ten' });
    sameJson(insert({ id: 10, name: 'Ten' }), theirs.body);

    theirs = await send('POST', '/users', { name: 'Eleven' });
    sameJson(insert({ name: 'Eleven' }), theirs.body);

    theirs = await send('PUT', '/users/2', { name: 'Lovelace', id: 99 });
    const two = indexOfId(users, 'id', '2');
    sameJson(set(two, replaceItem(users[two] as Item, item({ name: 'Lovelace', id: 99 }), 'id')), theirs.body);

    theirs = await send('PUT', '/users/3', { name: 'Z' });
    const three = indexOfId(users, 'id', '3');
    sameJson(set(three, replaceItem(users[three] as Item, item({ name: 'Z' }), 'id')), theirs.body);

    theirs = await send('PATCH', '/users/1', { id: 50, role: 'admin' });
    sameJson(set(0, patchItem(users[0] as Item, item({ id: 50, role: 'admin' }), 'id')), theirs.body);

    theirs = await send('DELETE', '/users/10');
    expect(theirs).toEqual({ status: 200, body: {} });
    const ten = indexOfId(users, 'id', '10');
    users = users.filter((_, i) => i !== ten);

    expect((await send('DELETE', '/users/10')).status).toBe(404);
    expect((await send('PUT', '/users/10', { name: 'gone' })).status).toBe(404);
    sameJson(`[${users.map((user) => user.text).join(',')}]`, (await send('GET', '/users')).body);
  });
});
