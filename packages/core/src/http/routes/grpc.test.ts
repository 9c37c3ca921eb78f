import { describe, expect, it } from 'vitest';
import { createApp, type MockpointApp } from '../../index.js';

const COMMON = `syntax = "proto3";
package shop.v1;
import "google/protobuf/timestamp.proto";
message Money { string currency = 1; int64 units = 2; }
message Stamp { google.protobuf.Timestamp at = 1; }
`;
const ORDERS = `syntax = "proto3";
package shop.v1;
import "shop/v1/common.proto";
service Orders {
  rpc GetOrder(GetOrderRequest) returns (Order);
  rpc Watch(GetOrderRequest) returns (stream Order);
}
message GetOrderRequest { string id = 1; }
message Order {
  string id = 1;
  Money total = 2;
  repeated string items = 3;
  enum State { STATE_UNSPECIFIED = 0; OPEN = 1; SHIPPED = 2; }
  State state = 4;
  map<string, int32> counts = 5;
  Stamp placed = 6;
}
`;
const PROTOS = { 'shop/v1/common.proto': COMMON, 'shop/v1/orders.proto': ORDERS };

function put(app: MockpointApp, name: string, body: unknown) {
  return app.request(`/api/endpoints/${name}/grpc`, { method: 'PUT', body: JSON.stringify(body) });
}

function call(app: MockpointApp, path: string, message: unknown) {
  return app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'connect-protocol-version': '1' },
    body: JSON.stringify(message),
  });
}

describe('protobuf definitions per endpoint', () => {
  it('keeps the sources exactly and lists the services they declare', async () => {
    const app = createApp();
    const created = await put(app, 'shop', { protos: PROTOS });
    expect(created.status).toBe(201);
    const kept = await (await app.request('/api/endpoints/shop/grpc')).json();
    expect(kept).toEqual({ protos: PROTOS, services: ['shop.v1.Orders'] });
    expect((await put(app, 'shop', { protos: PROTOS })).status).toBe(200);
    expect((await app.request('/api/endpoints/shop/grpc', { method: 'DELETE' })).status).toBe(204);
    expect((await app.request('/api/endpoints/shop/grpc')).status).toBe(404);
  });

  it('refuses a bad file with INVALID_PROTO naming file, line and column; nothing is kept', async () => {
    const app = createApp();
    const bad = { ...PROTOS, 'shop/v1/orders.proto': ORDERS.replace('string id = 1; }', 'strin id = 1; }') };
    const response = await put(app, 'shop', { protos: bad });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('INVALID_PROTO');
    expect(error.message).toMatch(/^invalid proto: shop\/v1\/orders\.proto:8:\d+: /);
    expect((await app.request('/api/endpoints/shop/grpc')).status).toBe(404);
  });

  it('gives a service to one endpoint: another name claiming it is refused with SERVICE_TAKEN', async () => {
    const app = createApp();
    expect((await put(app, 'shop', { protos: PROTOS })).status).toBe(201);
    const response = await put(app, 'other', { protos: PROTOS });
    expect(response.status).toBe(409);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('SERVICE_TAKEN');
    // Once the first name lets it go, the second may take it.
    await app.request('/api/endpoints/shop', { method: 'DELETE' });
    expect((await put(app, 'other', { protos: PROTOS })).status).toBe(201);
  });

  it('refuses definitions over the limit with GRPC_DEFINITIONS_TOO_LARGE', async () => {
    const app = createApp({ maxGrpcDefinitionsBytes: 1024 });
    const big = { 'a.proto': `syntax = "proto3";\n// ${'x'.repeat(2000)}\nmessage A {}\n` };
    const response = await put(app, 'big', { protos: big });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('GRPC_DEFINITIONS_TOO_LARGE');
  });
});

