/**
 * @mockpoint/core/node: serving a mockpoint app on `node:http`. Node only.
 *
 * @module
 */
export { createNodeListener, type NodeListenerOptions } from './listener.js';
export { type CloseOptions, type ServedApp, type ServeOptions, serve } from './serve.js';
