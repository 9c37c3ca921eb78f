// Collections and resource routes in the built daemon: on LevelDB every
// acknowledged write survives SIGKILL, exact; on two replicas sharing a real
// redis-server, concurrent POSTs and PATCHes spread over both lose nothing;
// and the daemon answers what json-server 0.17.4 (a real process) answers for
// the same database and requests. Every process listens on 127.0.0.1.
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';
import { jsonString, prng, randomText } from '@mockpoint/testkit/random-text';
import { startTestRedis, type TestRedis } from '@mockpoint/testkit/redis-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Daemon, makeTempDir, runCli, startDaemon, useDaemons } from './helpers/daemon.js';

let redis: TestRedis;

useDaemons();
beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(() => redis?.dispose());

async function send(
  url: string,
  method: string,
  text?: string,
): Promise<{ status: number; text: string; headers: Headers }> {
  const response = await fetch(url, { method, body: text, headers: { 'content-type': 'application/json' } });
  return { status: response.status, text: await response.text(), headers: response.headers };
}

/** Puts `collections` (JSON text) and one resource route per collection under `name`. */
async function fake(daemon: Daemon, name: string, collections: string, resources: string[]): Promise<void> {
  expect((await send(`${daemon.url}/api/endpoints/${name}/collections`, 'PUT', collections)).status).toBe(200);
  const routes = resources.map((resource) => ({ match: { path: `/${resource}` }, answer: { resource } }));
  expect((await send(`${daemon.url}/api/endpoints/${name}/routes`, 'PUT', JSON.stringify({ routes }))).status).toBe(
    200,
  );
}

describe('collections across SIGKILL (LevelDB)', () => {
  it('every acknowledged POST, PUT, PATCH and DELETE survives SIGKILL right after its answer, exact', async () => {
    const cwd = await makeTempDir();
    const first = await startDaemon({ cwd });
    await fake(first, 'api', '{"users":[{"id":1,"big":12345678901234567890,"price":1.50}],"posts":[]}', [
      'users',
      'posts',
    ]);
    const users = `${first.url}/endpoint/api/users`;
    const created = await Promise.all(
      Array.from({ length: 40 }, (_, i) => send(users, 'POST', `{"n":${i},"exact":1.0}`)),
    );
    expect(created.map((c) => c.status)).toEqual(created.map(() => 201));
    const ids = created.map((c) => (JSON.parse(c.text) as { id: number }).id);
    expect(new Set(ids).size).toBe(40);
    expect((await send(`${users}/1`, 'PATCH', '{"tags":["a"]}')).status).toBe(200);
    expect((await send(`${users}/2`, 'PUT', '{"replaced":true}')).status).toBe(200);
    expect((await send(`${users}/3`, 'DELETE')).status).toBe(200);
    const before = await send(users, 'GET');

    expect(await first.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    const second = await startDaemon({ cwd });
    const after = await send(`${second.url}/endpoint/api/users`, 'GET');
    expect(after.text).toBe(before.text);
    const list = JSON.parse(after.text) as { id: number }[];
    expect(list).toHaveLength(40);
    expect(after.text.startsWith('[{"id":1,"big":12345678901234567890,"price":1.50,"tags":["a"]}')).toBe(true);
    expect(after.text).toContain('{"replaced":true,"id":2}');
    // The seed survived too: a reset returns to it.
    expect((await send(`${second.url}/api/endpoints/api/reset`, 'POST')).status).toBe(204);
    expect((await send(`${second.url}/endpoint/api/users`, 'GET')).text).toBe(
      '[{"id":1,"big":12345678901234567890,"price":1.50}]',
    );
  });
});

describe('collections on two replicas (Redis)', () => {
  it('concurrent POSTs and PATCHes spread over two replicas: distinct ids, every item, every field', async () => {
    const [a, b] = await Promise.all([0, 1].map(() => startDaemon({ env: { MOCKPOINT_REDIS_URL: redis.socket } })));
    if (a === undefined || b === undefined) throw new Error('two replicas');
    const name = `replicas-${process.pid}`;
    await fake(a, name, '{"todos":[{"id":1}]}', ['todos']);
    await send(`${b.url}/api/endpoints/${name}/routes`, 'GET');
    const posts = await Promise.all(
      Array.from({ length: 50 }, (_, i) => send(`${(i % 2 ? a : b).url}/endpoint/${name}/todos`, 'POST', `{"n":${i}}`)),
    );
    expect(posts.map((p) => p.status)).toEqual(posts.map(() => 201));
    expect(new Set(posts.map((p) => (JSON.parse(p.text) as { id: number }).id)).size).toBe(50);
    const patches = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        send(`${(i % 2 ? a : b).url}/endpoint/${name}/todos/1`, 'PATCH', `{"f${i}":${i}}`),
      ),
    );
    expect(patches.map((p) => p.status)).toEqual(patches.map(() => 200));
    for (const replica of [a, b]) {
      const todos = JSON.parse((await send(`${replica.url}/endpoint/${name}/todos`, 'GET')).text) as Record<
        string,
        unknown
      >[];
      expect(todos).toHaveLength(51);
      expect(Object.keys(todos[0] ?? {}).sort()).toEqual(
        ['id', ...Array.from({ length: 20 }, (_, i) => `f${i}`)].sort(),
      );
    }
  });
});

