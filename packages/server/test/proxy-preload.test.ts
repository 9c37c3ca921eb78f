// The preload `node --import @mockpoint/server/proxy-env app.js` against the built daemon: an
// unchanged application, run as a child process with HTTPS_PROXY/HTTP_PROXY and
// NODE_EXTRA_CA_CERTS, reaches a mapped host (a name no DNS resolves) through the daemon with
// Node's fetch, undici's request, https.get, http.get and http.request with headers given as an
// array; without the preload Node 20 ignores the variables and every call fails (ENOTFOUND).
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { makeTempDir, ON_BUN, requestJson, startDaemon, useDaemons } from './helpers/daemon.js';

const run = promisify(execFile);
const PRELOAD = fileURLToPath(new URL('../dist/proxy-env.js', import.meta.url));
const UNDICI = fileURLToPath(import.meta.resolve('undici'));

useDaemons();

/** An application that knows nothing of mockpoint: five calls, each printed as `name: answer` or `name: error`. */
const APP = `
import http from 'node:http';
import https from 'node:https';
import { createRequire } from 'node:module';
const { request } = createRequire(import.meta.url)(process.env.UNDICI_PATH);
const body = (res) => new Promise((resolve, reject) => {
  let text = ''; res.setEncoding('utf8').on('data', (c) => (text += c)).on('end', () => resolve(text)).on('error', reject);
});
const get = (mod, url, options = {}) => new Promise((resolve, reject) => {
  mod.get(url, options, (res) => body(res).then(resolve, reject)).on('error', reject);
});
const rawHeaders = () => new Promise((resolve, reject) => {
  const req = http.request('http://api.mockpoint.test/zen?via=raw', { headers: ['host', 'api.mockpoint.test', 'x-raw', 'yes'] }, (res) => body(res).then(resolve, reject));
  req.on('error', reject).end();
});
const calls = {
  fetchHttps: () => fetch('https://api.mockpoint.test/zen?via=fetch').then((r) => r.text()),
  fetchHttp: () => fetch('http://api.mockpoint.test/zen?via=fetch').then((r) => r.text()),
  undiciRequest: () => request('https://api.mockpoint.test/zen?via=undici').then((r) => r.body.text()),
  httpsGet: () => get(https, 'https://api.mockpoint.test/zen?via=https'),
  httpGet: () => get(http, 'http://api.mockpoint.test/zen?via=http'),
  httpRawHeaders: rawHeaders,
};
for (const [name, call] of Object.entries(calls)) {
  const answer = await call().catch((error) => 'error ' + (error.cause?.code ?? error.code ?? error.message));
  console.log(name + ': ' + answer);
}
process.exit(0);
`;

describe.skipIf(ON_BUN)('node --import @mockpoint/server/proxy-env', () => {
  it('routes fetch, undici and node:http(s) of an unchanged app through the daemon (a child process)', async () => {
    const daemon = await startDaemon({
      args: ['--memory', '--https', '--https-port', '0', '--hosts', 'api.mockpoint.test=zen'],
    });
    const ca = daemon.notes.find((note) => note.startsWith('local CA '))?.match(/NODE_EXTRA_CA_CERTS=(\S+)/)?.[1];
    const put = await requestJson(`${daemon.url}/api/endpoints/zen/routes`, {
      method: 'PUT',
      body: { routes: [{ match: { path: '/zen' }, answer: { data: { zen: '{{query.via}}' }, template: true } }] },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const dir = await makeTempDir('mockpoint-preload-');
    await writeFile(join(dir, 'app.mjs'), APP);
    const env = {
      PATH: process.env.PATH ?? '',
      HTTPS_PROXY: daemon.url,
      HTTP_PROXY: daemon.url,
      NODE_EXTRA_CA_CERTS: ca as string,
      UNDICI_PATH: UNDICI,
    };
    const lines = async (args: string[]) =>
      (await run(process.execPath, [...args, 'app.mjs'], { cwd: dir, env, timeout: 20_000 })).stdout.trim().split('\n');

    // Node 20 by itself: the proxy variables are ignored, the name resolves nowhere.
    const without = await lines([]);
    expect(without).toHaveLength(6);
    for (const line of without) expect(line).toMatch(/: error (ENOTFOUND|EAI_AGAIN)/);

    const withPreload = await lines(['--import', PRELOAD]);
    expect(withPreload).toEqual([
      'fetchHttps: {"zen":"fetch"}',
      'fetchHttp: {"zen":"fetch"}',
      'undiciRequest: {"zen":"undici"}',
      'httpsGet: {"zen":"https"}',
      'httpGet: {"zen":"http"}',
      'httpRawHeaders: {"zen":"raw"}',
    ]);
    const journal = (await requestJson(`${daemon.url}/api/endpoints/zen/requests`)).body as {
      requests: { subpath: string; headers: Record<string, string> }[];
    };
    expect(journal.requests).toHaveLength(6);
    for (const entry of journal.requests) expect(entry.headers.host).toBe('api.mockpoint.test');
    expect(journal.requests.find((entry) => entry.headers['x-raw'] === 'yes')).toBeDefined();
  });

  it('leaves hosts NO_PROXY names to go directly, and says a proxy refusal with its status and code', async () => {
    const daemon = await startDaemon({ args: ['--memory', '--hosts', 'api.mockpoint.test=zen'] });
    await requestJson(`${daemon.url}/api/endpoints/zen`, { method: 'PUT', body: { data: { ok: true } } });
    const dir = await makeTempDir('mockpoint-preload-');
    await writeFile(
      join(dir, 'app.mjs'),
      `import https from 'node:https';
import http from 'node:http';
const show = (p) => p.then((t) => console.log(t), (e) => console.log('error ' + (e.code ?? '') + ' ' + e.message));
await show(new Promise((resolve, reject) => https.get('https://api.mockpoint.test/', (res) => resolve(res.statusCode)).on('error', reject)));
await show(new Promise((resolve, reject) => http.get('http://direct.mockpoint.test/', (res) => resolve(res.statusCode)).on('error', reject)));
process.exit(0);
`,
    );
    const env = {
      PATH: process.env.PATH ?? '',
      HTTPS_PROXY: daemon.url,
      HTTP_PROXY: daemon.url,
      NO_PROXY: '.direct.mockpoint.test',
    };
    const { stdout } = await run(process.execPath, ['--import', PRELOAD, 'app.mjs'], {
      cwd: dir,
      env,
      timeout: 20_000,
    });
    const [refused, direct] = stdout.trim().split('\n');
    // Without --https the daemon refuses the TLS tunnel; the app's error names the status and the code.
    expect(refused).toMatch(
      /refused CONNECT api\.mockpoint\.test:443: HTTP\/1\.1 501 Not Implemented: .*HTTPS_NOT_ENABLED/,
    );
    // NO_PROXY: resolved directly (and not resolvable), never sent to the daemon.
    expect(direct).toMatch(/^error (ENOTFOUND|EAI_AGAIN)/);
  });
});
