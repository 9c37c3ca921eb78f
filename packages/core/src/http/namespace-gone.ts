/**
 * A namespace's app answering while the namespace is deleted: a request that was
 * under way when its parts closed fails in the store (`STORE_UNAVAILABLE`). When
 * the namespace is gone by then, that is what the request is told — `404
 * NAMESPACE_NOT_FOUND`, as a request a moment later is — never a 503 saying
 * the store is closed.
 *
 * @module
 */
import { MockpointError } from '../registry/errors.js';
import type { AppNamespace } from './auth.js';

/** The error a request of namespace `name` gets once the namespace is deleted. */
export function namespaceGone(name: string): MockpointError {
  return new MockpointError(
    'NAMESPACE_NOT_FOUND',
    `no namespace "${name}": it was deleted while this request was under way; make it again with POST /api/namespaces`,
  );
}

/**
 * `error`, or {@link namespaceGone} when it is a store's failure and `namespace`
 * has been deleted meanwhile (asked of the registry; if that cannot say, `error`).
 */
export async function unlessNamespaceGone(error: MockpointError, namespace: AppNamespace): Promise<MockpointError> {
  if (error.code !== 'STORE_UNAVAILABLE' || namespace.gone === undefined) return error;
  const gone = await namespace.gone().catch(() => false);
  return gone ? namespaceGone(namespace.name) : error;
}
