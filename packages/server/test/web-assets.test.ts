/**
 * HTTP-level tests of the page and its assets (no browser): content-hashed
 * names cached as immutable, the HTML never cached stale, MIME types, JSON 404s,
 * no way out of the asset directory, the reporting DSN put into the page, and
 * the build (hashed names, Sentry kept out of the main bundle, DSN baked in).
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { ERRORS } from '@mockpoint/core/internal';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import { startServer } from '../src/start-server.js';
import { HASHED_NAME } from '../src/web.js';
import { assertWebBuilt, startWebDaemon, WEB_ROOT } from './web-support.js';

/** The page's build (the private @mockpoint/web package), whose output the daemon serves. */
const BUILD_SCRIPT = fileURLToPath(new URL('../../web/scripts/build.mjs', import.meta.url));
const IMMUTABLE = 'public, max-age=31536000, immutable';

let server: RunningServer;
let html: string;
const tempDirs: string[] = [];

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'mockpoint-web-'));
  tempDirs.push(dir);
  return dir;
}

/** Sends a request with the path exactly as given (fetch would normalise `..`). */
function rawGet(base: string, path: string): Promise<{ status: number; body: string; type: string | undefined }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, type: res.headers['content-type'] }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A GET with the given Accept-Encoding (none when undefined), answering the raw bytes as sent. */
function rawGetBytes(
  base: string,
  path: string,
  acceptEncoding: string | undefined,
): Promise<{ status: number; body: Buffer; headers: Record<string, string | string[] | undefined> }> {
  const { hostname, port } = new URL(base);
  const headers = acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding };
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path, method: 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

function assetPaths(page: string): string[] {
  return [...page.matchAll(/(?:src|href)="(static\/[^"]+)"/g)].map((m) => m[1] as string);
}

beforeAll(async () => {
  assertWebBuilt();
  server = await startWebDaemon();
  html = await (await fetch(`${server.url}/`)).text();
});

afterAll(async () => {
  await server?.close();
  for (const dir of tempDirs) await rm(dir, { recursive: true, force: true });
});

