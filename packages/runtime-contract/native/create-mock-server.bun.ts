/**
 * `createMockServer()` under `bun test` (run by ../test/native-runners.test.ts:
 * `bun test ./native/create-mock-server.bun.ts`). Not type-checked by tsc: it
 * uses Bun's own test module.
 */
import { expect, test } from 'bun:test';
import { ConnectionError } from '@mockpoint/core';
import { createMockServer } from '@mockpoint/vitest/server';
import { callClosedServer } from './closed-server.ts';

test('createMockServer() serves, journals, waits and closes on Bun', async () => {
  const mock = await createMockServer();
  const hook = await mock.add({ name: 'hook', data: { ok: true }, statusCode: 201 });
  const waiting = hook.waitForRequests({ timeout: 10_000 });
  const response = await fetch(hook.url, { method: 'POST', body: '{"order":1}' });
  expect([response.status, await response.text()]).toEqual([201, '{"ok":true}']);
  const [request] = await waiting;
  expect(request?.method).toBe('POST');
  expect(request?.body).toBe('{"order":1}');
  await mock.close();
  const error = await mock.get('hook').catch((e: unknown) => e);
  expect((error as { name: string; code: string }).name).toBe('MockServerError');
  expect((error as { code: string }).code).toBe('SERVER_CLOSED');
});

test('createMockServer({ store: "level" }) keeps endpoints in LevelDB on Bun', async () => {
  await using mock = await createMockServer({ store: 'level' });
  expect(mock.dir).toBeString();
  await mock.add({ name: 'durable', data: [1, 2, 3] });
  expect(await (await fetch(`${mock.url}/endpoint/durable`)).text()).toBe('[1,2,3]');
});

test('a network failure is a ConnectionError on Bun (its fetch errors carry a string code)', async () => {
  const { url, error } = await callClosedServer();
  expect(error).toBeInstanceOf(ConnectionError);
  expect((error as ConnectionError).code).toBe('CONNECTION_FAILED');
  expect((error as ConnectionError).url).toBe(`${url}/api/health`);
});
