/**
 * The time of a customer on a Stripe test clock (clocks.ts): the kit of a clock's moment, whose
 * `now` is the clock's and whose new objects are `created` then, for the flows that make a
 * customer's objects (its subscriptions, invoices, prorations) at its clock's time.
 *
 * @module
 */

import type { FlowKit } from '@mockpoint/core/internal';

type Obj = Record<string, unknown>;

/** The test clock `id` names, as the twin holds it; `undefined` for none. */
export async function clockNamed(id: unknown, kit: FlowKit): Promise<Obj | undefined> {
  const found = typeof id === 'string' && id !== '' ? await kit.find(id) : undefined;
  return found?.object === 'test_helpers.test_clock' ? found : undefined;
}

/**
 * The kit of the moment `seconds` (Unix) on a test clock: its `now` that time, the objects it makes
 * `created` then.
 */
export function atClock(kit: FlowKit, seconds: number): FlowKit {
  return {
    ...kit,
    now: () => seconds * 1000,
    example: (template) => {
      const made = kit.example(template);
      if (typeof made.created === 'number') made.created = seconds;
      return made;
    },
  };
}

/** The test clock a customer is on (`undefined`: none), read from the customer the twin holds. */
export async function clockOfCustomer(customer: unknown, kit: FlowKit): Promise<Obj | undefined> {
  const found = typeof customer === 'string' ? await kit.find(customer) : undefined;
  return found?.object === 'customer' ? clockNamed(found.test_clock, kit) : undefined;
}

/** The kit of `customer`'s time: its test clock's frozen time when it is on one, else `wall`. */
export async function kitOfCustomer(customer: unknown, wall: FlowKit): Promise<FlowKit> {
  const clock = await clockOfCustomer(customer, wall);
  return clock === undefined ? wall : atClock(wall, Number(clock.frozen_time));
}
