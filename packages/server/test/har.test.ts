// HAR both ways against real processes: a HAR that Chromium recorded of a real server (the
// peer) is imported (`mockpoint import --from har`), served by the daemon, and answers the same
// requests with the same statuses, types and bytes as the peer did; the daemon's journal exported
// as HAR (`mockpoint export --har`) fits the published HAR 1.2 schema and imports again with every
// request body exact.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as harValidator from 'har-validator';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { killAll, makeTempDir, removeTempDirs, runCli, startDaemon } from './helpers/daemon.js';
import { LOGO, type PeerApi, startPeerApi, USER } from './helpers/peer-api.js';
import { closeBrowser, useBrowser } from './web-support.js';

afterEach(async () => {
  await killAll();
});
afterAll(async () => {
  await closeBrowser();
  await removeTempDirs();
});

/** The peer: a small API as a real server, with a job whose state moves on each read. */
function startPeer(): Promise<PeerApi> {
  return startPeerApi((request, response, nextJobState) => {
    if (request.url === '/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end('<!doctype html><title>peer</title>');
    } else if (request.url === '/api/users/1') {
      // Compressed on the wire: the HAR holds the decoded text, the import must not claim gzip again.
      response.writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'x-request-id': 'r-1',
      });
      response.end(gzipSync(USER));
    } else if (request.url === '/api/jobs/7') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(`{"state":"${nextJobState()}"}`);
    } else {
      response.writeHead(404).end();
    }
  });
}

interface Seen {
  status: number;
  type: string | null;
  location: string | null;
  bytes: string;
}

/** What the client under test does, against any base URL: every answer as status, type and bytes (base64). */
async function session(base: string): Promise<Seen[]> {
  const seen: Seen[] = [];
  const calls: [string, RequestInit?][] = [
    ['/api/users/1'],
    ['/api/logo.bin'],
    ['/api/users', { method: 'POST', body: '{"name":"Ada"}', headers: { 'content-type': 'application/json' } }],
    ['/api/jobs/7'],
    ['/api/jobs/7'],
    ['/api/jobs/7'],
    ['/api/jobs/7'],
  ];
  for (const [path, init] of calls) {
    const response = await fetch(`${base}${path}`, init);
    seen.push({
      status: response.status,
      type: response.headers.get('content-type'),
      location: response.headers.get('location'),
      bytes: Buffer.from(await response.arrayBuffer()).toString('base64'),
    });
  }
  return seen;
}

describe('HAR import and export', () => {
  it('a HAR Chromium recorded of a real server, imported, answers the same requests as that server did', async () => {
    const peer = await startPeer();
    const dir = await makeTempDir('mockpoint-har-');
    const harPath = join(dir, 'recorded.har');
    try {
      const browser = await useBrowser();
      const context = await browser.newContext({ recordHar: { path: harPath, content: 'embed' } });
      const page = await context.newPage();
      await page.goto(`${peer.url}/`);
      // The page's own requests, as an app in the browser makes them.
      await page.evaluate(async () => {
        await (await fetch('/api/users/1')).text();
        await (await fetch('/api/logo.bin')).arrayBuffer();
        await (
          await fetch('/api/users', {
            method: 'POST',
            body: '{"name":"Ada"}',
            headers: { 'content-type': 'application/json' },
          })
        ).text();
        for (let i = 0; i < 4; i++) await (await fetch('/api/jobs/7')).text();
      });
      await context.close(); // writes the HAR
      peer.reset();

      const host = new URL(peer.url).host;
      const imported = await runCli({
        cwd: dir,
        args: ['import', harPath, '--name', 'api', '--host', host, '--out', 'mock.json'],
      });
      expect(imported.stderr).toContain(`of endpoint api (from ${host})`);
      expect(imported.code).toBe(0);
      const daemon = await startDaemon({ cwd: dir, args: ['--memory', '--config', 'mock.json'] });

      const expected = await session(peer.url);
      const answered = await session(`${daemon.url}/endpoint/api`);
      expect(answered).toEqual(expected);
      // And what that means: the exact bytes, and the job's states in the order recorded, the last staying.
      expect(Buffer.from(answered[0]?.bytes ?? '', 'base64').toString('utf8')).toBe(USER);
      expect(Buffer.from(answered[1]?.bytes ?? '', 'base64')).toEqual(LOGO);
      expect(answered.slice(3).map((seen) => Buffer.from(seen.bytes, 'base64').toString())).toEqual([
        '{"state":"queued"}',
        '{"state":"running"}',
        '{"state":"done"}',
        '{"state":"done"}',
      ]);
      // A reset starts the recorded order again.
      await fetch(`${daemon.url}/api/endpoints/api/reset`, { method: 'POST' });
      expect(await (await fetch(`${daemon.url}/endpoint/api/api/jobs/7`)).text()).toBe('{"state":"queued"}');
    } finally {
      await new Promise((resolve) => peer.server.close(resolve));
    }
  });

  it('the journal exported as HAR fits the HAR 1.2 schema and imports again with every request body exact', async () => {
    const dir = await makeTempDir('mockpoint-har-');
    const daemon = await startDaemon({ cwd: dir, args: ['--memory'] });
    const bodies = [
      '{"big":12345678901234567890,"z":1,"a":2}',
      'plain text with ünïcödé and \u{1F600}',
      '  {"spaced": true}  ',
    ];
    for (const body of bodies) await fetch(`${daemon.url}/endpoint/hook/events`, { method: 'POST', body });
    await fetch(`${daemon.url}/endpoint/other?x=1&x=2`);

    const cli = (...args: string[]) => runCli({ cwd: dir, args: [...args, '--url', daemon.url] });
    expect((await cli('export', '--har', '--out', 'journal.har')).code).toBe(0);
    const har = JSON.parse(readFileSync(join(dir, 'journal.har'), 'utf8')) as {
      log: { entries: { request: { method: string; postData?: { text: string } }; _mockpoint: { name: string } }[] };
    };
    await expect(harValidator.har(har)).resolves.toBe(har);
    expect(har.log.entries.map((entry) => entry._mockpoint.name)).toEqual(['hook', 'hook', 'hook', 'other']);
    expect(har.log.entries.slice(0, 3).map((entry) => entry.request.postData?.text)).toEqual(bodies);

    const one = JSON.parse((await cli('export', '--har', '--names', 'other')).stdout) as typeof har;
    expect(one.log.entries.map((entry) => entry._mockpoint.name)).toEqual(['other']);
    const both = JSON.parse((await cli('export', '--har', '--names', 'other,hook')).stdout) as typeof har;
    expect(both.log.entries).toHaveLength(4);
    expect((await cli('export', '--har', '--format', 'yaml')).code).toBe(2);

    const again = await runCli({
      cwd: dir,
      args: ['import', 'journal.har', '--name', 'replay', '--out', 'replay.json'],
    });
    expect(again.code).toBe(0);
    const file = JSON.parse(readFileSync(join(dir, 'replay.json'), 'utf8')) as {
      endpoints: { routes: { match: { method: string; path: string; body?: string; query?: unknown } }[] }[];
    };
    const matches = file.endpoints[0]?.routes.map((route) => route.match);
    expect(matches?.filter((match) => match.method === 'POST').map((match) => [match.path, match.body])).toEqual(
      bodies.map((body) => ['/events', body]),
    );
    expect(matches?.find((match) => match.method === 'GET')).toMatchObject({ path: '/', query: { x: ['1', '2'] } });
  });
});
