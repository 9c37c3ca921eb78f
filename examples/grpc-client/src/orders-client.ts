/**
 * A small client of `shop.v1.OrderService` (proto/shop/v1/orders.proto) on Connect:
 * the generated descriptors of src/gen/ (protoc-gen-es, checked in) and one of
 * Connect's Node transports, chosen by the caller. What the application would
 * use; the test gives it mockpoint's URL.
 */
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { createClient, type Transport } from '@connectrpc/connect';
import { createConnectTransport, createGrpcWebTransport } from '@connectrpc/connect-node';
import { type Order, OrderService, OrderStatus } from './gen/shop/v1/orders_pb.js';

/** Which of Connect's protocols the client speaks over HTTP/1.1. */
export type Protocol = 'connect-json' | 'connect-binary' | 'grpc-web';

/** What the application works with: plain values, the status by name. */
export interface OrderSummary {
  id: string;
  customerId: string;
  skus: string[];
  status: keyof typeof OrderStatus;
  totalCents: bigint;
  placedAt?: Date;
}

export function transportFor(baseUrl: string, protocol: Protocol): Transport {
  if (protocol === 'grpc-web') return createGrpcWebTransport({ baseUrl, httpVersion: '1.1' });
  return createConnectTransport({ baseUrl, httpVersion: '1.1', useBinaryFormat: protocol === 'connect-binary' });
}

function summary(order: Order): OrderSummary {
  return {
    id: order.id,
    customerId: order.customerId,
    skus: order.items.map((item) => item.sku),
    status: OrderStatus[order.status] as keyof typeof OrderStatus,
    totalCents: order.totalCents,
    ...(order.placedAt === undefined ? {} : { placedAt: timestampDate(order.placedAt) }),
  };
}

export function createOrdersClient(transport: Transport) {
  const client = createClient(OrderService, transport);
  return {
    async get(id: string): Promise<OrderSummary> {
      return summary(await client.getOrder({ id }));
    },
    async place(customerId: string, items: { sku: string; quantity: number }[]): Promise<OrderSummary> {
      return summary(await client.placeOrder({ customerId, items }));
    },
  };
}
