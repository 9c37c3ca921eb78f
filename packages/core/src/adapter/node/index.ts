/**
 * @mockpoint/core/node: serving a mockpoint app on `node:http`. Node only.
 *
 * @module
 */

export { DEFAULT_CONNECTION_LIMITS } from '../../wire/limits.js';
export type { ConnectionCap } from './connection-cap.js';
export { createNodeListener, type NodeListenerOptions } from './listener.js';
export { type CloseOptions, type ServedApp, type ServeOptions, serve } from './serve.js';
