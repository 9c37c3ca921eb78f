/**
 * The state methods of the client: a name's scenarios, and resets to the seed.
 *
 * @module
 */
import { seg, type Transport } from './transport.js';

/** These methods of the client, over `transport` (createClient in client.ts puts the parts together). */
export function stateMethods({ call, json }: Transport) {
  const stateOf = (name: string): Promise<Record<string, string>> => json('GET', `/api/endpoints/${seg(name)}/state`);
  return {
    /**
     * Returns the collections of `name` to their seed and its state to its start
     * (its routes, record and queue stay); with `journal: true` also forgets the
     * requests recorded for it.
     */
    async resetEndpoint(name: string, options: { journal?: boolean } = {}): Promise<void> {
      await call('POST', `/api/endpoints/${seg(name)}/reset${options.journal ? '?journal=true' : ''}`);
    },

    /**
     * Returns every name's collections to their seed and state to its start, and
     * the clock to real time (routes, records, queues and chaos stay); with `journal: true` also forgets every
     * recorded request. What `useMockServer({ resetBetweenTests: true })` does after each test.
     */
    async resetAll(options: { journal?: boolean } = {}): Promise<void> {
      await call('POST', `/api/reset${options.journal ? '?journal=true' : ''}`);
    },

    /**
     * The scenarios of `name` (docs/state.md): every one its routes look at or
     * move, and every one set or moved, at its value (`started` when never moved).
     * @example expect(await client.getState('api')).toEqual({ default: 'paid' })
     */
    getState: stateOf,

    /** @deprecated Use {@link getState}: the client reads every per-name setting with `get…`, puts it with `set…` and removes it with `clear…` (docs/api.md). */
    state: stateOf,

    /**
     * Sets the scenarios of `name` (a value of the `default` scenario, or
     * scenario → value; those left out are at `started`); what is set is also
     * the start {@link resetEndpoint} returns to.
     * @throws MockpointError `INVALID_STATE`.
     * @example await client.setState('api', { checkout: 'paid' })
     */
    setState(name: string, state: string | Record<string, string>): Promise<Record<string, string>> {
      return json('PUT', `/api/endpoints/${seg(name)}/state`, typeof state === 'string' ? { default: state } : state);
    },
  };
}
