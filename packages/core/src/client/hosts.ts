/**
 * The host methods of the client: hosts mapped to an endpoint (docs/https.md).
 *
 * @module
 */
import type { HostEntry } from '../pattern/host-mapping.js';
import { seg, type Transport } from './transport.js';

/** These methods of the client, over `transport` (createClient in client.ts puts the parts together). */
export function hostMethods({ call, json }: Transport) {
  const hostsOf = async (name: string): Promise<HostEntry[]> =>
    (await json<{ hosts: HostEntry[] }>('GET', `/api/endpoints/${seg(name)}/hosts`)).hosts;
  const clearHostsOf = async (name: string): Promise<void> => {
    await call('DELETE', `/api/endpoints/${seg(name)}/hosts`);
  };
  return {
    /**
     * Every host mapped to an endpoint (docs/https.md): those of `MOCKPOINT_HOSTS`
     * (`source: 'settings'`) and those set through the API or a mock file (`'api'`), in host order.
     */
    async hosts(): Promise<HostEntry[]> {
      return (await json<{ hosts: HostEntry[] }>('GET', '/api/hosts')).hosts;
    },

    /** The hosts mapped to `name` (an empty list when none). */
    getHosts: hostsOf,

    /** @deprecated Use {@link getHosts}: the client reads every per-name setting with `get…`, puts it with `set…` and removes it with `clear…` (docs/api.md). */
    hostsOf,

    /**
     * Replaces the hosts the API maps to `name` (`api.github.com`, `*.stripe.com`; those of
     * `MOCKPOINT_HOSTS` stay) and answers its mappings now; `HOST_TAKEN` when another name has one.
     * Kept in the daemon's store (durable with LevelDB or Redis) until removed, with the name, or by `DELETE /api/endpoints`.
     * @example await client.setHosts('github', ['api.github.com'])
     */
    async setHosts(name: string, hosts: readonly string[]): Promise<HostEntry[]> {
      return (await json<{ hosts: HostEntry[] }>('PUT', `/api/endpoints/${seg(name)}/hosts`, { hosts })).hosts;
    },

    /** Removes the hosts the API mapped to `name` (nothing happens when it had none). */
    clearHosts: clearHostsOf,

    /** @deprecated Use {@link clearHosts}: the client reads every per-name setting with `get…`, puts it with `set…` and removes it with `clear…` (docs/api.md). */
    removeHosts: clearHostsOf,
  };
}
