// `mockpoint export` holds every name that holds anything, and `apply` reads it all back: a daemon with one name per
// kind of setting is exported, the file applied to a fresh daemon, and that daemon exported again gives the same file.
import { createHmac } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHAT_PROTO } from '@mockpoint/testkit/grpc-protos';
import { expect, it } from 'vitest';
import { type Daemon, makeTempDir, runCli, startDaemon, useDaemons } from './helpers/daemon.js';

/** The GitHub test-suite's own webhook secret. */
const SECRET = "It's a Secret to Everybody";

useDaemons();

async function put(daemon: Daemon, path: string, body: unknown, method = 'PUT'): Promise<void> {
  const response = await fetch(`${daemon.url}${path}`, { method, body: JSON.stringify(body) });
  expect(response.status, `${method} ${path}: ${await response.clone().text()}`).toBeLessThan(300);
}

async function exported(daemon: Daemon, cwd: string): Promise<string> {
  const run = await runCli({ args: ['export'], env: { MOCKPOINT_URL: daemon.url }, cwd });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return run.stdout;
}

/** A GitHub-style signed POST to `/endpoint/sig`: its status (the signature made with `secret`). */
async function signedPost(daemon: Daemon, secret: string): Promise<number> {
  const body = '{"action":"opened"}';
  const signature = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
  const response = await fetch(`${daemon.url}/endpoint/sig`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
    body,
  });
  await response.arrayBuffer();
  return response.status;
}

it('exports each name whatever it holds (gRPC definitions, hosts, chaos, collections, a signature check, a twin, state or queued answers only) and applies it all back', async () => {
  const [from, to] = await Promise.all([startDaemon({ args: ['--memory'] }), startDaemon({ args: ['--memory'] })]);
  const dir = await makeTempDir('mockpoint-export-');
  const response = await fetch(`${from.url}/api/endpoints/rec`, {
    method: 'PUT',
    body: '{"data":{"id":12345678901234567890},"statusCode":201}',
  });
  expect(response.status).toBe(201);
  await put(from, '/api/endpoints/rec/collections', { users: [{ id: 1 }] });
  await put(from, '/api/endpoints/rts/routes', { routes: [{ id: 'r', match: { path: '/a' }, answer: { data: 1 } }] });
  await put(from, '/api/endpoints/rts/chaos', { rate: 0.5, faults: ['503'], seed: 7 });
  await put(from, '/api/endpoints/rts/queue', { answers: [{ data: { once: true } }] }, 'POST');
  await put(from, '/api/endpoints/gql/graphql', { schema: 'type Query { hello: String }' });
  await put(from, '/api/endpoints/rpc/grpc', { protos: { 'chat/v1/chat.proto': CHAT_PROTO } });
  await put(from, '/api/endpoints/host/hosts', { hosts: ['api.example.test'] });
  await put(from, '/api/endpoints/cols/collections', { todos: [{ id: 1, done: false }] });
  await put(from, '/api/endpoints/flaky/chaos', { rate: 0.2, faults: ['reset', '429'], seed: 3 });
  await put(from, '/api/endpoints/sig/signature', { scheme: 'github', secret: SECRET, enforce: true });
  await put(from, '/api/endpoints/st/state', { order: 'paid', default: 'failed-once' });
  await put(from, '/api/endpoints/tw/twin', {
    document: { openapi: '3.0.3', paths: { '/a': { post: { responses: {} } }, '/a/{id}': { get: { responses: {} } } } },
    profile: { name: 'a', ids: { style: 'sequence' } },
  });
  await put(from, '/api/endpoints/q/queue', { answers: [{ statusCode: 503 }, { data: { n: 1 }, times: 2 }] }, 'POST');

  const first = await exported(from, dir);
  const names = (JSON.parse(first) as { endpoints: { name: string }[] }).endpoints.map((endpoint) => endpoint.name);
  expect(names).toEqual(['cols', 'flaky', 'gql', 'host', 'q', 'rec', 'rpc', 'rts', 'sig', 'st', 'tw']);
  expect(first).toContain('12345678901234567890');
  // The signature check with its secret as stored, the state's start as put.
  const entries = (JSON.parse(first) as { endpoints: Record<string, unknown>[] }).endpoints;
  expect(entries.find((entry) => entry.name === 'sig')).toEqual({
    name: 'sig',
    signature: { scheme: 'github', secrets: [SECRET], toleranceSec: 300, enforce: true },
  });
  expect(entries.find((entry) => entry.name === 'st')).toEqual({
    name: 'st',
    state: { default: 'failed-once', order: 'paid' },
  });
  writeFileSync(join(dir, 'state.json'), first);
  const applied = await runCli({ args: ['apply', 'state.json'], env: { MOCKPOINT_URL: to.url }, cwd: dir });
  expect(applied.stderr).toBe('');
  expect(applied.code).toBe(0);
  expect(await exported(to, dir)).toBe(first);
  // The list names them too, with what they hold.
  const listed = (await (await fetch(`${from.url}/api/endpoints?summary=true`)).json()) as {
    endpoints: Record<string, unknown>[];
    total: number;
  };
  const partOnly = ['cols', 'flaky', 'host', 'q', 'rpc', 'sig', 'st', 'tw'];
  expect(listed.endpoints.filter((entry) => partOnly.includes(entry.name as string))).toEqual([
    { name: 'cols', collections: true },
    { name: 'flaky', chaos: true },
    { name: 'host', hosts: true },
    { name: 'q', queue: true },
    { name: 'rpc', grpc: true },
    { name: 'sig', signature: true },
    { name: 'st', state: true },
    { name: 'tw', twin: true },
  ]);
  expect(listed.total).toBe(11);
  // The check is enforced on the fresh daemon as on the first: a bad signature refused, a good one let through.
  for (const daemon of [from, to]) {
    expect(await signedPost(daemon, 'not the secret')).toBe(401);
    expect(await signedPost(daemon, SECRET)).not.toBe(401);
  }
  // The twin answers on the fresh daemon: what a client creates there is kept.
  const made = await fetch(`${to.url}/endpoint/tw/a`, {
    method: 'POST',
    body: '{"x":1}',
    headers: { 'content-type': 'application/json' },
  });
  expect(await made.json()).toMatchObject({ id: 1, x: 1 });
  // The state's start is the fresh daemon's state and what its reset returns to.
  const state = await fetch(`${to.url}/api/endpoints/st/state`);
  expect(await state.json()).toEqual({ default: 'failed-once', order: 'paid' });
}, 60_000);
