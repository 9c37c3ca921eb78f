// gRPC from a test: definitions set with the client's setGrpc(), calls in the Connect protocol
// (JSON over HTTP/1.1, what fetch sends) to mock.url, mock.grpcAddress, the journal filter's
// `grpc` field through waitForRequests, and the toHaveReceivedGrpc matcher.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockApi, type MockServer, mockpointMatchers } from '../src/index.js';

expect.extend(mockpointMatchers);

const ORDERS = `syntax = "proto3";
package shop.v1;
service Orders { rpc GetOrder(GetOrderRequest) returns (Order); rpc Cancel(GetOrderRequest) returns (Order); }
message GetOrderRequest { string id = 1; repeated string tags = 2; }
message Order { string id = 1; }
`;

describe('gRPC in tests', () => {
  let mock: MockServer;
  let shop: MockApi;
  const call = (method: string, message: unknown) =>
    fetch(`${mock.url}/shop.v1.Orders/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(message),
    });

  beforeAll(async () => {
    mock = await createMockServer();
    await mock.setGrpc('shop', { protos: { 'shop/v1/orders.proto': ORDERS } });
    shop = await mock.api('shop');
    expect((await call('GetOrder', { id: '7', tags: ['a'] })).status).toBe(200);
    expect((await call('Cancel', { id: '8' })).status).toBe(200);
  });
  afterAll(() => mock.close());

  it("gives the server's host:port for gRPC clients that take an address", () => {
    expect(mock.grpcAddress).toBe(new URL(mock.url).host);
    expect(mock.grpcAddress).toMatch(/^127\.0\.0\.1:\d+$/);
  });

  it('finds calls by the filter grpc field', async () => {
    const found = await shop.waitForRequests({ match: { grpc: { method: 'Cancel' } } });
    expect(found.map((entry) => entry.grpc?.message)).toEqual([{ id: '8' }]);
    const byMessage = await mock.requests('shop', {
      match: { grpc: { service: 'shop.v1.Orders', message: { tags: ['a'] } } },
    });
    expect(byMessage.map((entry) => entry.grpc?.method)).toEqual(['GetOrder']);
  });

  it('toHaveReceivedGrpc passes by method, service/method and message, and says what it received', async () => {
    await expect(shop).toHaveReceivedGrpc('GetOrder');
    await expect(shop).toHaveReceivedGrpc('shop.v1.Orders/GetOrder', { id: '7' });
    await expect(shop).toHaveReceivedGrpc('/shop.v1.Orders/Cancel', { id: expect.any(String) });
    await expect(shop).not.toHaveReceivedGrpc('GetOrder', { id: '8' });
    await expect(shop).not.toHaveReceivedGrpc('other.v1.Orders/GetOrder');
    const failure = await expect(shop)
      .toHaveReceivedGrpc('GetOrder', { id: '9' })
      .catch((e: Error) => e.message);
    expect(failure).toContain('expected endpoint "shop" to have received a gRPC call GetOrder with {"id": "9"}');
    expect(failure).toContain('received 2 gRPC calls:\n  1. shop.v1.Orders/GetOrder {"id":"7","tags":["a"]} → ok');
    await expect(expect(shop).toHaveReceivedGrpc('')).rejects.toThrow('toHaveReceivedGrpc() needs a method');
  });
});
