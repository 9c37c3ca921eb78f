/**
 * The clock methods of the client (docs/clock.md): the app's clock, frozen,
 * set or advanced, so that a test moves time instead of sleeping.
 *
 * @module
 */
import type { ClockChange, ClockJson } from '../api/clock-json.js';
import type { Duration } from '../codec/duration.js';
import type { Transport } from './transport.js';

/** These methods of the client, over `transport` (createClient in client.ts puts the parts together). */
export function clockMethods({ call, json }: Transport) {
  return {
    /**
     * The clock of this app (this namespace's): its time, whether it is frozen,
     * and its offset from real time.
     * @example const { now } = await client.clock()
     */
    clock(): Promise<ClockJson> {
      return json('GET', '/api/clock');
    },

    /**
     * Freezes, sets or advances the clock (applied as freeze or thaw, then set,
     * then advance); resolves once every timed state move it made due is made.
     * @throws MockpointError `INVALID_CLOCK`.
     * @example await client.setClock({ freeze: true, set: '2030-01-01T00:00:00Z' })
     */
    setClock(change: ClockChange): Promise<ClockJson> {
      return json('PUT', '/api/clock', change);
    },

    /**
     * Moves the clock on by `by` (ms, or `"30s"`, `"5m"`, `"2h"`, `"1d"`): timed
     * state moves it passes are made before it resolves.
     * @throws MockpointError `INVALID_CLOCK`.
     * @example await client.advanceClock('30s')
     */
    advanceClock(by: Duration): Promise<ClockJson> {
      return json('PUT', '/api/clock', { advance: by });
    },

    /** Returns the clock to real time (running, no offset). */
    async resetClock(): Promise<void> {
      await call('DELETE', '/api/clock');
    },
  };
}
