/**
 * `createMockServer()` under `deno test` (run by ../test/native-runners.test.ts
 * with the permissions docs/runtimes.md documents). Not type-checked by tsc: it uses
 * Deno's own test API.
 */
import assert from 'node:assert/strict';
import { ConnectionError } from '@mockpoint/core';
import { createMockServer } from '@mockpoint/vitest/server';
import { callClosedServer } from './closed-server.ts';

declare const Deno: { test(name: string, fn: () => Promise<void>): void };

Deno.test('createMockServer() serves, journals, waits and closes on Deno', async () => {
  const mock = await createMockServer();
  const hook = await mock.add({ name: 'hook', data: { ok: true }, statusCode: 201 });
  const waiting = hook.waitForRequests({ timeout: 10_000 });
  const response = await fetch(hook.url, { method: 'POST', body: '{"order":1}' });
  assert.deepEqual([response.status, await response.text()], [201, '{"ok":true}']);
  const [request] = await waiting;
  assert.equal(request?.method, 'POST');
  assert.equal(request?.body, '{"order":1}');
  await mock.close();
  const error = await mock.get('hook').catch((e: unknown) => e);
  assert.equal((error as { name: string }).name, 'MockServerError');
  assert.equal((error as { code: string }).code, 'SERVER_CLOSED');
});

Deno.test('createMockServer({ store: "level" }) keeps endpoints in LevelDB on Deno', async () => {
  const mock = await createMockServer({ store: 'level' });
  try {
    assert.equal(typeof mock.dir, 'string');
    await mock.add({ name: 'durable', data: [1, 2, 3] });
    assert.equal(await (await fetch(`${mock.url}/endpoint/durable`)).text(), '[1,2,3]');
  } finally {
    await mock.close();
  }
});

Deno.test('a network failure is a ConnectionError on Deno', async () => {
  const { url, error } = await callClosedServer();
  assert.ok(error instanceof ConnectionError, String(error));
  assert.equal(error.code, 'CONNECTION_FAILED');
  assert.equal(error.url, `${url}/api/health`);
});
