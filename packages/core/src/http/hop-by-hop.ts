/**
 * The headers a relay does not copy onto the request it makes: the proxy
 * route (core) and `mockpoint tail --forward` (server) both send a request
 * they received again, with its whole body already in hand.
 *
 * @module
 */

/**
 * Hop-by-hop headers (RFC 9110 §7.6.1), which belong to one connection, and
 * the ones the new request sets itself: Host and Content-Length for its own
 * target and body, and Expect, whose 100-continue handshake was the received
 * request's (the body has arrived; `fetch` refuses to send it at all).
 * Lower-case; a relay also drops the names a `Connection` header lists.
 */
export const NOT_FORWARDED: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'expect',
]);
