// The daemon's own gRPC services through the app (the Fetch path: the Connect protocol): health
// answered only while a name holds definitions, following puts and deletes; reflection's
// bidirectional call with enveloped Connect JSON messages, its requests sent whole.
import { describe, expect, it } from 'vitest';
import { createApp } from '../http/create-app.js';

const PROTO =
  'syntax = "proto3";\npackage shop.v1;\nservice Orders { rpc Get(A) returns (A); }\nmessage A { string id = 1; }\n';

function check(app: ReturnType<typeof createApp>, service: string) {
  return app.request('/grpc.health.v1.Health/Check', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ service }),
  });
}

/** Connect's streaming envelopes of JSON `messages`: a flag byte, a 4-byte length, the message. */
function envelopes(messages: unknown[]): Uint8Array {
  const parts = messages.map((message) => {
    const bytes = new TextEncoder().encode(JSON.stringify(message));
    const out = new Uint8Array(5 + bytes.length);
    new DataView(out.buffer).setUint32(1, bytes.length);
    out.set(bytes, 5);
    return out;
  });
  const all = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  return all;
}

/** The JSON messages of Connect's streaming envelopes (the end-of-stream one last). */
function unenvelope(bytes: Uint8Array): { flags: number; json: unknown }[] {
  const out: { flags: number; json: unknown }[] = [];
  for (let at = 0; at < bytes.length; ) {
    const length = new DataView(bytes.buffer, bytes.byteOffset + at + 1, 4).getUint32(0);
    const text = new TextDecoder().decode(bytes.subarray(at + 5, at + 5 + length));
    out.push({ flags: bytes[at] as number, json: JSON.parse(text) });
    at += 5 + length;
  }
  return out;
}

describe("the daemon's health and reflection on the Fetch path", () => {
  it('answers health only while a name holds definitions, following puts and deletes', async () => {
    const app = createApp();
    expect((await check(app, '')).status).toBe(404);
    const put = await app.request('/api/endpoints/shop/grpc', {
      method: 'PUT',
      body: JSON.stringify({ protos: { 'a.proto': PROTO } }),
    });
    expect(put.status).toBe(201);
    expect(await (await check(app, '')).json()).toEqual({ status: 'SERVING' });
    expect(await (await check(app, 'shop.v1.Orders')).json()).toEqual({ status: 'SERVING' });
    const unknown = await check(app, 'shop.v1.Other');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'not_found', message: 'unknown service shop.v1.Other' });
    // Not journaled: they belong to no name.
    expect(((await (await app.request('/api/endpoints/shop/requests')).json()) as { requests: [] }).requests).toEqual(
      [],
    );
    expect((await app.request('/api/endpoints/shop/grpc', { method: 'DELETE' })).status).toBe(204);
    expect((await check(app, '')).status).toBe(404);
  });

  it('answers reflection requests sent whole on one Connect streaming call', async () => {
    const app = createApp();
    await app.request('/api/endpoints/shop/grpc', {
      method: 'PUT',
      body: JSON.stringify({ protos: { 'a.proto': PROTO } }),
    });
    const response = await app.request('/grpc.reflection.v1.ServerReflection/ServerReflectionInfo', {
      method: 'POST',
      headers: { 'content-type': 'application/connect+json' },
      body: envelopes([{ listServices: '' }, { fileContainingSymbol: 'shop.v1.A.id' }]),
    });
    expect(response.status).toBe(200);
    const messages = unenvelope(new Uint8Array(await response.arrayBuffer()));
    expect(messages.map(({ flags }) => flags)).toEqual([0, 0, 2]);
    const [list, file] = messages.map(({ json }) => json) as [
      { listServicesResponse: { service: { name: string }[] } },
      { fileDescriptorResponse: { fileDescriptorProto: string[] } },
    ];
    expect(list.listServicesResponse.service.map(({ name }) => name)).toEqual([
      'shop.v1.Orders',
      'grpc.health.v1.Health',
      'grpc.reflection.v1.ServerReflection',
      'grpc.reflection.v1alpha.ServerReflection',
    ]);
    expect(file.fileDescriptorResponse.fileDescriptorProto).toHaveLength(1);
  });
});
