/**
 * @mockpoint/core/node: serving a mockpoint app on `node:http`, and sending its
 * deliveries with it. Node only.
 *
 * @module
 */

export { DEFAULT_CONNECTION_LIMITS } from '../../registry/limits.js';
export {
  type NodeDeliverySend,
  type NodeDeliverySendOptions,
  nodeDeliverySend,
} from '../../webhook/node-delivery-send.js';
export type { ConnectionCap } from './connection-cap.js';
export { acceptConnect } from './forward-proxy.js';
export { createNodeListener, type NodeListenerOptions } from './listener.js';
export { nodeUpstream } from './node-upstream.js';
export { type CloseOptions, type ServedApp, type ServeOptions, serve, type TlsOptions } from './serve.js';
export { createNodeUpgradeListener, type NodeUpgradeListenerOptions } from './upgrade.js';
