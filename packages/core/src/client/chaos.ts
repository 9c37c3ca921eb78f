/**
 * The chaos methods of the client: a share of a name's (or every name's of the
 * namespace) requests answered with an injected fault, a latency, a seed (docs/chaos.md).
 *
 * @module
 */
import type { ChaosSettings } from '../api/chaos.js';
import { seg, type Transport } from './transport.js';

/** These methods of the client, over `transport` (createClient in client.ts puts the parts together). */
export function chaosMethods({ call, json }: Transport) {
  return {
    /**
     * Injects faults into a share (`rate`) of the requests to `name` from now on,
     * each drawn from `faults`, and adds `latency` to every answer; with `seed`
     * the same sequence of decisions every time it is set; `bandwidth` (bytes/s)
     * sends every body at that rate. Each injected fault
     * is journaled (`answeredBy: { chaos }`). Resolves with the chaos as stored.
     * @throws MockpointError `INVALID_CHAOS`, `INVALID_LATENCY`.
     * @example await client.setChaos('api', { rate: 0.2, faults: ['503', 'reset'], seed: 7 })
     */
    setChaos(name: string, chaos: ChaosSettings): Promise<ChaosSettings> {
      return json('PUT', `/api/endpoints/${seg(name)}/chaos`, chaos);
    },

    /** The chaos of `name`; throws `NOT_FOUND` when it has none. */
    getChaos(name: string): Promise<ChaosSettings> {
      return json('GET', `/api/endpoints/${seg(name)}/chaos`);
    },

    /** @deprecated Use {@link getChaos}: the client reads every per-name setting with `get…`, puts it with `set…` and removes it with `clear…` (docs/api.md). */
    chaos(name: string): Promise<ChaosSettings> {
      return json('GET', `/api/endpoints/${seg(name)}/chaos`);
    },

    /** Stops the chaos of `name` (nothing happens when it had none). */
    async clearChaos(name: string): Promise<void> {
      await call('DELETE', `/api/endpoints/${seg(name)}/chaos`);
    },

    /**
     * Chaos for every endpoint of this namespace (the client's; the default
     * namespace for a plain client) that has none of its own: an endpoint's own
     * chaos wins. One seeded sequence of decisions for all of them. Each injected
     * fault is journaled (`answeredBy: { chaos, namespace: true }`).
     * @throws MockpointError `INVALID_CHAOS`, `INVALID_LATENCY`.
     * @example await client.setNamespaceChaos({ rate: 0.1, faults: ['503', 'timeout'], seed: 1 })
     */
    setNamespaceChaos(chaos: ChaosSettings): Promise<ChaosSettings> {
      return json('PUT', '/api/chaos', chaos);
    },

    /** The namespace's chaos; throws `NOT_FOUND` when it has none. */
    getNamespaceChaos(): Promise<ChaosSettings> {
      return json('GET', '/api/chaos');
    },

    /** @deprecated Use {@link getNamespaceChaos}: the client reads every per-name setting with `get…`, puts it with `set…` and removes it with `clear…` (docs/api.md). */
    namespaceChaos(): Promise<ChaosSettings> {
      return json('GET', '/api/chaos');
    },

    /** Stops the namespace's chaos (endpoints' own chaos stays). */
    async clearNamespaceChaos(): Promise<void> {
      await call('DELETE', '/api/chaos');
    },
  };
}
