/**
 * The delivery methods of the client: webhooks sent to a receiver under test, and their outcome.
 *
 * @module
 */
import type { Delivery, DeliveryInput, DeliveryPage } from '../api/delivery-json.js';
import { MockpointError } from '../registry/errors.js';
import { DEFAULT_WAIT_MS, MAX_POLL_MS, seg, type Transport } from './transport.js';

/** These methods of the client, over `transport` (createClient in client.ts puts the parts together). */
export function deliveryMethods({ json }: Transport) {
  return {
    /**
     * Sends a webhook to a receiver under test (`POST /api/deliveries`): signed
     * afresh on every attempt, retried on its schedule, tampered with when asked.
     * Resolves at once with the delivery (`pending`); {@link waitForDelivery}
     * waits for its outcome. `data` may be a {@link JsonText} for exact bytes.
     * @example
     * const sent = await client.deliver({ url: 'http://127.0.0.1:3000/webhooks', data: { type: 'order.paid' },
     *   sign: { scheme: 'standard', secret: 'whsec_…' }, retry: { delaysMs: [100, 500] } })
     * const done = await client.waitForDelivery(sent.id) // done.state: 'delivered' | 'failed'
     */
    async deliver(input: DeliveryInput): Promise<Delivery> {
      return json<Delivery>('POST', '/api/deliveries', input);
    },

    /** One delivery with every attempt so far. */
    async delivery(id: string): Promise<Delivery> {
      return json<Delivery>('GET', `/api/deliveries/${seg(id)}`);
    },

    /** Recent deliveries, newest first. */
    async deliveries(options: { limit?: number } = {}): Promise<Delivery[]> {
      const qs = options.limit === undefined ? '' : `?limit=${options.limit}`;
      return (await json<DeliveryPage>('GET', `/api/deliveries${qs}`)).deliveries;
    },

    /** Cancels a pending delivery; `DELIVERY_FINISHED` when it is no longer pending. */
    async cancelDelivery(id: string): Promise<Delivery> {
      return json<Delivery>('DELETE', `/api/deliveries/${seg(id)}`);
    },

    /**
     * Waits until a delivery is no longer pending (delivered, failed or
     * cancelled) and resolves it with every attempt; throws `WAIT_TIMEOUT`,
     * saying what the attempts got, when it is still pending after `timeout` ms.
     */
    async waitForDelivery(id: string, wait: { timeout?: number; signal?: AbortSignal } = {}): Promise<Delivery> {
      const timeout = wait.timeout ?? DEFAULT_WAIT_MS;
      const deadline = Date.now() + timeout;
      for (;;) {
        wait.signal?.throwIfAborted();
        const remaining = Math.max(0, deadline - Date.now());
        const qs = `?wait=${Math.min(remaining, MAX_POLL_MS)}`;
        const delivery = await json<Delivery>('GET', `/api/deliveries/${seg(id)}${qs}`, undefined, wait.signal);
        if (delivery.state !== 'pending') return delivery;
        wait.signal?.throwIfAborted();
        if (Date.now() >= deadline) {
          const got = delivery.attempts.map((a) => a.error?.code ?? String(a.status)).join(', ') || 'no attempt yet';
          throw new MockpointError(
            'WAIT_TIMEOUT',
            `delivery ${id} is still pending after ${timeout} ms (attempts: ${got}; next at ${delivery.nextAttemptAt ?? 'unknown'})`,
          );
        }
      }
    },
  };
}
