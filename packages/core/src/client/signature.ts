/**
 * The signature methods of the client: the signature check of the requests to a name.
 *
 * @module
 */
import type { SignatureInput, SignatureSchemeView, SignatureView } from '../signing/signature-settings.js';
import { seg, type Transport } from './transport.js';

/** These methods of the client, over `transport` (createClient in client.ts puts the parts together). */
export function signatureMethods({ call, json }: Transport) {
  return {
    /**
     * Checks the signature of every request to `name` (and its subpaths) from now
     * on: each journal entry gets `signature: { scheme, status, reason }`, and
     * with `enforce` a request whose signature is not valid is answered
     * `401 SIGNATURE_INVALID`. Resolves with the check as stored, secrets masked.
     * @throws MockpointError `UNKNOWN_SIGNATURE_SCHEME`, `INVALID_SIGNATURE_SECRET`, `INVALID_SIGNATURE_OPTIONS`.
     * @example await client.setSignature('hook', { scheme: 'standard', secret: 'whsec_…', enforce: true })
     */
    setSignature(name: string, check: SignatureInput): Promise<SignatureView> {
      return json('PUT', `/api/endpoints/${seg(name)}/signature`, check);
    },

    /** The signature schemes (`GET /api/signature-schemes`): the generic ones, then those of the providers loaded so far. */
    signatureSchemes(): Promise<SignatureSchemeView[]> {
      return json('GET', '/api/signature-schemes');
    },

    /** The signature check of `name`, each secret masked; throws `NOT_FOUND` when it has none. */
    getSignature(name: string): Promise<SignatureView> {
      return json('GET', `/api/endpoints/${seg(name)}/signature`);
    },

    /** Stops checking the signatures of requests to `name` (nothing happens when it had no check). */
    async clearSignature(name: string): Promise<void> {
      await call('DELETE', `/api/endpoints/${seg(name)}/signature`);
    },

    /** @deprecated Use {@link clearSignature}: the client reads every per-name setting with `get…`, puts it with `set…` and removes it with `clear…` (docs/api.md). */
    async removeSignature(name: string): Promise<void> {
      await call('DELETE', `/api/endpoints/${seg(name)}/signature`);
    },
  };
}
