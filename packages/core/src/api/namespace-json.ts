/**
 * What the namespace routes answer (`/api/namespaces`, `/api/requests/unhandled`),
 * shared by the routes and the client.
 *
 * @module
 */

/** A namespace as the API lists it. */
export interface NamespaceInfo {
  name: string;
  /** Deleted after this many milliseconds without a request. */
  ttlMs?: number;
  /** When it was made (ISO 8601). */
  createdAt: string;
  /** When a request last reached it, to within a second (ISO 8601). */
  usedAt: string;
  /**
   * `GET /api/namespaces/{ns}` only: whether its app is made in the process that
   * answered (an idle one is unloaded, its data kept, and made again on its next request).
   */
  loaded?: boolean;
  /** `GET /api/namespaces/{ns}` only: requests and sockets it holds open in that process now. */
  held?: number;
}

/** A namespace just made: its info and its token (shown this once; only its hash is kept). */
export interface CreatedNamespace extends NamespaceInfo {
  /** The bearer token that manages this namespace only. */
  token: string;
}

/** What `POST /api/namespaces` takes. */
export interface NamespaceRequest {
  /** Its name (the endpoint-name rule); a random one when absent. */
  name?: string;
  /** Delete it after this many milliseconds without a request (1000 to 30 days). */
  ttlMs?: number;
  /**
   * Make this many (1 to 100), each with a random name, in one request: answered
   * `{ namespaces: [...] }` (a test run's pool of sessions). Not with `name`.
   */
  count?: number;
}

/** One request nothing answered (`GET /api/requests/unhandled`). */
export interface UnhandledRequest {
  /** Its id in the journal. */
  id: number;
  /** The endpoint name it was sent to. */
  name: string;
  method: string;
  /** The path below `/endpoint/{name}`. */
  subpath: string;
  receivedAt: string;
  statusCode: number;
  /** What mockpoint answered it: why nothing matched, and the nearest routes. */
  message: string;
}
