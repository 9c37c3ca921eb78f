/**
 * What every route module receives: the services and resolved options of one app.
 *
 * @module
 */
import type { EndpointService } from './endpoints.js';
import type { RequestJournal } from './journal.js';
import type { RouteDoc } from './openapi.js';
import type { Schemas } from './schemas.js';

/** The options of {@link createApp} after defaults are applied. */
export interface ResolvedAppOptions {
  maxBodyBytes: number;
  maxDelayMs: number;
  journalSize: number;
  journalMaxBytes: number;
  cacheMaxBytes: number;
  adminToken: string | undefined;
  allowedHosts: readonly string[];
  version: string;
}

export interface AppContext {
  options: ResolvedAppOptions;
  endpoints: EndpointService;
  journal: RequestJournal;
  schemas: Schemas;
  /** Route documentation collected for the OpenAPI document. */
  docs: RouteDoc[];
}
