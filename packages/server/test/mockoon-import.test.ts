// A Mockoon environment as Mockoon itself runs it: the Mockoon CLI 9.9.0 (a real process) serves
// test/fixtures/mockoon/environment.json; `mockpoint import` (the real CLI, format told from the file)
// turns the same file into a mock file a real daemon serves; the same requests go to both, and the
// status, the headers that matter and the body bytes must be the same. Every process on 127.0.0.1.
import { cp, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { makeTempDir, runCli, startDaemon, useDaemons } from './helpers/daemon.js';
import { startMockoon } from './helpers/mockoon.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/mockoon/', import.meta.url));

useDaemons();

interface Sent {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

interface Got {
  status: number;
  headers: Record<string, string | null>;
  bytes: Buffer;
}

/**
 * The headers compared: what the environment sets, and what Mockoon adds on its own (Content-Type, file
 * names). CORS is each server's own (cors: true in Mockoon; always on in mockpoint): checked apart.
 */
const HEADERS = ['content-type', 'x-env', 'x-echo', 'location', 'content-disposition'];

async function send(base: string, sent: Sent): Promise<Got> {
  const response = await fetch(base + sent.path, {
    method: sent.method,
    headers: sent.headers,
    ...(sent.body === undefined ? {} : { body: sent.body }),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  const headers = Object.fromEntries(HEADERS.map((name) => [name, response.headers.get(name)]));
  return { status: response.status, headers, bytes };
}

const JSON_TYPE = { 'content-type': 'application/json' };

/** The requests, in order (the sequential route counts them). */
const REQUESTS: Sent[] = [
  { method: 'GET', path: '/api/users/1' },
  { method: 'GET', path: '/api/users/5?verbose=true' },
  { method: 'GET', path: '/api/users/6', headers: { 'X-Mode': 'full', 'X-Agent': 'probe 1.0' } },
  { method: 'GET', path: '/api/users/6', headers: { 'X-Mode': 'partial' } },
  { method: 'GET', path: '/api/users/7' },
  { method: 'DELETE', path: '/api/users/3' },
  { method: 'POST', path: '/api/orders', headers: JSON_TYPE, body: '{"order":{"type":"express","id":42}}' },
  {
    method: 'POST',
    path: '/api/orders',
    headers: { 'content-type': 'text/plain' },
    body: '{"order":{"type":"express","id":42}}',
  },
  { method: 'POST', path: '/api/orders', headers: JSON_TYPE, body: '{"order":{"count":3}}' },
  { method: 'POST', path: '/api/orders', headers: JSON_TYPE, body: '{"order":{"count":"3"}}' },
  { method: 'POST', path: '/api/orders', headers: JSON_TYPE, body: '{"order":{"count":4}}' },
  { method: 'POST', path: '/api/orders', headers: { 'content-type': 'text/plain' }, body: 'abbbc' },
  { method: 'POST', path: '/API/Orders', headers: { 'content-type': 'text/plain' }, body: 'abc' },
  { method: 'GET', path: '/api/sequence' },
  { method: 'GET', path: '/api/sequence' },
  { method: 'GET', path: '/api/sequence' },
  { method: 'GET', path: '/api/sequence' },
  { method: 'GET', path: '/api/files/logo' },
  { method: 'GET', path: '/api/files/data/9' },
  { method: 'GET', path: '/api/people/2' },
  { method: 'GET', path: '/api/people-snapshot' },
  { method: 'GET', path: '/api/health' },
  { method: 'PUT', path: '/api/health', headers: JSON_TYPE, body: '{}' },
  { method: 'GET', path: '/api/fallback/a' },
  { method: 'GET', path: '/api/fallback/b' },
  { method: 'GET', path: '/api/xml' },
  // A response chosen by a params rule (410): the route's path ignores case and a trailing /, the value not.
  { method: 'GET', path: '/api/items/9' },
  { method: 'GET', path: '/API/Items/9' },
  { method: 'GET', path: '/Api/items/9/' },
  { method: 'GET', path: '/api/items/8' },
];

describe('Mockoon environments, side by side with the Mockoon CLI 9.9.0', () => {
  it('imported by mockpoint import (told from the file), a daemon answers what Mockoon answers: status, headers, bytes', async () => {
    const dir = await makeTempDir('mockpoint-mockoon-');
    await cp(FIXTURE, dir, { recursive: true });
    const imported = await runCli({
      cwd: dir,
      args: ['import', 'environment.json', '--name', 'shop', '--out', 'mock.json'],
    });
    expect(imported.code, imported.stderr).toBe(0);
    // What could not be carried over, by name and reason.
    expect(imported.stderr.split('\n').filter((line) => line.includes('left out'))).toEqual([
      expect.stringMatching(/^mockpoint import: left out GET \/people-snapshot response 1 data bucket: /),
      'mockpoint import: left out GET /helpers response 1 template helper faker: no equivalent here: the body is served as written, not rendered',
      'mockpoint import: left out GET /helpers response 1 template helper repeat: no equivalent here: the body is served as written, not rendered',
      expect.stringMatching(
        /^mockpoint import: left out GET \/inverted response 1 rule 1 \(cookie "role"\): an inverted rule/,
      ),
    ]);
    expect(imported.stderr).toContain('route(s) and 1 collection(s) (People) as endpoint shop');
    const json = await runCli({ cwd: dir, args: ['import', 'environment.json', '--name', 'shop', '--json'] });
    expect(JSON.parse(json.stdout)).toMatchObject({ kind: 'mockoon', name: 'shop' });
    expect(JSON.parse(json.stdout).leftOut).toHaveLength(4);
    const strict = await runCli({ cwd: dir, args: ['import', 'environment.json', '--name', 'shop', '--strict'] });
    expect(strict.code).toBe(1);

    const daemon = await startDaemon({ cwd: dir, args: ['--config', 'mock.json'] });
    const peer = await startMockoon(join(dir, 'environment.json'));
    try {
      for (const sent of REQUESTS) {
        const theirs = await send(peer.url, sent);
        const ours = await send(`${daemon.url}/endpoint/shop`, sent);
        const what = `${sent.method} ${sent.path} ${sent.body ?? ''}`;
        expect({ status: ours.status, headers: ours.headers }, what).toEqual({
          status: theirs.status,
          headers: theirs.headers,
        });
        expect(ours.bytes.equals(theirs.bytes), `${what}: ${ours.bytes} vs ${theirs.bytes}`).toBe(true);
      }
      // A preflight (the environment has cors: true): both let any origin in, each with its own answer.
      const preflight = {
        method: 'OPTIONS',
        path: '/api/users/1',
        headers: { origin: 'http://app.test', 'access-control-request-method': 'PUT' },
      };
      for (const base of [peer.url, `${daemon.url}/endpoint/shop`]) {
        const answer = await fetch(base + preflight.path, { method: 'OPTIONS', headers: preflight.headers });
        expect(answer.ok, base).toBe(true);
        expect(answer.headers.get('access-control-allow-origin'), base).toBe('*');
        expect(answer.headers.get('access-control-allow-methods'), base).toContain('PUT');
      }
      // The CRUD route over the data bucket: the same items; mockpoint keeps the bucket's text (1.50), Mockoon re-writes it.
      const theirs = await send(peer.url, { method: 'GET', path: '/api/people' });
      const ours = await send(`${daemon.url}/endpoint/shop`, { method: 'GET', path: '/api/people' });
      expect(ours.status).toBe(theirs.status);
      expect(JSON.parse(ours.bytes.toString())).toEqual(JSON.parse(theirs.bytes.toString()));
      expect(ours.bytes.toString()).toBe('[{"id":1,"name":"Ada","balance":1.50},{"id":2,"name":"Grace"}]');
      // A write through it, then the list, on both.
      const post = { method: 'POST', path: '/api/people', headers: JSON_TYPE, body: '{"name":"Linus"}' };
      const [theirPost, ourPost] = [await send(peer.url, post), await send(`${daemon.url}/endpoint/shop`, post)];
      expect(ourPost.status).toBe(theirPost.status);
      expect(JSON.parse(ourPost.bytes.toString())).toEqual(JSON.parse(theirPost.bytes.toString()));
    } finally {
      await peer.stop();
    }
    // The file is read as Mockoon reads it: the environment is unchanged by both.
    expect(JSON.parse(await readFile(join(dir, 'environment.json'), 'utf8')).lastMigration).toBe(33);
  });
});
