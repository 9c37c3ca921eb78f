/**
 * The Stripe twin's tests' helpers: a daemon with a Stripe twin and a stripe-node client for it,
 * and a webhook endpoint whose deliveries are each verified by `stripe.webhooks.constructEvent`.
 *
 * @module
 */
import Stripe from 'stripe';
import { hookReceiver, type TwinStore, twinDaemon } from './twin.js';

/** A daemon with a Stripe twin at the root of its own port, a stripe-node client, and the root's URL. */
export async function stripeTwin(store: TwinStore): Promise<{ stripe: Stripe; root: string }> {
  const { root, port } = await twinDaemon('stripe', store);
  return {
    stripe: new Stripe('sk_test_123', { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 }),
    root,
  };
}

/** A webhook endpoint of the twin and the receiver on 127.0.0.1 behind it. */
export interface StripeWebhooks {
  endpoint: Stripe.WebhookEndpoint;
  /** The deliveries taken so far, each verified by its signature, as they came. */
  received(): Stripe.Event[];
  /** The first `count` events received, verified, in the order the twin made them. */
  until(count: number): Promise<Stripe.Event[]>;
  close(): Promise<void>;
}

/** A webhook receiver on 127.0.0.1 subscribed to `events`, each delivery verified by constructEvent. */
export async function stripeWebhooks(stripe: Stripe, events: string[]): Promise<StripeWebhooks> {
  const receiver = await hookReceiver();
  const endpoint = await stripe.webhookEndpoints.create({
    url: receiver.url,
    enabled_events: events as Stripe.WebhookEndpointCreateParams.EnabledEvent[],
  });
  const received = () =>
    receiver.received.map(({ body, headers }) =>
      stripe.webhooks.constructEvent(body, String(headers['stripe-signature']), endpoint.secret as string),
    );
  return {
    endpoint,
    received,
    // Deliveries are sent concurrently, so they may arrive out of the order the twin made them
    // (its `GET /v1/events`, newest first), as Stripe's do ("Stripe doesn't guarantee delivery of
    // events in the order in which they're generated"). Once on Redis under load, invoice.paid came
    // after checkout.session.completed.
    async until(count) {
      await receiver.until(count);
      const made = (await stripe.events.list({ limit: 100 })).data.map((event) => event.id).reverse();
      const at = (event: Stripe.Event) => {
        const index = made.indexOf(event.id);
        if (index === -1) throw new Error(`${event.type} ${event.id} was received but is not among the twin's events`);
        return index;
      };
      return received().sort((a, b) => at(a) - at(b));
    },
    close: receiver.close,
  };
}

/** A monthly Price of `amount` cents in USD, its product made with it. */
export function monthlyPrice(stripe: Stripe, amount: number, name = `Plan ${amount}`): Promise<Stripe.Price> {
  return stripe.prices.create({
    product_data: { name },
    unit_amount: amount,
    currency: 'usd',
    recurring: { interval: 'month' },
  });
}

/**
 * A calendar month after `seconds` (UTC) as Stripe bills one: the same day of the next month,
 * clamped to its last day, the time of day kept (Jan 31 → Feb 28).
 */
export function aMonthOn(seconds: number): number {
  const at = new Date(seconds * 1000);
  const next = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
  const last = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(at.getUTCDate(), last));
  next.setUTCHours(at.getUTCHours(), at.getUTCMinutes(), at.getUTCSeconds());
  return next.getTime() / 1000;
}
