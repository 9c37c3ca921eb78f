// What an endpoint reset, an endpoint delete and a full delete do to its gRPC
// definitions on the built daemon, on the memory store and on the LevelDB
// store: a reset (collections and state back to their seed) keeps them as it
// keeps the routes; a delete removes them, so the name is as new — its calls
// pass on (Connect 404, native gRPC UNIMPLEMENTED), health answers for no one,
// and another name may take its services.

import { Code, ConnectError, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { describe, expect, it } from 'vitest';
import { type Daemon, makeTempDir, useDaemons } from './helpers/daemon.js';
import { CHAT, chatDaemon, chatService } from './helpers/grpc.js';

useDaemons();

async function send(daemon: Daemon, method: string, path: string, body?: unknown): Promise<number> {
  const response = await fetch(`${daemon.url}${path}`, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await response.text();
  return response.status;
}

/** A unary Connect JSON call to `chat.v1.Chat/Get`; resolves its HTTP status. */
async function get(daemon: Daemon): Promise<number> {
  const response = await fetch(`${daemon.url}/chat.v1.Chat/Get`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'connect-protocol-version': '1' },
    body: JSON.stringify({ text: 'a' }),
  });
  await response.text();
  return response.status;
}

/** The same call over native gRPC (HTTP/2 cleartext): `ok`, or the code it failed with. */
async function nativeGet(daemon: Daemon): Promise<Code | 'ok'> {
  const client = createClient(chatService(), createGrpcTransport({ baseUrl: daemon.url })) as unknown as {
    get(request: { text: string }): Promise<unknown>;
  };
  try {
    await client.get({ text: 'a' });
    return 'ok';
  } catch (error) {
    return ConnectError.from(error).code;
  }
}

const protos = { protos: { 'chat.proto': CHAT } };

describe.each([
  ['memory', async () => ['--memory']],
  ['LevelDB', async () => ['--data-dir', await makeTempDir()]],
])('gRPC definitions through a reset and a delete (%s store)', (_store, args) => {
  it('a reset keeps them; a delete leaves the name as new', async () => {
    const daemon = await chatDaemon({ args: await args(), record: { data: { ok: true } } });
    expect(await get(daemon)).toBe(200);
    expect(await nativeGet(daemon)).toBe('ok');

    expect(await send(daemon, 'POST', '/api/endpoints/chat/reset')).toBe(204);
    expect(await send(daemon, 'GET', '/api/endpoints/chat/grpc')).toBe(200);
    expect(await get(daemon)).toBe(200);

    expect(await send(daemon, 'DELETE', '/api/endpoints/chat')).toBe(204);
    expect(await send(daemon, 'GET', '/api/endpoints/chat/grpc')).toBe(404);
    expect(await get(daemon)).toBe(404);
    expect(await nativeGet(daemon)).toBe(Code.Unimplemented);
    expect(await send(daemon, 'POST', '/grpc.health.v1.Health/Check', {})).toBe(404);
    expect(await send(daemon, 'PUT', '/api/endpoints/chat', { data: { ok: true } })).toBe(201);
    expect(await send(daemon, 'GET', '/api/endpoints/chat/grpc')).toBe(404);
    expect(await get(daemon)).toBe(404);

    expect(await send(daemon, 'PUT', '/api/endpoints/other/grpc', protos)).toBe(201);
    expect(await get(daemon)).toBe(200);
    expect(await send(daemon, 'DELETE', '/api/endpoints')).toBe(204);
    expect(await send(daemon, 'GET', '/api/endpoints/other/grpc')).toBe(404);
    expect(await get(daemon)).toBe(404);
    expect(await nativeGet(daemon)).toBe(Code.Unimplemented);
  });
});
