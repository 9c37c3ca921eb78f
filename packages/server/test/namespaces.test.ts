// Namespaces against the built daemon: kept across SIGKILL on LevelDB (registry, token,
// every part), shared by two replicas on one real redis-server, and a seeded fuzz of
// the places a namespace name arrives (the /ns/{ns} prefix, mockpoint-session, baggage,
// a namespace-shaped bearer token, POST /api/namespaces) with random code points:
// every request answered under 500, /api/health answering throughout.
import { connect } from 'node:net';
import { prng, randomText } from '@mockpoint/testkit/random-text';
import { startTestRedis, type TestRedis } from '@mockpoint/testkit/redis-server';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { type Daemon, makeTempDir, requestJson, startDaemon, useDaemons } from './helpers/daemon.js';

let redis: TestRedis | undefined;

useDaemons();
afterAll(() => redis?.dispose());

const ADMIN = 'ns-admin-token';
const admin = { authorization: `Bearer ${ADMIN}` };

interface Made {
  name: string;
  token: string;
}

async function makeNamespace(daemon: Daemon, body: Record<string, unknown>): Promise<Made> {
  const made = await requestJson(`${daemon.url}/api/namespaces`, { method: 'POST', body, headers: admin });
  expect(made.status).toBe(201);
  return made.body as Made;
}

function bearer(made: Made): Record<string, string> {
  return { authorization: `Bearer ${made.token}` };
}

