// `mockpoint export --to mockoon` against the real Mockoon CLI 9.9.0: a real daemon's endpoint (routes, a
// collection, its record) exported as one environment, which `mockoon-cli start --data` (a real process)
// must accept and serve; the same requests go to both, and the status, the Content-Type and the body
// bytes must be the same. Every process on 127.0.0.1, the Mockoon CLI killed by its PID.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addEndpoint, makeTempDir, requestJson, runCli, startDaemon, useDaemons } from './helpers/daemon.js';
import { startMockoon } from './helpers/mockoon.js';

useDaemons();

interface Sent {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

async function send(base: string, sent: Sent): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const response = await fetch(base + sent.path, {
    method: sent.method ?? 'GET',
    headers: sent.headers,
    ...(sent.body === undefined ? {} : { body: sent.body }),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, type: response.headers.get('content-type'), bytes };
}

const ROUTES = [
  { id: 'me', match: { method: 'GET', path: '/users/me' }, answer: { data: { me: true, n: 1.5 } } },
  {
    id: 'user',
    match: { method: 'GET', path: '/users/:id' },
    answer: { headers: { 'X-Kind': 'user' }, data: { id: 1, name: 'Zoë' } },
  },
  {
    id: 'order',
    match: { method: 'POST', path: '/orders', body: 'book' },
    answer: { statusCode: 201, headers: { Location: '/orders/9' }, body: 'created {{not a template}}' },
  },
  {
    id: 'search',
    match: { method: 'GET', path: '/search', query: { q: 'a' }, headers: { 'x-key': 'k' } },
    answer: { body: 'found', headers: { 'Content-Type': 'text/csv; charset=utf-8' } },
  },
  { id: 'search-other', match: { method: 'GET', path: '/search' }, answer: { statusCode: 418, body: 'other' } },
  { id: 'slow', match: { method: 'DELETE', path: '/slow' }, answer: { delay: 30, statusCode: 202, data: [1, 2] } },
  { id: 'none', match: { method: 'GET', path: '/none' }, answer: { statusCode: 204 } },
  { id: 'empty', match: { method: 'GET', path: '/empty' }, answer: { statusCode: 200 } },
  {
    id: 'csv',
    match: { method: 'GET', path: '/csv' },
    answer: { body: 'a,b', headers: { 'Content-Type': 'text/csv' } },
  },
  { id: 'people', match: { path: '/people' }, answer: { resource: 'people' } },
  { id: 'broken', match: { path: '/broken' }, answer: { fault: 'reset' } },
];

const TYPES: Record<string, { ours: string | null; theirs: string }> = {
  '/empty': { ours: null, theirs: 'text/html; charset=utf-8' },
  '/csv': { ours: 'text/csv', theirs: 'text/csv; charset=utf-8' },
};

describe('mockpoint export --to mockoon, side by side with the Mockoon CLI 9.9.0', () => {
  it('writes an environment the real Mockoon CLI serves as mockpoint does; lists what it leaves out', async () => {
    const daemon = await startDaemon();
    const put = await requestJson(`${daemon.url}/api/endpoints/api/routes`, {
      method: 'PUT',
      body: { routes: ROUTES },
    });
    expect(put.status).toBe(200);
    const people = await fetch(`${daemon.url}/api/endpoints/api/collections/people`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: '[{"id":1,"name":"Ada"},{"id":2,"name":"Grace"}]',
    });
    expect(people.status).toBeLessThan(300);
    expect((await addEndpoint(daemon.url, { name: 'api', data: { record: 1 }, statusCode: 202 })).status).toBeLessThan(
      300,
    );
    const dir = await makeTempDir('mockpoint-mockoon-export-');
    const exported = await runCli({
      cwd: dir,
      args: ['export', '--to', 'mockoon', '--url', daemon.url, '--names', 'api', '--out', 'environment.json'],
    });
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr.trim().split('\n')).toEqual([
      'mockpoint export: left out route empty: no Content-Type: Mockoon sends text/html; charset=utf-8 with an empty body',
      'mockpoint export: left out route csv: Content-Type text/csv: Mockoon sends it as type; charset=utf-8',
      'mockpoint export: left out route broken: a fault answer has no Mockoon form',
      'mockpoint export: 11 Mockoon route(s) from 1 endpoint(s)',
    ]);
    const strict = await runCli({
      cwd: dir,
      args: ['export', '--to', 'mockoon', '--url', daemon.url, '--names', 'api', '--strict', '--out', 'strict.json'],
    });
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain('mockpoint export: left out route broken:');

    const peer = await startMockoon(join(dir, 'environment.json'));
    try {
      const requests: Sent[] = [
        { path: '/users/me' },
        { path: '/users/7' },
        { method: 'POST', path: '/orders', headers: { 'content-type': 'text/plain' }, body: 'book' },
        { path: '/search?q=a', headers: { 'x-key': 'k' } },
        { path: '/search?q=b', headers: { 'x-key': 'k' } },
        { path: '/search?q=a' },
        { method: 'DELETE', path: '/slow' },
        { path: '/none' },
        { path: '/empty' },
        { path: '/csv' },
        { path: '/' },
        { method: 'POST', path: '/', headers: { 'content-type': 'application/json' }, body: '{"record":2}' },
      ];
      for (const sent of requests) {
        const theirs = await send(peer.url, sent);
        const ours = await send(`${daemon.url}/endpoint/api`, sent);
        const what = `${sent.method ?? 'GET'} ${sent.path}`;
        // An empty 200 without a Content-Type, a type without charset=utf-8: Mockoon writes its own (listed above).
        const type = TYPES[sent.path];
        expect({ status: ours.status, type: ours.type }, what).toEqual({
          status: theirs.status,
          type: type === undefined ? theirs.type : type.ours,
        });
        if (type !== undefined) expect(theirs.type).toBe(type.theirs);
        expect(ours.bytes.equals(theirs.bytes), `${what}: ${ours.bytes} vs ${theirs.bytes}`).toBe(true);
      }
      // The route mockpoint has no match for: a 404 from both (each its own page).
      const miss = { method: 'POST', path: '/orders', headers: { 'content-type': 'text/plain' }, body: 'pen' };
      expect((await send(peer.url, miss)).status).toBe(404);
      expect((await send(`${daemon.url}/endpoint/api`, miss)).status).toBe(404);
      // The collection as a data bucket behind a CRUD route: the same items, each server writing its own JSON.
      for (const path of ['/people', '/people/2']) {
        const [theirs, ours] = [await send(peer.url, { path }), await send(`${daemon.url}/endpoint/api`, { path })];
        expect(ours.status, path).toBe(theirs.status);
        expect(JSON.parse(ours.bytes.toString()), path).toEqual(JSON.parse(theirs.bytes.toString()));
      }
    } finally {
      await peer.stop();
    }
    const environment = JSON.parse(await readFile(join(dir, 'environment.json'), 'utf8'));
    expect(environment.data).toEqual([expect.objectContaining({ name: 'people' })]);
    expect(environment.endpointPrefix).toBe('');
  });
});

