// The orders client (src/orders-client.ts, Connect with generated descriptors)
// against mockpoint in schema mode: the test puts the service's .proto source
// under a name, and every method answers a deterministic message of its output
// type, on each of Connect's protocols over HTTP/1.1. The journal keeps each
// call with its request message in proto3 JSON.
import { readFile } from 'node:fs/promises';
import { Code, ConnectError } from '@connectrpc/connect';
import { expect, it, useMockServer } from '@mockpoint/vitest';
import { createOrdersClient, type Protocol, transportFor } from './orders-client.js';

const mock = useMockServer({ resetAfterEach: true });

/** The fake order service: the .proto the client was generated from, held by the name `orders`. */
async function fakeOrderService() {
  const source = await readFile(new URL('../proto/shop/v1/orders.proto', import.meta.url), 'utf8');
  const put = await mock.setGrpc('orders', { protos: { 'shop/v1/orders.proto': source } });
  expect(put.services).toEqual(['shop.v1.OrderService']);
}

it('gets an order: a message of the output type, the same for the same request on every protocol', async () => {
  await fakeOrderService();
  const answers = [];
  for (const protocol of ['connect-json', 'connect-binary', 'grpc-web'] satisfies Protocol[]) {
    answers.push(await createOrdersClient(transportFor(mock.url, protocol)).get('o-17'));
  }
  const [order] = answers;
  // Schema mode: strings are words, repeated fields hold two, enums a value other than the zero one.
  expect(order?.skus).toHaveLength(2);
  expect(['PLACED', 'SHIPPED']).toContain(order?.status);
  expect(typeof order?.totalCents).toBe('bigint');
  expect(order?.placedAt?.getUTCFullYear()).toBeGreaterThanOrEqual(2020);
  for (const answer of answers) expect(answer).toEqual(order);
  // Another request, another order.
  expect(await createOrdersClient(transportFor(mock.url, 'connect-json')).get('o-18')).not.toEqual(order);
});

it('journals each call: service, method, protocol, the request message in proto3 JSON, the status', async () => {
  await fakeOrderService();
  const orders = createOrdersClient(transportFor(mock.url, 'connect-binary'));
  await orders.place('c-1', [{ sku: 'tea', quantity: 2 }]);
  const [call] = await mock.requests('orders');
  expect(call).toMatchObject({
    method: 'POST',
    subpath: '/shop.v1.OrderService/PlaceOrder',
    answeredBy: 'grpc',
    grpc: {
      service: 'shop.v1.OrderService',
      method: 'PlaceOrder',
      protocol: 'connect',
      message: { customerId: 'c-1', items: [{ sku: 'tea', quantity: 2 }] },
      code: 'ok',
    },
  });
});

it('a service no name holds is not answered as gRPC: Connect reads its 404 as unimplemented', async () => {
  const error = await createOrdersClient(transportFor(mock.url, 'connect-json'))
    .get('o-17')
    .catch((e: unknown) => ConnectError.from(e));
  expect(error).toBeInstanceOf(ConnectError);
  expect((error as ConnectError).code).toBe(Code.Unimplemented);
});
