/**
 * A small shop: it takes a payment with Stripe Checkout (a Checkout Session
 * for the order's items) and fulfils the order when Stripe says the session is
 * complete (`checkout.session.completed`, its signature checked with
 * `stripe.webhooks.constructEvent`). Nothing here knows about mockpoint.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Stripe from 'stripe';

export interface Item {
  name: string;
  /** In cents. */
  unitAmount: number;
  quantity: number;
}

export interface Order {
  id: string;
  status: 'pending' | 'paid';
  session: string;
  amountPaid?: number;
}

export interface Shop {
  /** Opens Checkout for an order: the URL to send the customer to. */
  checkout(orderId: string, items: Item[]): Promise<string>;
  order(id: string): Order | undefined;
  /** Resolves once the order is paid. */
  fulfilled(id: string): Promise<Order>;
  /** The URL Stripe sends its events to. */
  readonly webhookUrl: string;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Starts the shop's webhook listener on 127.0.0.1; `secret()` gives the endpoint's `whsec_` secret. */
export async function startShop(stripe: Stripe, secret: () => string): Promise<Shop> {
  const orders = new Map<string, Order>();
  const waiting = new Map<string, (order: Order) => void>();

  function fulfil(session: Stripe.Checkout.Session): void {
    const order = orders.get(session.client_reference_id ?? '');
    if (order === undefined || order.status === 'paid' || session.payment_status !== 'paid') return;
    order.status = 'paid';
    order.amountPaid = session.amount_total ?? 0;
    waiting.get(order.id)?.(order);
  }

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(
          Buffer.concat(chunks),
          String(request.headers['stripe-signature']),
          secret(),
        );
      } catch {
        response.writeHead(400).end('bad signature');
        return;
      }
      if (event.type === 'checkout.session.completed') fulfil(event.data.object);
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return {
    webhookUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/stripe/webhook`,
    async checkout(orderId, items) {
      const session = await stripe.checkout.sessions.create({
        mode: 'payment',
        client_reference_id: orderId,
        line_items: items.map((item) => ({
          price_data: { currency: 'usd', unit_amount: item.unitAmount, product_data: { name: item.name } },
          quantity: item.quantity,
        })),
        success_url: 'https://shop.example.com/thanks',
      });
      orders.set(orderId, { id: orderId, status: 'pending', session: session.id });
      return session.url ?? '';
    },
    order: (id) => orders.get(id),
    fulfilled(id) {
      const order = orders.get(id);
      if (order?.status === 'paid') return Promise.resolve(order);
      return new Promise((resolve) => waiting.set(id, resolve));
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