describe('mockpoint export --to mockoon: binary bodies', () => {
  it('writes each binary body as a file beside the environment; the real Mockoon CLI serves the same bytes', async () => {
    const daemon = await startDaemon();
    // Every byte value, a PNG header (not UTF-8), and one with its own type, one matched on a query.
    const all = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const routes = [
      { id: 'bytes', match: { method: 'GET', path: '/bytes' }, answer: { bodyBase64: all.toString('base64') } },
      {
        id: 'logo',
        match: { method: 'GET', path: '/logo.png', query: { size: 'small' } },
        answer: { statusCode: 203, headers: { 'Content-Type': 'image/png' }, bodyBase64: png.toString('base64') },
      },
    ];
    const put = await requestJson(`${daemon.url}/api/endpoints/bin/routes`, { method: 'PUT', body: { routes } });
    expect(put.status).toBe(200);
    const dir = await makeTempDir('mockpoint-mockoon-export-bin-');
    const exported = await runCli({
      cwd: dir,
      args: ['export', '--to', 'mockoon', '--url', daemon.url, '--names', 'bin', '--out', 'env.json'],
    });
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr.trim()).toBe('mockpoint export: 2 Mockoon route(s) from 1 endpoint(s)');
    expect(await readFile(join(dir, 'env.files', '1-bytes.bin'))).toEqual(all);
    // To standard output there is no folder to write to: the route is left out, said so.
    const printed = await runCli({
      cwd: dir,
      args: ['export', '--to', 'mockoon', '--url', daemon.url, '--names', 'bin'],
    });
    expect(printed.stderr).toContain('mockpoint export: left out route bytes: a binary body (bodyBase64)');
    const peer = await startMockoon(join(dir, 'env.json'));
    try {
      for (const sent of [{ path: '/bytes' }, { path: '/logo.png?size=small' }, { path: '/logo.png?size=big' }]) {
        const theirs = await send(peer.url, sent);
        const ours = await send(`${daemon.url}/endpoint/bin`, sent);
        // The query that matches nothing: a 404 from both, each its own page.
        expect(ours.status, sent.path).toBe(theirs.status);
        if (ours.status === 404) continue;
        expect(ours.type, sent.path).toBe(theirs.type);
        expect(theirs.bytes.equals(ours.bytes), sent.path).toBe(true);
      }
    } finally {
      await peer.stop();
    }
  }, 120_000);
});
