/**
 * Test sessions end to end: the real daemon with two namespaces, each with its
 * own `user`; an app server in another process (fixtures/session-app.mjs:
 * withSession + carrySession from the built @mockpoint/core/session) that
 * fetches `<daemon>/endpoint/user` for each request it answers; requests to it
 * with `mockpoint-session: <ns>` get that namespace's user, from a test and
 * from Chromium (`extraHTTPHeaders`, one browser context per namespace, in
 * parallel), and a request without the header gets the default namespace's.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addEndpoint, type Daemon, killAll, removeTempDirs, requestJson, startDaemon } from './helpers/daemon.js';
import { closeBrowser, useBrowser } from './web-support.js';

const APP = fileURLToPath(new URL('./fixtures/session-app.mjs', import.meta.url));
const CORE_SESSION_ENTRY = fileURLToPath(new URL('../../core/dist/session.js', import.meta.url));

interface Namespace {
  name: string;
  token: string;
}

let daemon: Daemon;
let app: { url: string; child: ChildProcess; output: () => string };

/** Starts the app server as its own process; resolves once it printed its URL. */
async function startApp(mockpointUrl: string): Promise<typeof app> {
  const child = spawn(process.execPath, [APP], {
    env: { PATH: process.env.PATH ?? '', MOCKPOINT_URL: mockpointUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the app server printed no URL: ${output}`)), 15_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /app listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1] as string);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the app server exited (${code}): ${output}`));
    });
  });
  return { url, child, output: () => output };
}

async function createNamespace(): Promise<Namespace> {
  const created = await requestJson(`${daemon.url}/api/namespaces`, { method: 'POST', body: { ttlMs: 600_000 } });
  expect(created.status).toBe(201);
  const namespace = created.body as Namespace;
  expect(namespace).toEqual(expect.objectContaining({ name: expect.any(String), token: expect.any(String) }));
  return namespace;
}

async function addUser(namespace: Namespace, name: string): Promise<void> {
  const added = await requestJson(`${daemon.url}/ns/${namespace.name}/api/endpoint/add`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${namespace.token}` },
    body: { name: 'user', data: { name } },
  });
  expect(added.status, JSON.stringify(added.body)).toBe(201);
}

beforeAll(async () => {
  if (!existsSync(CORE_SESSION_ENTRY)) throw new Error(`${CORE_SESSION_ENTRY} is missing: run \`pnpm build\` first`);
  daemon = await startDaemon({ args: ['--memory'] });
  app = await startApp(daemon.url);
});

afterAll(async () => {
  await closeBrowser();
  if (app !== undefined && app.child.exitCode === null) {
    const exited = new Promise((resolve) => app.child.once('exit', resolve));
    app.child.kill('SIGTERM');
    await exited;
  }
  await killAll();
  await removeTempDirs();
});

describe('an app server in another process carries the session', () => {
  let ada: Namespace;
  let grace: Namespace;

  beforeAll(async () => {
    ada = await createNamespace();
    grace = await createNamespace();
    expect(ada.name).not.toBe(grace.name);
    await addUser(ada, 'Ada');
    await addUser(grace, 'Grace');
    expect((await addEndpoint(daemon.url, { name: 'user', data: { name: 'Default' } })).status).toBe(201);
  });

  it('each request gets its namespace’s user, concurrently; without the header, the default one', async () => {
    const asks = [ada, grace, undefined, grace, ada, undefined, ada, grace];
    const answers = await Promise.all(
      asks.map(async (namespace) => {
        const response = await fetch(`${app.url}/api/profile`, {
          headers: namespace ? { 'mockpoint-session': namespace.name } : {},
        });
        return { status: response.status, body: await response.json() };
      }),
    );
    expect(answers).toEqual(
      asks.map((namespace) => ({
        status: 200,
        body: { name: namespace === ada ? 'Ada' : namespace === grace ? 'Grace' : 'Default' },
      })),
    );
  });

  it('the baggage form picks the namespace too', async () => {
    const response = await fetch(`${app.url}/api/profile`, {
      headers: { baggage: `mockpoint-session=${grace.name}` },
    });
    expect(await response.json()).toEqual({ name: 'Grace' });
  });

  it('Chromium with extraHTTPHeaders: two contexts, one per namespace, in parallel', async () => {
    const browser: Browser = await useBrowser();
    const pageOf = async (namespace: Namespace) => {
      const context = await browser.newContext({ extraHTTPHeaders: { 'mockpoint-session': namespace.name } });
      try {
        const page = await context.newPage();
        const seen: string[] = [];
        for (let i = 0; i < 3; i++) {
          const response = await page.goto(`${app.url}/profile`);
          expect(response?.status()).toBe(200);
          seen.push((await page.locator('h1').textContent()) ?? '');
        }
        return seen;
      } finally {
        await context.close();
      }
    };
    const [adaSaw, graceSaw] = await Promise.all([pageOf(ada), pageOf(grace)]);
    expect(adaSaw).toEqual(['Ada', 'Ada', 'Ada']);
    expect(graceSaw).toEqual(['Grace', 'Grace', 'Grace']);
    // A context without the header sees the default namespace.
    const plain = await browser.newContext();
    const page = await plain.newPage();
    await page.goto(`${app.url}/profile`);
    expect(await page.locator('h1').textContent()).toBe('Default');
    await plain.close();
  });

  it('deleted as the docs’ Playwright fixture deletes them; the default namespace stays', async () => {
    for (const namespace of [ada, grace]) {
      expect((await fetch(`${daemon.url}/api/namespaces/${namespace.name}`, { method: 'DELETE' })).status).toBe(204);
    }
    const listed = await requestJson(`${daemon.url}/api/namespaces`);
    expect((listed.body as { namespaces: { name: string }[] }).namespaces.map((n) => n.name)).not.toEqual(
      expect.arrayContaining([ada.name]),
    );
    expect(await (await fetch(`${app.url}/api/profile`)).json()).toEqual({ name: 'Default' });
  });
});
