/**
 * The namespace methods of the client (docs/sessions.md): make, list and delete
 * namespaces, and read what nothing answered. A client for one namespace is a
 * client whose `baseUrl` ends in `/ns/{ns}`, with that namespace's token.
 *
 * @module
 */
import type { CreatedNamespace, NamespaceInfo, NamespaceRequest, UnhandledRequest } from '../api/namespace-json.js';
import { seg, type Transport } from './transport.js';

/** These methods of the client, over `transport` (createClient in client.ts puts the parts together). */
export function namespaceMethods({ call, json }: Transport) {
  return {
    /**
     * Makes a namespace (a whole mockpoint at `/ns/{ns}/…`) and answers its token, shown this
     * once; `ttlMs` deletes it after that long without a request. Needs the admin token when one is set.
     * @example const { name, token } = await client.createNamespace({ ttlMs: 600_000 })
     * const session = createClient({ baseUrl: `${client.baseUrl}/ns/${name}`, token })
     */
    async createNamespace(request: Omit<NamespaceRequest, 'count'> = {}): Promise<CreatedNamespace> {
      return json<CreatedNamespace>('POST', '/api/namespaces', request);
    },

    /** Every namespace, by name. */
    async namespaces(): Promise<NamespaceInfo[]> {
      return (await json<{ namespaces: NamespaceInfo[] }>('GET', '/api/namespaces')).namespaces;
    },

    /** One namespace; `NAMESPACE_NOT_FOUND` when there is none of that name. */
    async namespace(name: string): Promise<NamespaceInfo> {
      return json<NamespaceInfo>('GET', `/api/namespaces/${seg(name)}`);
    },

    /** Deletes a namespace and everything in it; `NAMESPACE_NOT_FOUND` when there is none of that name. */
    async deleteNamespace(name: string): Promise<void> {
      await call('DELETE', `/api/namespaces/${seg(name)}`);
    },

    /** The recorded requests nothing answered (oldest first, at most 100), each with the nearest routes. */
    async unhandledRequests(): Promise<UnhandledRequest[]> {
      return (await json<{ requests: UnhandledRequest[] }>('GET', '/api/requests/unhandled')).requests;
    },
  };
}
