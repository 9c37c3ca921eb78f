/**
 * gRPC calls on the web page, in a real browser against a real daemon: a name with protobuf
 * definitions and a call's route lists the route by service and method (it read "ANY any path"),
 * its notice says what answers a call no route takes (schema mode, not 404 NO_ROUTE_MATCHED), a
 * binary gRPC-Web call's row shows its request message in proto3 JSON (it read "binary data,
 * 10 B"), and every call shows its `grpc service/method code` mark, whoever answered it (before,
 * schema-mode calls only). Service and method come from the journal's grpc mark, not the path.
 */
import { CHAT_PROTO } from '@mockpoint/testkit/grpc-protos';
import { expect, test } from 'vitest';
import { poll, useWebTest } from './web-support.js';

const web = useWebTest();

/** `{ text }` as an `Ask` (field 1, a string) in one gRPC-Web data frame. */
function askFrame(text: string): Uint8Array<ArrayBuffer> {
  const bytes = new TextEncoder().encode(text);
  const message = [0x0a, bytes.length, ...bytes];
  return Uint8Array.from([0, 0, 0, 0, message.length, ...message]);
}

test('routes by service and method, the notice for calls, each call with its message and mark', async () => {
  const url = web.server.url;
  const grpc = await fetch(`${url}/api/endpoints/chat/grpc`, {
    method: 'PUT',
    body: JSON.stringify({ protos: { 'chat.proto': CHAT_PROTO } }),
  });
  expect(grpc.status).toBe(201);
  const routes = await fetch(`${url}/api/endpoints/chat/routes`, {
    method: 'PUT',
    body: JSON.stringify({
      routes: [
        {
          id: 'get-route',
          match: { grpc: { service: 'chat.v1.Chat', method: 'Get', message: { text: 'route' } } },
          answer: { grpc: { message: { text: 'from the route' } } },
        },
        { id: 'any-call', match: { grpc: { method: 'Upload' } }, answer: { grpc: { status: { code: 'not_found' } } } },
      ],
    }),
  });
  expect(routes.status).toBe(200);
  // A binary gRPC-Web call no route takes (schema mode), then a Connect call the route answers.
  const native = await fetch(`${url}/chat.v1.Chat/Get`, {
    method: 'POST',
    headers: { 'content-type': 'application/grpc-web+proto', 'x-grpc-web': '1' },
    body: askFrame('yo'),
  });
  expect(native.status).toBe(200);
  await native.arrayBuffer();
  const routed = await fetch(`${url}/chat.v1.Chat/Get`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text: 'route' }),
  });
  expect(await routed.json()).toEqual({ text: 'from the route' });

  const { page, problems } = await web.open();
  await page.goto(`${url}/#/e/chat`);
  await poll(() => page.locator('.route-list .route-match').allTextContents()).toEqual([
    'gRPC chat.v1.Chat/Get',
    'gRPC any service/Upload',
  ]);
  await expect(page.locator('.missing').textContent()).resolves.toContain(
    'A gRPC call no route takes is answered in schema mode',
  );
  await poll(() => page.locator('.body-preview').allTextContents()).toEqual(['{"text":"route"}', '{"text":"yo"}']);
  const marks = await page.locator('.grpc-call').allTextContents();
  expect(marks).toEqual(['grpc chat.v1.Chat/Get ok', 'grpc chat.v1.Chat/Get ok']);
  // Who answered stays said: the route for one, schema mode for the other.
  const meta = await page.locator('.entry-meta').allTextContents();
  expect(meta[0]).toContain('route get-route');
  expect(meta[1]).toContain('schema');
  expect(problems).toEqual([]);
});