describe('hostile input to resource routes (seeded fuzz against the daemon)', () => {
  it('random code points in items, query keys, values, _like patterns and ids: coded answers, items kept exact, the daemon up', async () => {
    const daemon = await startDaemon();
    await fake(daemon, 'fuzz', '{"items":[],"others":[]}', ['items']);
    // Every item's text also reaches a response header, through {{item.t}}, and a nested route's foreign key.
    const routes = [
      { match: { path: '/items' }, answer: { resource: 'items', template: true, headers: { 'x-t': '<{{item.t}}>' } } },
    ];
    expect((await send(`${daemon.url}/api/endpoints/fuzz/routes`, 'PUT', JSON.stringify({ routes }))).status).toBe(200);
    const base = `${daemon.url}/endpoint/fuzz/items`;
    const random = prng(0x5eed33);
    const kept: string[] = [];
    for (let i = 0; i < 150; i++) {
      const text = randomText(random, 1 + Math.floor(random() * 40));
      // An item whose field names and values are the random text, sent as escaped JSON: stored and served exactly.
      const item = `{"t":${jsonString(text)},${jsonString(text.slice(0, 8))}:[${jsonString(text)}]}`;
      const created = await send(base, 'POST', item);
      if (created.status === 201) {
        kept.push(created.text);
        // Visible ASCII, space and tab only (as HTTP allows), the item's text percent-encoded where it is not.
        expect(created.headers.get('x-t'), `x-t of ${item}`).toMatch(/^<[\t\x20-\x7e]*>$/);
      } else expect([400], `POST ${item}`).toContain(created.status);
      // The same text as query keys, values and patterns, and as an id.
      const encoded = encodeURIComponent(text.replace(/[\uD800-\uDFFF]/g, '?'));
      for (const query of [
        `${encoded}=${encoded}`,
        `t_like=${encoded}`,
        `q=${encoded}`,
        `_sort=${encoded}`,
        `${encoded}_ne=1`,
      ]) {
        const listed = await send(`${base}?${query}`, 'GET');
        expect([200, 400], query).toContain(listed.status);
        expect(() => JSON.parse(listed.text), query).not.toThrow();
      }
      const one = await send(`${base}/${encoded}`, 'GET');
      expect([200, 404], `GET /${encoded}`).toContain(one.status);
      const nested = await send(`${base}/${encoded}/${encoded}`, 'GET');
      expect([200, 404], `GET /${encoded}/${encoded}`).toContain(nested.status);
      const child = await send(`${base}/${encoded}/others`, 'POST', item);
      expect([201, 400, 404, 409], `POST /${encoded}/others`).toContain(child.status);
    }
    expect(kept.length).toBeGreaterThan(100);
    // Every acknowledged item is there, byte for byte, in order.
    expect((await send(base, 'GET')).text).toBe(`[${kept.join(',')}]`);
    // Raw bytes no fetch would send: a Latin-1 Host (Node passes it on; a Latin-1 target it refuses itself)
    // would reach Location and Link: they name localhost instead.
    const port = new URL(daemon.url).port;
    for (const [method, target, host] of [
      ['POST', '/endpoint/fuzz/items', 'h\xe9\xff'],
      ['GET', '/endpoint/fuzz/items?_page=2&_limit=1', 'evil\xa0host'],
    ]) {
      const raw = await new Promise<string>((resolve) => {
        const socket = connect(Number(port), '127.0.0.1');
        let got = '';
        socket.setEncoding('latin1');
        socket.on('data', (chunk: string) => {
          got += chunk;
        });
        socket.on('close', () => resolve(got));
        socket.on('error', () => resolve(got));
        const body = method === 'POST' ? '{}' : '';
        socket.write(
          Buffer.from(
            `${method} ${target} HTTP/1.1\r\nHost: ${host}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
            'latin1',
          ),
        );
      });
      expect(raw, `${method} ${target}`).toMatch(/^HTTP\/1\.1 20[01] /);
      // Header names are case-insensitive (Node sends `location`, Bun `Location`).
      expect(raw).toMatch(/\r\n(location|link): <?http:\/\/localhost\/endpoint\/fuzz\/items/i);
    }
    expect((await send(`${daemon.url}/api/health`, 'GET')).status).toBe(200);
  });
});

/** json-server 0.17.4 on `db` (a real process), until the test ends. */
async function jsonServer(db: unknown): Promise<{ url: string; stop: () => Promise<void> }> {
  const dir = await makeTempDir('mockpoint-json-server-');
  await writeFile(join(dir, 'db.json'), JSON.stringify(db));
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  const bin = createRequire(import.meta.url).resolve('json-server/lib/cli/bin.js');
  const child: ChildProcess = spawn(
    process.execPath,
    [bin, join(dir, 'db.json'), '--host', '127.0.0.1', '--port', String(port), '--quiet'],
    { stdio: 'ignore' },
  );
  const url = `http://127.0.0.1:${port}`;
  await vi.waitFor(
    async () => {
      const ok = await fetch(`${url}/db`).then(
        (r) => r.ok,
        () => false,
      );
      if (!ok) throw new Error('json-server did not start within 10 s');
    },
    { timeout: 10_000, interval: 50 },
  );
  return {
    url,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
  };
}

describe('side by side with json-server 0.17.4 over HTTP', () => {
  it('the same requests get the same items, statuses, X-Total-Count and ids', async () => {
    const db = {
      posts: [
        { id: 1, title: 'json-server', views: 100, author: { name: 'typicode' }, userId: 1 },
        { id: 2, title: 'JSON Schema', views: 9, author: { name: 'Ada' }, userId: 2 },
        { id: 3, title: 'mockpoint', views: '15', userId: 1 },
      ],
      comments: [
        { id: 1, body: 'first', postId: 1 },
        { id: 2, body: 'second', postId: 3 },
      ],
      users: [
        { id: 1, name: 'typicode' },
        { id: 2, name: 'Ada' },
      ],
    };
    const peer = await jsonServer(db);
    try {
      const daemon = await startDaemon();
      await fake(daemon, 'js', JSON.stringify(db), ['posts', 'comments', 'users']);
      const requests: [string, string, string?][] = [
        ['GET', '/posts'],
        ['GET', '/posts?views_gte=10&_sort=title'],
        ['GET', '/posts?q=type&_embed=comments'],
        ['GET', '/posts?_page=1&_limit=2&_expand=user'],
        ['GET', '/posts/3?_embed=comments'],
        ['POST', '/posts', '{"title":"new"}'],
        ['PUT', '/posts/2', '{"title":"replaced","id":7}'],
        ['PATCH', '/posts/1', '{"views":101}'],
        ['DELETE', '/users/2'],
        ['GET', '/posts?_sort=id&_order=desc'],
        ['GET', '/users'],
        // Nested routes: /posts/1/comments is comments?postId=1; a POST there stores postId as the URL's text.
        ['GET', '/posts/1/comments'],
        ['POST', '/posts/3/comments', '{"body":"nested","postId":9}'],
        ['POST', '/posts/3/comments', '{"body":"nested too"}'],
        ['GET', '/posts/3/comments?_sort=id&_order=desc'],
        ['GET', '/posts/3/comments?postId=1'],
        ['GET', '/posts/3?_embed=comments'],
        ['GET', '/users/1/posts?_page=1&_limit=1'],
        ['GET', '/posts/99/comments'],
        ['GET', '/posts/1/nothing'],
        ['POST', '/posts/1/nothing', '{}'],
      ];
      for (const [method, path, body] of requests) {
        const theirs = await send(`${peer.url}${path}`, method, body);
        const ours = await send(`${daemon.url}/endpoint/js${path}`, method, body);
        const label = `${method} ${path}`;
        expect(ours.status, label).toBe(theirs.status);
        // json-server answers 404 with {}; mockpoint with a coded error (docs/state.md).
        if (theirs.status === 404) continue;
        expect(JSON.stringify(JSON.parse(ours.text)), label).toBe(JSON.stringify(JSON.parse(theirs.text)));
        expect(ours.headers.get('x-total-count'), label).toBe(theirs.headers.get('x-total-count'));
      }
    } finally {
      await peer.stop();
    }
  });

  it('a json-server db.json, imported (mockpoint import --from json-server) or given as --config, answers as json-server does', async () => {
    // Written as a person would: indented, a big integer and 1.50 that must stay as they are.
    const dbText = `{
  "posts": [
    { "id": 1, "title": "json-server", "views": 12345678901234567890, "userId": 1 },
    { "id": 2, "title": "mockpoint", "price": 1.50, "userId": 2 }
  ],
  "comments": [ { "id": 1, "body": "first", "postId": 1 } ],
  "profile": { "name": "typicode" }
}
`;
    const dir = await makeTempDir();
    await writeFile(join(dir, 'db.json'), dbText);
    const imported = await runCli({ args: ['import', 'db.json', '--from', 'json-server', '--name', 'js'], cwd: dir });
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain('2 collection(s) (posts, comments) and 1 singular resource(s)');
    const detected = await runCli({ args: ['import', 'db.json', '--name', 'js'], cwd: dir });
    expect(detected.stdout).toBe(imported.stdout);
    await writeFile(join(dir, 'mockpoint.json'), imported.stdout);

    const peer = await jsonServer(JSON.parse(dbText));
    try {
      const fromImport = await startDaemon({ args: ['--memory', '--config', 'mockpoint.json'], cwd: dir });
      const fromDb = await startDaemon({ args: ['--memory', '--config', 'db.json'], cwd: dir });
      // Exact: the big integer and 1.50 are served as written in db.json (json-server rounds them).
      expect((await send(`${fromDb.url}/endpoint/db/posts`, 'GET')).text).toBe(
        '[{"id":1,"title":"json-server","views":12345678901234567890,"userId":1},{"id":2,"title":"mockpoint","price":1.50,"userId":2}]',
      );
      const requests: [string, string, string?][] = [
        ['GET', '/posts?_sort=id&_order=desc'],
        ['GET', '/posts/1?_embed=comments'],
        ['GET', '/comments?_expand=post'],
        ['GET', '/profile'],
        ['POST', '/comments', '{"body":"second","postId":2}'],
        ['PATCH', '/posts/2', '{"title":"patched"}'],
        ['DELETE', '/comments/1'],
        ['GET', '/comments'],
      ];
      for (const [method, path, body] of requests) {
        const theirs = await send(`${peer.url}${path}`, method, body);
        for (const [daemon, name] of [
          [fromImport, 'js'],
          [fromDb, 'db'],
        ] as const) {
          const ours = await send(`${daemon.url}/endpoint/${name}${path}`, method, body);
          const label = `${name}: ${method} ${path}`;
          expect(ours.status, label).toBe(theirs.status);
          expect(JSON.stringify(JSON.parse(ours.text)), label).toBe(JSON.stringify(JSON.parse(theirs.text)));
        }
      }
    } finally {
      await peer.stop();
    }
  });
});
