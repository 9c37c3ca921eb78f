/**
 * Whether a request asks to become a WebSocket: the one check for the Node
 * upgrade listener and the answer pipeline (every runtime).
 *
 * @module
 */
import { declaresBody, rawHeaderJoined } from './raw-headers.js';

/**
 * True for a WebSocket opening handshake as RFC 6455 and the runtimes' upgrades
 * (`ws`, `Deno.upgradeWebSocket`) take it: a `GET` whose `Upgrade` is
 * `websocket` (any case, white space around it ignored; not one offer in a
 * list such as `websocket, h2c`, nor sent twice), announcing no body.
 */
export function isWebSocketHandshake(method: string, rawHeaders: readonly string[]): boolean {
  if (method !== 'GET') return false;
  // Repeated Upgrade headers are read joined, as Node's `req.headers` (and so `ws`) reads them.
  const upgrade = rawHeaderJoined(rawHeaders, 'upgrade');
  return upgrade !== undefined && upgrade.trim().toLowerCase() === 'websocket' && !declaresBody(rawHeaders);
}
