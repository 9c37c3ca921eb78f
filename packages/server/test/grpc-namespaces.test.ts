// gRPC calls in namespaces, against the built daemon: definitions put under
// /ns/{ns}/api/endpoints/{name}/grpc live in that namespace; a call carrying the metadata
// `mockpoint-session: {ns}` (grpc-js over --https; Connect over HTTP/1.1, also by the `baggage`
// entry) reaches that namespace's definitions and journal; the same service is held in two
// namespaces at once; reflection and health in a namespace see its services only. Every process
// listens on 127.0.0.1.

import { readFile } from 'node:fs/promises';
import * as grpc from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { type Daemon, startDaemon, useDaemons } from './helpers/daemon.js';

useDaemons();

const protoOf = (pkg: string) => `syntax = "proto3";
package ${pkg};
service Orders { rpc GetOrder(GetOrderRequest) returns (GetOrderRequest); }
message GetOrderRequest { string id = 1; }
`;

async function send(
  daemon: Daemon,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${daemon.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>) };
}

/** The protobuf bytes of a message whose field 1 is the string `id` (`GetOrderRequest`, `HealthCheckRequest`). */
function idMessage(id: string): Buffer {
  const bytes = Buffer.from(id, 'utf8');
  return Buffer.concat([Buffer.from([0x0a, bytes.length]), bytes]);
}

describe('gRPC in namespaces', () => {
  it('serves a namespace its own definitions by the mockpoint-session metadata, the same service in two', async () => {
    const daemon = await startDaemon({ args: ['--memory', '--https', '--https-port', '0'] });
    for (const ns of ['alpha', 'beta']) {
      expect((await send(daemon, 'POST', '/api/namespaces', { name: ns })).status).toBe(201);
      const put = await send(daemon, 'PUT', `/ns/${ns}/api/endpoints/shop/grpc`, {
        protos: { 'orders.proto': protoOf('shop.v1') },
      });
      expect(put.status).toBe(201);
    }
    // The default namespace holds none: the call path is no call there.
    expect((await send(daemon, 'POST', '/shop.v1.Orders/GetOrder', { id: '1' })).status).toBe(404);
    expect((await send(daemon, 'GET', '/api/endpoints/shop/grpc')).status).toBe(404);

    // Connect, by the header and by the baggage entry.
    const viaHeader = await send(
      daemon,
      'POST',
      '/shop.v1.Orders/GetOrder',
      { id: 'a' },
      { 'mockpoint-session': 'alpha' },
    );
    expect(viaHeader.status).toBe(200);
    const viaBaggage = await send(
      daemon,
      'POST',
      '/shop.v1.Orders/GetOrder',
      { id: 'b' },
      {
        baggage: 'mockpoint-session=beta',
      },
    );
    expect(viaBaggage.status).toBe(200);

    // grpc-js, by metadata, over --https.
    const https = daemon.notes.find((note) => note.startsWith('https on '))?.match(/https:\/\/\S+/)?.[0] as string;
    const caFile = daemon.notes.find((note) => note.startsWith('local CA '))?.match(/NODE_EXTRA_CA_CERTS=(\S+)/)?.[1];
    const client = new grpc.Client(new URL(https).host, grpc.credentials.createSsl(await readFile(caFile as string)));
    const call = (ns: string | undefined, path: string, id = 'g') =>
      new Promise<string>((resolve) => {
        const metadata = new grpc.Metadata();
        if (ns !== undefined) metadata.set('mockpoint-session', ns);
        client.makeUnaryRequest(
          path,
          (id: string) => idMessage(id),
          (bytes: Buffer) => bytes,
          id,
          metadata,
          (error) => resolve(error ? `error ${error.code}` : 'ok'),
        );
      });
    try {
      expect(await call('alpha', '/shop.v1.Orders/GetOrder')).toBe('ok');
      expect(await call('beta', '/shop.v1.Orders/GetOrder')).toBe('ok');
      expect(await call(undefined, '/shop.v1.Orders/GetOrder')).not.toBe('ok');
      // Health in a namespace knows its services (a HealthCheckRequest's field 1 is its service too).
      expect(await call('alpha', '/grpc.health.v1.Health/Check', 'shop.v1.Orders')).toBe('ok');
      expect(await call('alpha', '/grpc.health.v1.Health/Check', 'other.v1.Orders')).toBe(
        `error ${grpc.status.NOT_FOUND}`,
      );
    } finally {
      client.close();
    }

    // Each namespace journals its own calls only.
    const journal = async (ns: string) => {
      const read = await send(daemon, 'GET', `/ns/${ns}/api/endpoints/shop/requests`);
      return ((read.json?.requests ?? []) as { grpc: { protocol: string; message: unknown } }[]).map(
        ({ grpc: mark }) => [mark.protocol, mark.message],
      );
    };
    await expect
      .poll(() => journal('alpha'))
      .toEqual([
        ['connect', { id: 'a' }],
        ['grpc', { id: 'g' }],
      ]);
    await expect
      .poll(() => journal('beta'))
      .toEqual([
        ['connect', { id: 'b' }],
        ['grpc', { id: 'g' }],
      ]);
  });

  it("answers health in a namespace by the namespace's services", async () => {
    const daemon = await startDaemon({ args: ['--memory'] });
    expect((await send(daemon, 'POST', '/api/namespaces', { name: 'gamma' })).status).toBe(201);
    expect(
      (await send(daemon, 'PUT', '/ns/gamma/api/endpoints/shop/grpc', { protos: { 'a.proto': protoOf('gamma.v1') } }))
        .status,
    ).toBe(201);
    expect(
      (await send(daemon, 'PUT', '/api/endpoints/shop/grpc', { protos: { 'a.proto': protoOf('main.v1') } })).status,
    ).toBe(201);
    const check = (service: string, headers: Record<string, string>) =>
      send(daemon, 'POST', '/grpc.health.v1.Health/Check', { service }, headers);
    expect((await check('gamma.v1.Orders', { 'mockpoint-session': 'gamma' })).json).toEqual({ status: 'SERVING' });
    expect((await check('main.v1.Orders', { 'mockpoint-session': 'gamma' })).json?.code).toBe('not_found');
    expect((await check('main.v1.Orders', {})).json).toEqual({ status: 'SERVING' });
    // By the path prefix too.
    expect(
      (await send(daemon, 'POST', '/ns/gamma/grpc.health.v1.Health/Check', { service: 'gamma.v1.Orders' })).json,
    ).toEqual({ status: 'SERVING' });
  });
});
