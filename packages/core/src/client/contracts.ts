/**
 * The contract method of the client: the journal as a Pact V4 consumer
 * contract (docs/pact.md).
 *
 * @module
 */
import type { Transport } from './transport.js';

/** What {@link contractMethods}' `pact` is asked for. */
export interface PactRequest {
  /** The consumer's name (the code under test). */
  consumer: string;
  /** The provider's name (the API the mocks stand for). */
  provider: string;
  /** Only the requests to these names (default: every name's). */
  names?: string[];
  /** Keep Authorization, Cookie, Set-Cookie and API-key headers (left out by default). */
  secrets?: boolean;
  /** Check JSON answers by type, not value (a Pact type matcher on each JSON body). */
  types?: boolean;
}

/** These methods of the client, over `transport` (createClient in client.ts puts the parts together). */
export function contractMethods({ call }: Transport) {
  return {
    /**
     * `GET /api/requests.pact`: the journal (of `names`, or every name's) as a
     * Pact V4 consumer contract's JSON text, exact (docs/pact.md): for Pact's
     * verifier to check against the real provider. Secrets are left out unless
     * `secrets` is true; what could not be an interaction is in its
     * `metadata.mockpoint.leftOut`.
     * @example const pact = JSON.parse(await client.pact({ consumer: 'web', provider: 'users-api', names: ['users'] }))
     */
    async pact(contract: PactRequest, signal?: AbortSignal): Promise<string> {
      const query = new URLSearchParams({ consumer: contract.consumer, provider: contract.provider });
      if (contract.names !== undefined && contract.names.length > 0) query.set('names', contract.names.join(','));
      if (contract.secrets === true) query.set('secrets', 'true');
      if (contract.types === true) query.set('types', 'true');
      return (await call('GET', `/api/requests.pact?${query}`, undefined, signal)).text();
    },
  };
}