describe('the page at /', () => {
  test('is HTML, revalidated on every load (no-cache + ETag), with a CSP', async () => {
    const answer = await fetch(`${server.url}/`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(answer.headers.get('cache-control')).toBe('no-cache');
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.headers.get('content-security-policy')).toContain("connect-src 'self';");
    const etag = answer.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await fetch(`${server.url}/`, { headers: { 'if-none-match': etag as string } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  test('references its script and stylesheet by relative, content-hashed paths', () => {
    const paths = assetPaths(html);
    expect(paths).toEqual([
      expect.stringMatching(/^static\/app\.[A-Z2-7]{8}\.css$/),
      expect.stringMatching(/^static\/app\.[A-Z2-7]{8}\.js$/),
    ]);
    // No absolute URL anywhere in the page (it must work under a proxy prefix).
    expect(html).not.toMatch(/(?:src|href|action)="\//);
    expect(html).not.toContain('mockpoint-reporting-dsn');
  });
});

describe('/static assets', () => {
  test('hashed files: right MIME type, immutable for a year', async () => {
    // The build's compressed copies are tested below.
    const files = (await readdir(join(WEB_ROOT, 'static'))).filter((f) => !/\.(br|gz)$/.test(f));
    const expected: Record<string, string> = {
      js: 'text/javascript; charset=utf-8',
      css: 'text/css; charset=utf-8',
      map: 'application/json; charset=utf-8',
    };
    expect(files.filter((f) => f.endsWith('.js')).length).toBeGreaterThanOrEqual(2); // app + the Sentry chunk
    for (const file of files) {
      const answer = await fetch(`${server.url}/static/${file}`);
      expect(answer.status, file).toBe(200);
      const ext = file.split('.').at(-1) as string;
      expect(answer.headers.get('content-type'), file).toBe(expected[ext]);
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      // Source maps carry no hash of their own: revalidated, never immutable.
      expect(answer.headers.get('cache-control'), file).toBe(ext === 'map' ? 'no-cache' : IMMUTABLE);
      expect(Buffer.from(await answer.arrayBuffer()).equals(await readFile(join(WEB_ROOT, 'static', file)))).toBe(true);
    }
  });

  test('are served compressed (brotli, else gzip) to clients that accept it, plain to others', async () => {
    const files = (await readdir(join(WEB_ROOT, 'static'))).filter((f) => /\.(js|css)$/.test(f));
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const file of files) {
      const plain = await readFile(join(WEB_ROOT, 'static', file));
      const br = await rawGetBytes(server.url, `/static/${file}`, 'gzip, deflate, br');
      expect(br.headers['content-encoding'], file).toBe('br');
      expect(br.headers.vary).toBe('accept-encoding');
      expect(brotliDecompressSync(br.body).equals(plain), file).toBe(true);
      expect(br.body.length, file).toBeLessThan(plain.length * 0.6);
      const gz = await rawGetBytes(server.url, `/static/${file}`, 'gzip');
      expect(gz.headers['content-encoding'], file).toBe('gzip');
      expect(gunzipSync(gz.body).equals(plain), file).toBe(true);
      const none = await rawGetBytes(server.url, `/static/${file}`, undefined);
      expect(none.headers['content-encoding'], file).toBeUndefined();
      expect(none.body.equals(plain), file).toBe(true);
      const refused = await rawGetBytes(server.url, `/static/${file}`, 'br;q=0, gzip');
      expect(refused.headers['content-encoding'], file).toBe('gzip');
    }
    const page = await rawGetBytes(server.url, '/', 'br');
    expect(page.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(page.body).toString('utf8')).toBe(html);
  });

  test('the hashed-name rule: esbuild and hex hashes only', () => {
    expect(HASHED_NAME.test('app.ULRKPLRQ.js')).toBe(true);
    expect(HASHED_NAME.test('app.3f9a1c2b.css')).toBe(true);
    expect(HASHED_NAME.test('app.js')).toBe(false);
    expect(HASHED_NAME.test('style.css')).toBe(false);
    expect(HASHED_NAME.test('jquery.minified.js')).toBe(false);
    expect(HASHED_NAME.test('app.ULRKPLRQ.js.map')).toBe(false);
  });

  test('a missing asset is a JSON 404', async () => {
    for (const path of ['/static/nope.js', '/static/app.AAAAAAAA.js', '/static/', '/static/sub/dir.css']) {
      const answer = await fetch(`${server.url}${path}`);
      expect(answer.status, path).toBe(404);
      expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await answer.json()).toEqual({
        success: false,
        error: { code: 'ROUTE_NOT_FOUND', message: expect.any(String) },
      });
    }
  });

  test('no path traversal: encoded or raw dot-dot, backslashes and dot-files all 404', async () => {
    // From dist/web/static, ../../../package.json is packages/server/package.json: it exists.
    const attempts = [
      '/static/..%2f..%2fpackage.json',
      '/static/..%2f..%2f..%2fpackage.json',
      '/static/..%2F..%2F..%2Fpackage.json',
      '/static/%2e%2e%2f%2e%2e%2f%2e%2e%2fpackage.json',
      '/static/..%5c..%5c..%5cpackage.json',
      '/static/....//....//package.json',
      '/static/../../../package.json',
      '/static/%2e%2e/%2e%2e/%2e%2e/package.json',
      '/static/..%252f..%252fpackage.json',
      '/static/.%2e/index.html',
      '/static/%00app.js',
      '/static/.gitignore',
    ];
    for (const path of attempts) {
      const answer = await rawGet(server.url, path);
      expect(answer.status, path).toBe(404);
      expect(answer.body, path).not.toContain('@mockpoint/server');
      expect(answer.body, path).not.toContain('<!doctype html>');
    }
  });
});

describe('the reporting DSN', () => {
  test('a start-time DSN is put into the page (escaped) and allowed by the CSP', async () => {
    const dsn = 'http://key@127.0.0.1:9/1?x="<b>&';
    const withDsn = await startWebDaemon({ clientReportingDsn: dsn });
    try {
      const answer = await fetch(`${withDsn.url}/`);
      const page = await answer.text();
      expect(page).toContain(
        '<meta name="mockpoint-reporting-dsn" content="http://key@127.0.0.1:9/1?x=&quot;&lt;b&gt;&amp;">',
      );
      expect(answer.headers.get('content-security-policy')).toContain("connect-src 'self' http://127.0.0.1:9;");
    } finally {
      await withDsn.close();
    }
  });

  test('scripts/build-web.mjs bakes a build-time DSN (environment, or .env); the start-time DSN wins', async () => {
    const out = await tempDir();
    const cwd = await tempDir();
    const env = { ...process.env, CLIENT_REPORTING_DSN: 'http://baked@127.0.0.1:7/2', INIT_CWD: cwd };
    const built = spawnSync(process.execPath, [BUILD_SCRIPT, '--out-dir', out], { cwd, env, encoding: 'utf8' });
    expect(built.status, built.stderr).toBe(0);
    expect(built.stdout).toContain('reporting DSN baked in');
    expect(await readFile(join(out, 'index.html'), 'utf8')).toContain(
      '<meta name="mockpoint-reporting-dsn" content="http://baked@127.0.0.1:7/2">',
    );

    const baked = await startServer({ port: 0, host: '127.0.0.1', memory: true, webRoot: out });
    const overridden = await startServer({
      port: 0,
      host: '127.0.0.1',
      memory: true,
      webRoot: out,
      clientReportingDsn: 'http://start@127.0.0.1:8/3',
    });
    try {
      const bakedPage = await (await fetch(`${baked.url}/`)).text();
      expect(bakedPage.match(/mockpoint-reporting-dsn" content="([^"]*)"/g)).toEqual([
        'mockpoint-reporting-dsn" content="http://baked@127.0.0.1:7/2"',
      ]);
      const answer = await fetch(`${overridden.url}/`);
      expect((await answer.text()).match(/mockpoint-reporting-dsn" content="([^"]*)"/g)).toEqual([
        'mockpoint-reporting-dsn" content="http://start@127.0.0.1:8/3"',
      ]);
      expect(answer.headers.get('content-security-policy')).toContain("connect-src 'self' http://127.0.0.1:8;");
    } finally {
      await baked.close();
      await overridden.close();
    }

    // From .env in the working directory when the environment has none.
    await writeFile(join(cwd, '.env'), 'CLIENT_REPORTING_DSN=http://dotenv@127.0.0.1:6/4\n');
    const { CLIENT_REPORTING_DSN: _unused, ...withoutDsn } = env;
    const fromFile = spawnSync(process.execPath, [BUILD_SCRIPT, '--out-dir', out], {
      cwd,
      env: withoutDsn,
      encoding: 'utf8',
    });
    expect(fromFile.status, fromFile.stderr).toBe(0);
    expect(await readFile(join(out, 'index.html'), 'utf8')).toContain('content="http://dotenv@127.0.0.1:6/4"');
  });

  test('the main bundle holds no Sentry code; the lazily imported chunk does', async () => {
    const files = await readdir(join(WEB_ROOT, 'static'));
    const app = files.find((f) => /^app\.[A-Z2-7]{8}\.js$/.test(f)) as string;
    const chunk = files.find((f) => /^reporting\.[A-Z2-7]{8}\.js$/.test(f)) as string;
    const appCode = await readFile(join(WEB_ROOT, 'static', app), 'utf8');
    expect(appCode.toLowerCase()).not.toContain('sentry');
    // The page takes error codes and statuses from core, never the registry's prose (docs only).
    expect(appCode).not.toContain(ERRORS.INVALID_BODY.when);
    expect(appCode).toContain(`import("./${chunk}")`);
    expect(await readFile(join(WEB_ROOT, 'static', chunk), 'utf8')).toContain('sentry');
  });

  test('the page stays within its budget: what it loads is at most 60 kB gzipped', async () => {
    const files = (await readdir(join(WEB_ROOT, 'static'))).filter((f) => f.endsWith('.gz'));
    const sizes = await Promise.all(
      files.map(async (f) => [f, (await readFile(join(WEB_ROOT, 'static', f))).byteLength] as const),
    );
    // The reporting chunk is loaded only when a reporting DSN is set: counted on its own.
    const page = sizes.filter(([f]) => !f.startsWith('reporting.'));
    const pageBytes = page.reduce((sum, [, n]) => sum + n, 0);
    const reportingBytes = sizes.reduce((sum, [f, n]) => (f.startsWith('reporting.') ? sum + n : sum), 0);
    console.log(
      `web assets gzipped: page ${pageBytes} B (${page.map(([f, n]) => `${f} ${n}`).join(', ')}); reporting chunk ${reportingBytes} B`,
    );
    expect(page.length).toBeGreaterThanOrEqual(2); // the script and the stylesheet
    expect(pageBytes).toBeLessThanOrEqual(60_000);
  });
});

describe('an unbuilt page', () => {
  test('answers 500 with a message saying to build', async () => {
    const empty = await tempDir();
    const unbuilt = await startServer({ port: 0, host: '127.0.0.1', memory: true, webRoot: empty });
    try {
      const answer = await fetch(`${unbuilt.url}/`);
      expect(answer.status).toBe(500);
      expect((await answer.json()).error.message).toContain('run pnpm build');
    } finally {
      await unbuilt.close();
    }
  });
});