describe('calls in schema mode', () => {
  it('answers a Connect JSON call with a deterministic message of the output type', async () => {
    const app = createApp();
    await put(app, 'shop', { protos: PROTOS });
    const first = await call(app, '/shop.v1.Orders/GetOrder', { id: '7' });
    expect(first.status).toBe(200);
    const order = (await first.json()) as Record<string, unknown>;
    expect(Object.keys(order).sort()).toEqual(['counts', 'id', 'items', 'placed', 'state', 'total']);
    expect(order.items).toHaveLength(2);
    expect(['OPEN', 'SHIPPED']).toContain(order.state);
    expect((order.placed as { at: string }).at).toMatch(/^20\d\d-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(typeof (order.total as { units: unknown }).units).toBe('string');
    const again = await (await call(app, '/shop.v1.Orders/GetOrder', { id: '7' })).json();
    expect(again).toEqual(order);
    const other = await (await call(app, '/shop.v1.Orders/GetOrder', { id: '8' })).json();
    expect(other).not.toEqual(order);
  });

  it('journals each call under the endpoint with its method, request message and status', async () => {
    const app = createApp();
    await put(app, 'shop', { protos: PROTOS });
    await call(app, '/shop.v1.Orders/GetOrder', { id: '7' });
    // A server-streaming call, as Connect frames it: one enveloped JSON message.
    const message = new TextEncoder().encode(JSON.stringify({ id: '8' }));
    const envelope = new Uint8Array([0, 0, 0, 0, message.length, ...message]);
    const streamed = await app.request('/shop.v1.Orders/Watch', {
      method: 'POST',
      headers: { 'content-type': 'application/connect+json', 'connect-protocol-version': '1' },
      body: envelope,
    });
    expect(streamed.status).toBe(200);
    // A stream's call is journaled once its answer has been sent.
    await streamed.arrayBuffer();
    const { requests } = (await (await app.request('/api/endpoints/shop/requests')).json()) as {
      requests: { answeredBy: string; subpath: string; grpc: unknown }[];
    };
    expect(requests.map((entry) => [entry.answeredBy, entry.subpath, entry.grpc])).toEqual([
      [
        'grpc',
        '/shop.v1.Orders/GetOrder',
        expect.objectContaining({
          service: 'shop.v1.Orders',
          method: 'GetOrder',
          protocol: 'connect',
          code: 'ok',
          message: { id: '7' },
          messages: [{ id: '7' }],
        }),
      ],
      [
        'grpc',
        '/shop.v1.Orders/Watch',
        expect.objectContaining({
          service: 'shop.v1.Orders',
          method: 'Watch',
          protocol: 'connect',
          code: 'ok',
          message: { id: '8' },
          messages: [{ id: '8' }],
        }),
      ],
    ]);
  });

  it('answers native gRPC, which needs trailers, Trailers-Only unimplemented on the Fetch path', async () => {
    const app = createApp();
    await put(app, 'shop', { protos: PROTOS });
    const response = await app.request('/shop.v1.Orders/GetOrder', {
      method: 'POST',
      headers: { 'content-type': 'application/grpc' },
      body: new Uint8Array([0, 0, 0, 0, 0]),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('grpc-status')).toBe('12');
    expect(decodeURIComponent(response.headers.get('grpc-message') ?? '')).toBe(
      'native gRPC is answered on the Node daemon over HTTP/2 only',
    );
  });

  it('lets paths that no definitions declare pass on', async () => {
    const app = createApp();
    await put(app, 'shop', { protos: PROTOS });
    expect((await call(app, '/shop.v1.Orders/Missing', {})).status).toBe(404);
    expect((await call(app, '/other.v1.Svc/Get', {})).status).toBe(404);
  });

  it("leaves a POST under the app's own prefixes to them, even when a service takes their name", async () => {
    const app = createApp();
    const reserved =
      'syntax = "proto3";\nservice endpoint { rpc x(M) returns (M); }\nservice api { rpc endpoint(M) returns (M); }\nmessage M { string id = 1; }\n';
    expect((await put(app, 'grab', { protos: { 'r.proto': reserved } })).status).toBe(201);
    await app.request('/api/endpoint/add', {
      method: 'PUT',
      body: JSON.stringify({ name: 'x', data: { hello: 'endpoint' } }),
    });
    let lookups = 0;
    const owners = app.mockpoint.endpoints.grpc.owners.bind(app.mockpoint.endpoints.grpc);
    app.mockpoint.endpoints.grpc.owners = () => {
      lookups += 1;
      return owners();
    };
    const answered = await call(app, '/endpoint/x', { id: '1' });
    expect(answered.status).toBe(200);
    expect(await answered.json()).toEqual({ hello: 'endpoint' });
    const web = await app.request('/endpoint/x', {
      method: 'POST',
      headers: { 'content-type': 'application/grpc-web+proto' },
      body: new Uint8Array([0, 0, 0, 0, 0]),
    });
    expect(await web.json()).toEqual({ hello: 'endpoint' });
    const api = await call(app, '/api/endpoint', {});
    expect(api.status).toBe(404);
    expect(lookups).toBe(0);
  });
});
