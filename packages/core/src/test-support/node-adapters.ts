/**
 * The two ways an app is served on Node, for tests that must see both agree:
 * the native listener and the Fetch route on @hono/node-server. Each serves the
 * app on 127.0.0.1 at a free port and resolves with the port; `closeListeners`
 * from @mockpoint/testkit/raw-http closes them.
 */
import { getRequestListener } from '@hono/node-server';
import { listen } from '@mockpoint/testkit/raw-http';
import { createNodeListener } from '../adapter/node/listener.js';
import type { MockpointApp } from '../index.js';

export const NODE_ADAPTERS = {
  native: (app: MockpointApp) => listen(createNodeListener(app, { overrideGlobalObjects: false })),
  fetch: (app: MockpointApp) => listen(getRequestListener(app.fetch, { overrideGlobalObjects: false })),
};

/** The name of one of {@link NODE_ADAPTERS}. */
export type NodeAdapter = keyof typeof NODE_ADAPTERS;

/** The adapters' names, for `describe.each`. */
export const NODE_ADAPTER_NAMES = Object.keys(NODE_ADAPTERS) as NodeAdapter[];