describe('namespaces across SIGKILL (LevelDB)', () => {
  it('the registry, the tokens and every acknowledged write of each namespace survive; a deleted one stays gone', async () => {
    const cwd = await makeTempDir();
    const env = { MOCKPOINT_ADMIN_TOKEN: ADMIN };
    const first = await startDaemon({ cwd, env });
    const one = await makeNamespace(first, { name: 'one', ttlMs: 3_600_000 });
    const two = await makeNamespace(first, { name: 'two' });
    const gone = await makeNamespace(first, { name: 'gone' });
    for (const [made, data] of [
      [one, 1],
      [two, 2],
      [gone, 3],
    ] as const) {
      const put = await requestJson(`${first.url}/ns/${made.name}/api/endpoint/add`, {
        method: 'PUT',
        body: { name: 'user', data: { from: data } },
        headers: bearer(made),
      });
      expect(put.status).toBe(201);
    }
    const routes = await requestJson(`${first.url}/api/endpoints/api/routes`, {
      method: 'PUT',
      body: { routes: [{ match: { path: '/ping' }, answer: { data: 'pong-one' } }] },
      headers: { ...bearer(one), 'mockpoint-session': 'one' },
    });
    expect(routes.status).toBe(200);
    expect((await requestJson(`${first.url}/api/namespaces/gone`, { method: 'DELETE', headers: admin })).status).toBe(
      204,
    );

    expect(await first.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    const second = await startDaemon({ cwd, env });
    const listed = await requestJson(`${second.url}/api/namespaces`, { headers: admin });
    expect((listed.body as { namespaces: { name: string; ttlMs?: number }[] }).namespaces).toMatchObject([
      { name: 'one', ttlMs: 3_600_000 },
      { name: 'two' },
    ]);
    expect((await requestJson(`${second.url}/ns/one/endpoint/user`)).body).toEqual({ from: 1 });
    expect(
      (await requestJson(`${second.url}/endpoint/user`, { headers: { 'mockpoint-session': 'two' } })).body,
    ).toEqual({ from: 2 });
    expect((await requestJson(`${second.url}/ns/one/endpoint/api/ping`)).body).toBe('pong-one');
    expect((await requestJson(`${second.url}/ns/two/endpoint/api/ping`)).status).toBe(404);
    expect((await requestJson(`${second.url}/endpoint/user`)).status).toBe(404);
    expect((await requestJson(`${second.url}/ns/gone/endpoint/user`)).status).toBe(404);
    // The tokens still manage their own namespace only.
    const list = await requestJson(`${second.url}/ns/one/api/endpoints`, { headers: bearer(one) });
    expect(list.status).toBe(200);
    const across = await requestJson(`${second.url}/ns/two/api/endpoints`, { headers: bearer(one) });
    expect([across.status, (across.body as { error: { code: string } }).error.code]).toEqual([
      403,
      'FORBIDDEN_NAMESPACE',
    ]);
    // A namespace made again with a deleted one's name starts empty.
    await makeNamespace(second, { name: 'gone' });
    expect((await requestJson(`${second.url}/ns/gone/endpoint/user`)).status).toBe(404);
  });
});

describe('namespaces shared by replicas on one redis-server', () => {
  it('a namespace made, written and deleted on one replica is seen by the other', async () => {
    // Each wait below is for a change to reach another replica through Redis: 10 s bounds it on a busy 2-core machine.
    redis = await startTestRedis();
    const env = { MOCKPOINT_REDIS_URL: redis.socket, MOCKPOINT_ADMIN_TOKEN: ADMIN };
    const [a, b] = (await Promise.all([startDaemon({ env }), startDaemon({ env })])) as [Daemon, Daemon];
    const made = await makeNamespace(a, { name: `shared-${process.pid}` });
    const ns = made.name;
    const put = await requestJson(`${a.url}/ns/${ns}/api/endpoint/add`, {
      method: 'PUT',
      body: { name: 'user', data: 'from a' },
      headers: bearer(made),
    });
    expect(put.status).toBe(201);
    expect((await requestJson(`${b.url}/ns/${ns}/endpoint/user`)).body).toBe('from a');
    expect((await requestJson(`${b.url}/endpoint/user`)).status).toBe(404);
    // A change on b reaches a's cached answer; the token works on b.
    const replace = await requestJson(`${b.url}/ns/${ns}/api/endpoints/user`, {
      method: 'PUT',
      body: { data: 'from b' },
      headers: bearer(made),
    });
    expect(replace.status).toBe(200);
    await vi.waitFor(async () => expect((await requestJson(`${a.url}/ns/${ns}/endpoint/user`)).body).toBe('from b'), {
      timeout: 10_000,
      interval: 100,
    });
    // The journal is shared: b lists what a received.
    const journal = await requestJson(`${b.url}/ns/${ns}/api/endpoints/user/requests`, { headers: bearer(made) });
    expect((journal.body as { requests: unknown[] }).requests.length).toBeGreaterThanOrEqual(2);
    expect((await requestJson(`${b.url}/api/namespaces/${ns}`, { method: 'DELETE', headers: admin })).status).toBe(204);
    await vi.waitFor(async () => expect((await requestJson(`${a.url}/ns/${ns}/endpoint/user`)).status).toBe(404), {
      timeout: 10_000,
      interval: 100,
    });
  });
});

describe('a namespace has its own page, HAR and reset', () => {
  it('/ns/{ns}/ serves the page, /ns/{ns} is sent there; the HAR and a reset are its own', async () => {
    const daemon = await startDaemon({ args: ['--memory'] });
    const made = await requestJson(`${daemon.url}/api/namespaces`, { method: 'POST', body: { name: 'one' } });
    expect(made.status).toBe(201);
    const redirect = await fetch(`${daemon.url}/ns/one?x=1`, { redirect: 'manual' });
    expect([redirect.status, redirect.headers.get('location')]).toEqual([308, '/ns/one/?x=1']);
    const page = await fetch(`${daemon.url}/ns/one/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toMatch(/<html/i);
    for (const prefix of ['', '/ns/one']) {
      await requestJson(`${daemon.url}${prefix}/api/endpoint/add`, {
        method: 'PUT',
        body: { name: 'x', data: prefix },
      });
      await fetch(`${daemon.url}${prefix}/endpoint/x?from=${prefix === '' ? 'default' : 'one'}`);
    }
    const har = (await requestJson(`${daemon.url}/ns/one/api/requests.har`)).body as {
      log: { entries: { request: { url: string } }[] };
    };
    expect(har.log.entries.map((entry) => new URL(entry.request.url).search)).toEqual(['?from=one']);
    expect((await requestJson(`${daemon.url}/ns/one/api/endpoints`, { method: 'DELETE' })).status).toBe(204);
    expect((await requestJson(`${daemon.url}/ns/one/endpoint/x`)).status).toBe(404);
    expect((await requestJson(`${daemon.url}/endpoint/x`)).body).toBe('');
  });
});

/** Sends `head` as UTF-8 bytes on a fresh connection; resolves the status line's code (or `closed`). */
function rawStatus(port: number, head: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    const done = () => resolve(/^HTTP\/1\.1 (\d{3}) /.exec(text)?.[1] ?? 'closed');
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? done() : reject(error)));
    socket.on('close', done);
    socket.setTimeout(5000, () => socket.destroy(new Error(`no answer to ${JSON.stringify(head).slice(0, 200)}`)));
    socket.end(Buffer.from(head, 'utf8'));
  });
}

/** `text` as UTF-8 bytes, every byte percent-encoded (a lone surrogate is sent as U+FFFD). */
function percentEncoded(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
}

const SEED = 51;
const CASES = 400;

it(`answers ${CASES} random namespace names, headers and tokens (seed ${SEED}) under 500, and stays healthy`, async () => {
  const daemon = await startDaemon({ args: ['--memory'], env: { MOCKPOINT_ADMIN_TOKEN: ADMIN } });
  const real = await makeNamespace(daemon, { name: 'real' });
  await requestJson(`${daemon.url}/ns/real/api/endpoint/add`, {
    method: 'PUT',
    body: { name: 'x', data: 'real' },
    headers: bearer(real),
  });
  const random = prng(SEED);
  const statuses = new Map<string, number>();
  for (let i = 0; i < CASES; i++) {
    const noise = randomText(random, 1 + Math.floor(random() * 40));
    const name = random() < 0.3 ? `real${noise}` : noise;
    const kind = i % 5;
    let head: string;
    if (kind === 0) head = `GET /ns/${percentEncoded(name)}/endpoint/x HTTP/1.1\r\nHost: 127.0.0.1\r\n`;
    else if (kind === 1) head = `GET /endpoint/x HTTP/1.1\r\nHost: 127.0.0.1\r\nmockpoint-session: ${name}\r\n`;
    else if (kind === 2)
      head = `GET /endpoint/x HTTP/1.1\r\nHost: 127.0.0.1\r\nbaggage: mockpoint-session=${percentEncoded(name)},${noise}\r\n`;
    else if (kind === 3)
      head = `PUT /ns/real/api/endpoint/add HTTP/1.1\r\nHost: 127.0.0.1\r\nauthorization: Bearer mpns.${name}.${noise}\r\ncontent-length: 2\r\n`;
    else
      head = `GET /api/endpoints HTTP/1.1\r\nHost: 127.0.0.1\r\nmockpoint-session: real\r\nauthorization: Bearer mpns.real.${noise}\r\n`;
    const body = kind === 3 ? '{}' : '';
    const status = await rawStatus(daemon.port, `${head}Connection: close\r\n\r\n${body}`);
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    expect(status === 'closed' || Number(status) < 500, `${JSON.stringify(head)} → ${status}`).toBe(true);
    if (i % 50 === 0) expect((await requestJson(`${daemon.url}/api/health`)).status).toBe(200);
  }
  // Refusals of every kind were reached: unknown namespaces, bad tokens, other namespaces' tokens.
  expect(statuses.get('404')).toBeGreaterThan(0);
  expect(statuses.get('401')).toBeGreaterThan(0);
  expect(statuses.get('403')).toBeGreaterThan(0);
  // Random names through the API: made only when they keep the rule, refused 400 otherwise.
  for (let i = 0; i < 100; i++) {
    const name = randomText(random, 1 + Math.floor(random() * 70));
    const made = await requestJson(`${daemon.url}/api/namespaces`, { method: 'POST', body: { name }, headers: admin });
    expect(made.status, JSON.stringify(name)).toBe(/^[A-Za-z0-9_-]{1,64}$/.test(name) ? 201 : 400);
  }
  expect((await requestJson(`${daemon.url}/ns/real/endpoint/x`)).body).toBe('real');
  expect((await requestJson(`${daemon.url}/api/health`)).status).toBe(200);
});
