/**
 * What every route module receives: the services and resolved options of one app.
 *
 * @module
 */

import type { ProxySettings } from '../answer/proxy/proxy-settings.js';
import type { OpenStreams } from '../answer/stream/open-streams.js';
import type { OpenSockets } from '../answer/websocket/open-sockets.js';
import type { Schemas } from '../api/schemas.js';
import type { Clock } from '../clock/clock.js';
import type { ClockSync } from '../clock/shared-clock.js';
import type { EndpointHandler } from '../engine/endpoint-handler.js';
import type { EndpointService } from '../engine/endpoint-service.js';
import type { HostTable } from '../hosts/host-table.js';
import type { StoredHosts } from '../hosts/stored-hosts.js';
import type { Journal } from '../journal/journal.js';
import type { JournalFeed } from '../journal/journal-feed.js';
import type { LimitOptions } from '../registry/limits.js';
import type { StateTimers } from '../state/state-timers.js';
import type { Backend } from '../store/backend.js';
import type { TwinTable } from '../twin/twin-table.js';
import type { DeliveryWorker } from '../webhook/delivery-worker.js';
import type { RouteDoc } from './openapi.js';

/** The options of {@link createApp} after defaults are applied. */
export interface ResolvedAppOptions extends Required<LimitOptions> {
  adminToken: string | undefined;
  allowedHosts: readonly string[];
  allowedOrigins: readonly string[];
  deliveryAllowHosts: readonly string[];
  proxyAllowHosts: readonly string[];
  proxyPassThrough: boolean;
  version: string;
}

export interface AppContext {
  options: ResolvedAppOptions;
  /** Every part of the shared state (the parts below are built on it). */
  backend: Backend;
  endpoints: EndpointService;
  journal: Journal;
  /** The live journal streams. */
  feed: JournalFeed;
  /** The streamed answers being played (ended at shutdown). */
  streams: OpenStreams;
  /** The open WebSocket connections (this process's only), and the script player. */
  sockets: OpenSockets;
  /** The one implementation of a request to `/endpoint/{name}`, used by every adapter. */
  handler: EndpointHandler;
  /** Which hosts pick which endpoint. */
  hosts: HostTable;
  /** The API's host mappings in the store, mirrored in {@link hosts}. */
  storedHosts: StoredHosts;
  /** What proxy routes may reach, and how. */
  proxy: ProxySettings;
  /** Outgoing webhook deliveries (`/api/deliveries`). */
  deliveries: DeliveryWorker;
  schemas: Schemas;
  /** The app's clock (`/api/clock`): `{{now}}` and timed state moves read it. */
  clock: Clock;
  /** Changes the clock: through the backend where replicas share it. */
  clockSync: ClockSync;
  /** Timed state moves waiting for the clock. */
  timers: StateTimers;
  /** The names' twins (docs/twins.md). */
  twins: TwinTable;
  /** Route documentation collected for the OpenAPI document. */
  docs: RouteDoc[];
  /**
   * Where the routes put their documentation as they are registered: `docs` itself, or nothing
   * (`undefined`) in a namespace's app that shares the docs another one made (shared-docs.ts):
   * `ctx.describe?.push(…)` then builds none of it.
   */
  describe: RouteDoc[] | undefined;
}
