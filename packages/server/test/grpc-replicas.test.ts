// Two daemons on one real redis-server share gRPC definitions: what one puts the other answers
// (the same bytes for the same request), a replacement that keeps the service but changes its
// output type reaches the other's answers (it compiles the new version, not its cached one), the
// sources read back exactly from either, a service held on one is refused under another name on
// the other, a delete on either is seen by both, and a replica killed with SIGKILL and started
// again serves the definitions from Redis.
import { startTestRedis, type TestRedis } from '@mockpoint/testkit/redis-server';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { assertBuilt, type Daemon, killAll, removeTempDirs, startDaemon } from './helpers/daemon.js';

let redis: TestRedis;

beforeAll(async () => {
  assertBuilt();
  redis = await startTestRedis();
});
afterEach(() => killAll());
afterAll(async () => {
  await killAll();
  await redis?.dispose();
  await removeTempDirs();
});

const ORDERS = `syntax = "proto3";
package shop.v1;
service Orders { rpc GetOrder(GetOrderRequest) returns (Order); }
message GetOrderRequest { string id = 1; }
message Order { string id = 1; repeated string items = 2; }
`;
/** The same service, its output type grown by a field. */
const ORDERS_V2 = ORDERS.replace('repeated string items = 2;', 'repeated string items = 2; string note = 3;');

const put = (daemon: Daemon, name: string, source: string) =>
  fetch(`${daemon.url}/api/endpoints/${name}/grpc`, {
    method: 'PUT',
    body: JSON.stringify({ protos: { 'shop/v1/orders.proto': source } }),
  });

async function call(daemon: Daemon, type = 'application/json', body: string | Uint8Array = '{"id":"7"}') {
  const response = await fetch(`${daemon.url}/shop.v1.Orders/GetOrder`, {
    method: 'POST',
    headers: { 'content-type': type },
    body: body as BodyInit,
  });
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()).toString('base64') };
}

const keys = async (daemon: Daemon) => {
  const answer = await call(daemon);
  return answer.status === 200
    ? Object.keys(JSON.parse(Buffer.from(answer.bytes, 'base64').toString()))
    : answer.status;
};

it('definitions put, replaced and deleted on one replica are answered, read and refused alike on the other', async () => {
  const env = { MOCKPOINT_REDIS_URL: redis.socket };
  const [a, b] = await Promise.all([startDaemon({ env }), startDaemon({ env })]);
  if (a === undefined || b === undefined) throw new Error('two replicas');

  expect((await put(a, 'shop', ORDERS)).status).toBe(201);
  await expect.poll(() => keys(b)).toEqual(['id', 'items']);
  // The same request, the same bytes from either replica (binary: field 1, "7").
  const binary = Uint8Array.of(0x0a, 0x01, 0x37);
  expect(await call(b, 'application/proto', binary)).toEqual(await call(a, 'application/proto', binary));
  expect(await (await fetch(`${b.url}/api/endpoints/shop/grpc`)).json()).toEqual({
    protos: { 'shop/v1/orders.proto': ORDERS },
    services: ['shop.v1.Orders'],
  });
  // The service belongs to `shop`, whichever replica is asked.
  const taken = await put(b, 'copy', ORDERS);
  expect(taken.status).toBe(409);
  expect(((await taken.json()) as { error: { code: string } }).error.code).toBe('SERVICE_TAKEN');

  // Replaced on B, same service: A compiles the new version.
  expect((await put(b, 'shop', ORDERS_V2)).status).toBe(200);
  await expect.poll(() => keys(a)).toEqual(['id', 'items', 'note']);
  expect(await keys(b)).toEqual(['id', 'items', 'note']);

  // A replica killed and started again serves them from Redis.
  await a.stop('SIGKILL');
  const c = await startDaemon({ env });
  expect(await keys(c)).toEqual(['id', 'items', 'note']);

  // Deleted on C: B stops answering, and the name is free for another.
  expect((await fetch(`${c.url}/api/endpoints/shop/grpc`, { method: 'DELETE' })).status).toBe(204);
  await expect.poll(() => keys(b)).toBe(404);
  expect((await put(b, 'copy', ORDERS)).status).toBe(201);
  await expect.poll(() => keys(c)).toEqual(['id', 'items']);
});
