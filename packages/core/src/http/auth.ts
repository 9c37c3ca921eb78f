/**
 * The bearer tokens of `/api/*`: the optional admin token (when set, every
 * write needs `Authorization: Bearer <token>`; reads stay open) and the
 * namespaces' own tokens, each good in its namespace only.
 *
 * @module
 */

import type { MiddlewareHandler } from 'hono';
import { MockpointError } from '../registry/errors.js';
import type { ResolvedAppOptions } from './context.js';
import type { NamespaceEarly } from './namespace-early.js';
import { tokenHash, tokenNamespace } from './namespace-token.js';
import type { SharedDocs } from './shared-docs.js';

const READ_ONLY = new Set(['GET', 'HEAD', 'OPTIONS']);
const encoder = new TextEncoder();

/**
 * Compares two strings in time that depends only on their lengths, not on where
 * they first differ.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = encoder.encode(a);
  const right = encoder.encode(b);
  let diff = left.length ^ right.length;
  for (let i = 0; i < left.length; i++) diff |= (left[i] as number) ^ (right[i % right.length] ?? 0);
  return diff === 0;
}

/** The namespace an app serves, for its API's tokens (see {@link apiAuth}). */
export interface AppNamespace {
  /** Its name. */
  name: string;
  /** SHA-256 of its token, lowercase hex. */
  tokenHash: string;
  /**
   * Whether the namespace has been deleted (or deleted and made again) since the
   * app was made: a store failure after that is answered `404 NAMESPACE_NOT_FOUND`
   * (namespace-gone.ts). Absent: never asked.
   */
  gone?: () => Promise<boolean>;
  /** The route docs every namespace's app shares (made once, by the first to register its routes). */
  docs?: SharedDocs;
  /** What every namespace's app answers before its API is registered (namespace-early.ts). */
  early?: NamespaceEarly;
  /**
   * The options every namespace's app shares, resolved once by the app that holds the namespaces
   * (each would resolve the same: about 25 µs of a session's making, docs/performance.md).
   */
  resolved?: Readonly<ResolvedAppOptions>;
  /**
   * Its parts are known to hold nothing: made by this process a moment ago and written by no other
   * (a store no other process writes), so nothing stored is read when its app is made (its host
   * mappings).
   */
  empty?: boolean;
}

/** Options for {@link apiAuth}. */
export interface ApiAuthOptions {
  /** The admin token, when one is set. */
  adminToken: string | undefined;
  /** The namespace the app serves; absent for the default namespace. */
  namespace?: AppNamespace;
}

function unauthorized(message: string): Response {
  const response = new MockpointError('UNAUTHORIZED', message).toResponse();
  // RFC 9110 §11.6.1: a 401 carries the challenge it expects.
  response.headers.set('www-authenticate', 'Bearer realm="mockpoint"');
  return response;
}

function forbidden(owner: string, here: string | undefined): Response {
  const where = here === undefined ? 'the default namespace' : `namespace "${here}"`;
  return new MockpointError(
    'FORBIDDEN_NAMESPACE',
    `this token manages namespace "${owner}" only, not ${where}: send it to /ns/${owner}/api/… (or with mockpoint-session: ${owner})`,
  ).toResponse();
}

/**
 * The bearer rules of `/api/*` (docs/sessions.md#namespaces-and-tokens):
 * - a namespace's token (`mpns.{ns}.…`) sent anywhere but its own namespace's
 *   API is refused 403 `FORBIDDEN_NAMESPACE`, reads too;
 * - in the default namespace, with an admin token set, a write needs it
 *   (reads stay open), and `/api/namespaces` and a signature check's secrets
 *   (`GET …/signature?secrets=true`) need it for reads too;
 * - in a namespace, with an admin token set, every request needs the admin
 *   token or the namespace's own (reads too: a namespace is invisible to others).
 */
export function apiAuth(options: ApiAuthOptions): MiddlewareHandler {
  const { adminToken, namespace } = options;
  const here = namespace?.name;
  /** The last token found to be this namespace's (hashing is asynchronous; a session sends one token over and over). */
  let known: string | undefined;
  return async (c, next) => {
    const header = c.req.header('authorization') ?? '';
    const match = /^Bearer\s+(.+)$/i.exec(header);
    const token = match?.[1];
    const owner = token === undefined ? undefined : tokenNamespace(token);
    if (owner !== undefined && owner !== here) return forbidden(owner, here);
    if (adminToken === undefined) return next();
    const isAdmin = token !== undefined && constantTimeEqual(token, adminToken);
    if (isAdmin) return next();
    if (namespace !== undefined) {
      if (token !== undefined && owner === here) {
        if (token === known) return next();
        if (constantTimeEqual(await tokenHash(token), namespace.tokenHash)) {
          known = token;
          return next();
        }
      }
      return unauthorized(
        header === ''
          ? `namespace "${here}" needs its token or the admin token: send Authorization: Bearer <token>`
          : `the token is not namespace "${here}"'s, nor the admin token`,
      );
    }
    // A read that answers secrets in full (`GET …/signature?secrets=true`) is the admin's, like a write.
    const revealsSecrets = c.req.path.endsWith('/signature') && c.req.query('secrets') !== undefined;
    const readOnly = READ_ONLY.has(c.req.method) && !c.req.path.startsWith('/api/namespaces') && !revealsSecrets;
    if (readOnly) return next();
    return unauthorized(
      header === ''
        ? 'this server requires an admin token for writes: send Authorization: Bearer <MOCKPOINT_ADMIN_TOKEN>'
        : 'the admin token is wrong',
    );
  };
}
