/**
 * The nginx block of docs/web.md, exactly as written there, in a real nginx (Debian's,
 * started by this test on a free 127.0.0.1 port with its files in a temp dir):
 * the page works under /mock/, and a 2 MB webhook through it is journaled with
 * the sender's Host and X-Forwarded-* headers.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import { freePort } from './helpers/free-port.js';
import { closeBrowser, eventually, openPage, poll, startWebDaemon, useBrowser } from './web-support.js';

const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
const WEB_DOC = fileURLToPath(new URL('../../../docs/web.md', import.meta.url));

let server: RunningServer;
let nginx: ChildProcess | undefined;
let dir: string;
let base: string;

/** The nginx block that follows `<!-- nginx-snippet -->` in docs/web.md. */
async function docSnippet(): Promise<string> {
  const doc = await readFile(WEB_DOC, 'utf8');
  const match = /<!-- nginx-snippet -->\n```nginx\n([\s\S]*?)```/.exec(doc);
  if (!match) throw new Error('docs/web.md has no ```nginx block after <!-- nginx-snippet -->');
  return match[1] as string;
}

beforeAll(async () => {
  if (!existsSync(NGINX)) {
    throw new Error(`nginx not found at ${NGINX}: install it with \`apt-get install nginx\` (or set NGINX_PATH)`);
  }
  server = await startWebDaemon();
  dir = await mkdtemp(join(tmpdir(), 'mockpoint-nginx-'));
  await mkdir(join(dir, 'logs'));
  const snippet = (await docSnippet()).replace('127.0.0.1:16540', `127.0.0.1:${server.port}`);
  expect(snippet).toContain(`proxy_pass http://127.0.0.1:${server.port}/;`);
  const port = await freePort();
  const temp = (name: string) => `${name}_temp_path ${join(dir, name)};`;
  await writeFile(
    join(dir, 'nginx.conf'),
    [
      // As root, nginx's workers would otherwise run as nobody, who cannot use this temp dir.
      process.getuid?.() === 0 ? 'user root;' : '',
      'worker_processes 1;',
      'daemon off;',
      `pid ${join(dir, 'nginx.pid')};`,
      `error_log ${join(dir, 'logs', 'error.log')} warn;`,
      'events { worker_connections 64; }',
      'http {',
      '  access_log off;',
      `  ${temp('client_body')} ${temp('proxy')} ${temp('fastcgi')} ${temp('uwsgi')} ${temp('scgi')}`,
      `  server {\n    listen 127.0.0.1:${port};\n${snippet}  }`,
      '}',
    ].join('\n'),
  );
  nginx = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'logs', 'error.log')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  nginx.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  base = `http://127.0.0.1:${port}`;
  await eventually(
    async () => {
      if (nginx?.exitCode !== null) throw new Error(`nginx exited (${nginx?.exitCode}): ${stderr}`);
      return fetch(`${base}/mock/api/health`).then(
        (r) => r.ok,
        () => false,
      );
    },
    10_000,
    'nginx to answer',
  );
});

afterAll(async () => {
  await closeBrowser();
  if (nginx && nginx.exitCode === null) {
    const exited = new Promise((resolve) => nginx?.once('exit', resolve));
    nginx.kill('SIGTERM');
    await exited;
  }
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

test('the page works under /mock/ through nginx', async () => {
  const redirect = await fetch(`${base}/mock`, { redirect: 'manual' });
  expect(redirect.status).toBe(301);
  expect(new URL(redirect.headers.get('location') ?? '', base).pathname).toBe('/mock/');

  const { page, problems } = await openPage(await useBrowser());
  await page.goto(`${base}/mock/`);
  await poll(() => page.locator('#version').textContent()).toMatch(/^v\S+ · memory store$/);
  await page.getByLabel('Name', { exact: true }).fill('via-nginx');
  await page.getByRole('button', { name: 'Create endpoint' }).click();
  await page.waitForURL(`${base}/mock/#/e/via-nginx`);
  await poll(() => page.locator('#detail-url').textContent()).toBe(`${base}/mock/endpoint/via-nginx`);
  await poll(() => page.locator('.live').textContent()).toBe('Live');
  await fetch(`${base}/mock/endpoint/via-nginx?from=nginx`, { method: 'POST', body: '{"hello":1}' });
  await poll(() => page.locator('.journal-list .path').allTextContents()).toEqual(['/endpoint/via-nginx?from=nginx']);
  await page.context().close();
  expect(problems).toEqual([]);
});

test('a 2 MB webhook through nginx is answered and journaled, with the sender’s Host and X-Forwarded-*', async () => {
  const body = JSON.stringify({ event: 'bulk.export', blob: 'x'.repeat(2 * 1024 * 1024) });
  const answer = await fetch(`${base}/mock/endpoint/big-hook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  // 404: no endpoint of that name, as the daemon answers; not nginx's 413.
  expect(answer.status).toBe(404);
  expect((await answer.json()).error.code).toBe('NOT_FOUND');

  const journal = await (await fetch(`${server.url}/api/endpoints/big-hook/requests`)).json();
  expect(journal.requests).toHaveLength(1);
  const [entry] = journal.requests;
  expect(entry).toMatchObject({ method: 'POST', path: '/endpoint/big-hook', bodyTruncated: true });
  expect(entry.body.startsWith('{"event":"bulk.export","blob":"xxx')).toBe(true);
  expect(entry.headers['content-length']).toBe(String(Buffer.byteLength(body)));
  expect(entry.headers.host).toBe(new URL(base).host);
  expect(entry.headers['x-forwarded-for']).toBe('127.0.0.1');
  expect(entry.headers['x-forwarded-proto']).toBe('http');
  expect(entry.headers['x-forwarded-host']).toBe(new URL(base).host);
  expect(entry.headers['x-forwarded-prefix']).toBe('/mock');
});
