/**
 * The headers a relay does not copy onto the request it makes: the proxy
 * route (core) and `mockpoint tail --forward` (server) both send a request
 * they received again, with its whole body already in hand.
 *
 * @module
 */

/**
 * The headers of one connection (RFC 9110 §7.6.1), lower-case: a relay that
 * passes a body on as it streams (the forward proxy's pass-through) drops these
 * and keeps the framing headers as they came.
 */
export const CONNECTION_HEADERS: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'upgrade',
]);

/**
 * What a relay that has the whole body in hand leaves out: the connection's
 * headers, Transfer-Encoding, and the ones the new request sets itself: Host
 * and Content-Length for its own target and body, and Expect, whose
 * 100-continue handshake was the received request's (the body has arrived;
 * `fetch` refuses to send it at all). A relay also drops the names a
 * `Connection` header lists.
 */
export const NOT_FORWARDED: ReadonlySet<string> = new Set([
  ...CONNECTION_HEADERS,
  'transfer-encoding',
  'host',
  'content-length',
  'expect',
]);
