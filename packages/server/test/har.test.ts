// HAR both ways against real processes: a HAR that Chromium recorded of a real server (the
// peer) is imported (`mockpoint import --from har`), served by the daemon, and answers the same
// requests with the same statuses, types and bytes as the peer did; the daemon's journal exported
// as HAR (`mockpoint export --har`) fits the published HAR 1.2 schema and imports again with every
// request body exact.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as harValidator from 'har-validator';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { killAll, makeTempDir, removeTempDirs, requestJson, runCli, startDaemon } from './helpers/daemon.js';
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

  it('the exported journal holds the answers and times: Chromium replays it with the daemon stopped, and it imports back byte for byte', async () => {
    const dir = await makeTempDir('mockpoint-har-');
    const logo = Buffer.from(Array.from({ length: 256 }, (_, i) => i)); // every byte value: no text
    const blob = Buffer.from([0x00, 0xff, 0x80, 0x7f, 0xc3, 0x28]);
    const mock = {
      version: 1,
      endpoints: [
        {
          name: 'site',
          routes: [
            {
              match: { method: 'GET', path: '/' },
              answer: {
                headers: { 'content-type': 'text/html; charset=utf-8' },
                body: '<!doctype html><title>site</title>',
              },
            },
            {
              match: { method: 'GET', path: '/api/users/1' },
              answer: { headers: { 'x-request-id': 'r-1' }, data: { id: 1, name: 'Zoë', tags: ['a', 'b'] } },
            },
            {
              match: { method: 'GET', path: '/api/logo.bin' },
              answer: { headers: { 'content-type': 'image/png' }, bodyBase64: logo.toString('base64') },
            },
            { match: { method: 'GET', path: '/api/slow' }, answer: { body: 'late', delay: 150 } },
          ],
        },
      ],
    };
    writeFileSync(join(dir, 'site.json'), JSON.stringify(mock));
    const daemon = await startDaemon({ cwd: dir, args: ['--memory', '--config', 'site.json'] });
    // Two binary uploads to one URL, answered differently: a replay must tell them apart by their bytes.
    const queued = await fetch(`${daemon.url}/api/endpoints/site/queue`, {
      method: 'POST',
      body: JSON.stringify({
        answers: [
          { match: { method: 'POST', path: '/api/upload' }, statusCode: 201, data: { n: 1 } },
          {
            match: { method: 'POST', path: '/api/upload' },
            statusCode: 202,
            headers: { 'content-type': 'application/octet-stream' },
            bodyBase64: blob.toString('base64'),
          },
        ],
      }),
    });
    expect(queued.status).toBeLessThan(300);

    const site = `${daemon.url}/endpoint/site`;
    const uploads = [
      [1, 2, 3, 0xfe],
      [0xff, 0xd8, 0xff, 0x00],
    ];
    /** What the page sees: the uploads in the order given, then the GETs; each as status, type and bytes. */
    const visit = async (order: number[]) => {
      const context = await browser.newContext();
      return { context, page: await context.newPage(), order };
    };
    const run = async ({ page, order }: Awaited<ReturnType<typeof visit>>) => {
      await page.goto(`${site}/`);
      return page.evaluate(
        async ({ uploads, order }) => {
          const seen: Record<string, { status: number; type: string | null; bytes: number[] }> = {};
          const keep = async (key: string, response: Response) => {
            seen[key] = {
              status: response.status,
              type: response.headers.get('content-type'),
              bytes: [...new Uint8Array(await response.arrayBuffer())],
            };
          };
          for (const i of order) {
            const body = new Uint8Array(uploads[i] as number[]);
            await keep(`upload${i}`, await fetch('api/upload', { method: 'POST', body }));
          }
          for (const path of ['api/users/1', 'api/logo.bin', 'api/slow']) await keep(path, await fetch(path));
          return seen;
        },
        { uploads, order },
      );
    };
    const browser = await useBrowser();
    const live = await visit([0, 1]);
    const seenLive = await run(live);
    await live.context.close();
    expect(seenLive['upload0']?.status).toBe(201);
    expect(seenLive['upload1']?.status).toBe(202);
    expect(Buffer.from(seenLive['upload1']?.bytes ?? [])).toEqual(blob);
    expect(Buffer.from(seenLive['api/logo.bin']?.bytes ?? [])).toEqual(logo);

    const exported = await runCli({ cwd: dir, args: ['export', '--har', '--out', 'site.har', '--url', daemon.url] });
    expect(exported.code).toBe(0);
    const har = JSON.parse(readFileSync(join(dir, 'site.har'), 'utf8')) as {
      log: {
        entries: {
          request: { url: string };
          response: { status: number; content: { size: number; text?: string; encoding?: string } };
          time: number;
          timings: { wait: number; receive: number };
        }[];
      };
    };
    await expect(harValidator.har(har)).resolves.toBe(har);
    const slow = har.log.entries.find((entry) => entry.request.url.endsWith('/api/slow'));
    // The delay is waited before the first byte: the measured wait holds it, to within the 1 ms
    // of Node's timers, which run on the event loop's clock, read when the loop last turned (a
    // CI run measured 149.949 ms for the 150 ms delay).
    expect(slow?.timings.wait).toBeGreaterThanOrEqual(149);
    expect(slow?.time).toBeGreaterThanOrEqual(slow?.timings.wait ?? 0);
    const logoEntry = har.log.entries.find((entry) => entry.request.url.endsWith('/api/logo.bin'));
    expect(logoEntry?.response.content).toMatchObject({ size: 256, encoding: 'base64', text: logo.toString('base64') });
    await daemon.stop();

    // The daemon is gone: Chromium answers every request from the HAR alone (anything missing aborts).
    const replay = await visit([1, 0]);
    await replay.context.routeFromHAR(join(dir, 'site.har'), { notFound: 'abort' });
    const seenReplayed = await run(replay);
    await replay.context.close();
    expect(seenReplayed).toEqual(seenLive);

    // And imported back, a new daemon answers the same bytes, the binary uploads told apart by their bytes.
    const imported = await runCli({ cwd: dir, args: ['import', 'site.har', '--name', 'back', '--out', 'back.json'] });
    expect(imported.code).toBe(0);
    expect(imported.stderr).not.toContain('left out');
    const again = await startDaemon({ cwd: dir, args: ['--memory', '--config', 'back.json'] });
    for (const i of [1, 0]) {
      const body = new Uint8Array(uploads[i] as number[]);
      const response = await fetch(`${again.url}/endpoint/back/api/upload`, { method: 'POST', body });
      expect({
        status: response.status,
        type: response.headers.get('content-type'),
        bytes: [...new Uint8Array(await response.arrayBuffer())],
      }).toEqual(seenLive[`upload${i}`]);
    }
    for (const path of ['api/users/1', 'api/logo.bin', 'api/slow']) {
      const response = await fetch(`${again.url}/endpoint/back/${path}`);
      expect({
        status: response.status,
        type: response.headers.get('content-type'),
        bytes: [...new Uint8Array(await response.arrayBuffer())],
      }).toEqual(seenLive[path]);
    }
    // Two daemons, three CLI runs and two browser contexts: ~25 s on a loaded 2-core machine.
  }, 90_000);

  it('an import leaves out, by name, an entry whose body is over the bound (120 MB, undecoded) or whose header has CR/LF, and never writes a secret', async () => {
    const dir = await makeTempDir('mockpoint-har-');
    const entry = (url: string, headers: { name: string; value: string }[], content: Record<string, unknown>) => ({
      startedDateTime: '2026-11-24T10:00:00.000Z',
      time: 1,
      request: {
        method: 'GET',
        url,
        httpVersion: 'HTTP/1.1',
        headers: [],
        queryString: [],
        cookies: [],
        headersSize: -1,
        bodySize: 0,
      },
      response: {
        status: 200,
        statusText: 'OK',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers,
        redirectURL: '',
        headersSize: -1,
        bodySize: -1,
        content,
      },
      cache: {},
      timings: { send: 0, wait: 0, receive: 0 },
    });
    const secrets = [
      { name: 'Proxy-Authorization', value: 'Basic c2VjcmV0LTE=' },
      { name: 'X-Auth-Token', value: 'secret-2' },
      { name: 'X-Session', value: 'secret-3' },
    ];
    const entries = [
      entry('https://api.example.com/ok', [{ name: 'content-type', value: 'text/plain' }, ...secrets], {
        size: 2,
        mimeType: 'text/plain',
        text: 'ok',
      }),
      entry('https://api.example.com/crlf', [{ name: 'x-evil', value: 'a\r\nset-cookie: pwn=1' }], {
        size: 2,
        mimeType: 'text/plain',
        text: 'no',
      }),
      // 120 MB of base64 (90 MB of bytes): before, the import died on it (a RangeError at 400 MB of RSS).
      entry('https://api.example.com/big', [], {
        size: 90_000_000,
        mimeType: 'application/octet-stream',
        encoding: 'base64',
        text: 'QUJD'.repeat(30_000_000),
      }),
    ];
    writeFileSync(
      join(dir, 'mixed.har'),
      JSON.stringify({ log: { version: '1.2', creator: { name: 't', version: '1' }, entries } }),
    );
    const imported = await runCli({
      cwd: dir,
      args: ['import', 'mixed.har', '--name', 'api', '--redact', 'x-session', '--out', 'api.json'],
      // Reading 120 MB on a loaded 2-core machine: the bound here is the machine's, not the behaviour's.
      deadlineMs: 120_000,
    });
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain('1 of 3 entries as 1 route(s) of endpoint api');
    expect(imported.stderr).toMatch(
      /left out GET https:\/\/api\.example\.com\/crlf: its answer's header "x-evil": has U\+000D/,
    );
    expect(imported.stderr).toContain(
      'left out GET https://api.example.com/big: its body is about 90000000 bytes, over the 5242880-byte body limit',
    );
    const file = readFileSync(join(dir, 'api.json'), 'utf8');
    expect(file).not.toMatch(/secret|c2VjcmV0/);
    const daemon = await startDaemon({ cwd: dir, args: ['--memory', '--config', 'api.json'] });
    const ok = await fetch(`${daemon.url}/endpoint/api/ok`);
    expect(await ok.text()).toBe('ok');
    expect(ok.headers.get('x-auth-token')).toBeNull();
  }, 180_000);

  it('a secret header of the HAR is left out of what the daemon serves, not sent as a literal <redacted>', async () => {
    const dir = await makeTempDir('mockpoint-har-');
    const har = {
      log: {
        version: '1.2',
        creator: { name: 't', version: '1' },
        entries: [
          {
            startedDateTime: '2026-11-25T08:00:00.000Z',
            time: 1,
            request: { method: 'GET', url: 'https://api.example.com/login', httpVersion: 'HTTP/1.1', headers: [] },
            response: {
              status: 200,
              statusText: 'OK',
              httpVersion: 'HTTP/1.1',
              headers: [
                { name: 'Content-Type', value: 'text/plain' },
                { name: 'Set-Cookie', value: 'sid=live-1; HttpOnly' },
                { name: 'Set-Cookie', value: 'csrf=live-2' },
                { name: 'Authorization', value: 'Bearer live-3' },
                { name: 'X-Request-Id', value: 'r-9' },
              ],
              content: { size: 2, mimeType: 'text/plain', text: 'in' },
            },
            cache: {},
            timings: { send: 0, wait: 0, receive: 0 },
          },
        ],
      },
    };
    writeFileSync(join(dir, 'login.har'), JSON.stringify(har));
    const imported = await runCli({ cwd: dir, args: ['import', 'login.har', '--name', 'api', '--out', 'api.json'] });
    expect(imported.code, imported.stderr).toBe(0);
    const daemon = await startDaemon({ cwd: dir, args: ['--memory', '--config', 'api.json'] });
    const response = await fetch(`${daemon.url}/endpoint/api/login`);
    expect(await response.text()).toBe('in');
    const sent = [...response.headers];
    expect(response.headers.get('x-request-id')).toBe('r-9');
    // Before: `set-cookie: <redacted>` twice and `authorization: <redacted>`, which a browser keeps as a cookie.
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(response.headers.get('authorization')).toBeNull();
    expect(sent.filter(([, value]) => value.includes('redacted'))).toEqual([]);
  }, 60_000);
  it('a bearer token sent in a header never reaches the mock file: not under another header name, not in the query', async () => {
    const dir = await makeTempDir('mockpoint-har-');
    const entry = {
      startedDateTime: '2026-11-25T08:00:00.000Z',
      time: 1,
      request: {
        method: 'GET',
        url: 'https://api.example.com/me?auth=tok-secret-1&x=1',
        httpVersion: 'HTTP/1.1',
        headers: [{ name: 'Authorization', value: 'Bearer tok-secret-1' }],
      },
      response: {
        status: 200,
        statusText: 'OK',
        httpVersion: 'HTTP/1.1',
        headers: [
          { name: 'Content-Type', value: 'text/plain' },
          { name: 'X-Upstream-Auth', value: 'Bearer tok-secret-2' },
          { name: 'X-Echo', value: 'seen tok-secret-1' },
          { name: 'X-Request-Id', value: 'r-1' },
        ],
        content: { size: 2, mimeType: 'text/plain', text: 'me' },
      },
      cache: {},
      timings: { send: 0, wait: 0, receive: 0 },
    };
    writeFileSync(
      join(dir, 'me.har'),
      JSON.stringify({ log: { version: '1.2', creator: { name: 't', version: '1' }, entries: [entry] } }),
    );
    const imported = await runCli({ cwd: dir, args: ['import', 'me.har', '--name', 'api', '--out', 'api.json'] });
    expect(imported.code, imported.stderr).toBe(0);
    // Before: "x-upstream-auth": "Bearer tok-secret-2", "x-echo" and the query's auth=tok-secret-1 were written.
    expect(readFileSync(join(dir, 'api.json'), 'utf8')).not.toContain('tok-secret');
    expect(imported.stderr).toContain('"X-Upstream-Auth": its value is a credential (Bearer, Basic, …): never written');
    const daemon = await startDaemon({ cwd: dir, args: ['--memory', '--config', 'api.json'] });
    // The token in the query is matched by presence: a replay with another token is answered.
    const response = await fetch(`${daemon.url}/endpoint/api/me?auth=tok-other-9&x=1`);
    expect([response.status, await response.text()]).toEqual([200, 'me']);
    expect(response.headers.get('x-request-id')).toBe('r-1');
    expect(response.headers.get('x-upstream-auth')).toBeNull();
    expect(response.headers.get('x-echo')).toBeNull();
  }, 60_000);
  it('a binary POST with a bearer token, exported as HAR and imported again, answers its 201; no token is written', async () => {
    const dir = await makeTempDir('mockpoint-har-');
    const daemon = await startDaemon({ cwd: dir, args: ['--memory'] });
    const routes = [
      { id: 'upload', match: { method: 'POST', path: '/upload' }, answer: { statusCode: 201, body: 'stored' } },
    ];
    const put = await requestJson(`${daemon.url}/api/endpoints/files/routes`, { method: 'PUT', body: { routes } });
    expect(put.status).toBe(200);
    // Bytes that are not UTF-8: the journal keeps them as base64, the HAR marks them so.
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0xfe, 0x80, 0x0d, 0x0a]);
    const upload = (base: string, token: string, body: Buffer = bytes) =>
      fetch(`${base}/endpoint/files/upload?access_token=${token}&kind=png`, {
        method: 'POST',
        body: new Uint8Array(body),
        headers: {
          authorization: `Bearer ${token}`,
          cookie: `sid=${token}`,
          'x-api-key': token,
          'content-type': 'application/octet-stream',
        },
      });
    expect((await upload(daemon.url, 'tok-live-1')).status).toBe(201);
    const exported = await runCli({ cwd: dir, args: ['export', '--har', '--out', 'journal.har', '--url', daemon.url] });
    expect(exported.code, exported.stderr).toBe(0);
    expect(readFileSync(join(dir, 'journal.har'), 'utf8')).toContain('tok-live-1');
    await killAll();

    const imported = await runCli({
      cwd: dir,
      args: ['import', 'journal.har', '--name', 'files', '--out', 'replay.json'],
    });
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toMatch(/1 of 1 entries as 1 route/);
    // Credentials are never written: not the header, not the query's access_token (matched by presence).
    expect(readFileSync(join(dir, 'replay.json'), 'utf8')).not.toContain('tok-');
    const replay = await startDaemon({ cwd: dir, args: ['--memory', '--config', 'replay.json'] });
    const again = await upload(replay.url, 'tok-other-2');
    expect([again.status, await again.text()]).toEqual([201, 'stored']);
    // Other bytes, or no token at all, are another request: no route answers them.
    const other = await upload(replay.url, 'tok-other-2', Buffer.from([0x89, 0x50, 0xff]));
    expect(other.status).toBe(404);
    const untokened = await fetch(`${replay.url}/endpoint/files/upload?kind=png`, {
      method: 'POST',
      body: new Uint8Array(bytes),
    });
    expect(untokened.status).toBe(404);
  }, 60_000);
});
