/**
 * `GET /api/coverage`: what it takes and what it answers (docs/coverage.md).
 * The types cross the network (API, client, CLI, MCP, the Vitest plugin); the
 * counting is in verify/coverage.ts.
 *
 * @module
 */

/** Requests that hit no route listed per endpoint (method and subpath); the rest are counted. */
export const MAX_COVERAGE_SAMPLE = 20;

/** One route of an endpoint and how many requests of the window it answered. */
export interface CoverageRoute {
  /** The route's id (a mock file's routes without one get `route-1`, `route-2`, … by position). */
  id: string;
  /** Its index in the endpoint's list. */
  index: number;
  /**
   * Its match in one line: `METHOD /path` (`*` for any method, `(any path)`, `(a regular
   * expression)`), then the other fields it matches on in brackets: `POST /orders [body, headers]`.
   */
  match: string;
  /** Requests of the window it answered. */
  hits: number;
}

/** A request that hit no route: answered by the endpoint's record, or by nobody (404, unhandled). */
export interface UnmatchedRequest {
  method: string;
  /** The path below `/endpoint/{name}`. */
  subpath: string;
  statusCode: number;
  /** `record`: the endpoint's own record answered; `none`: nothing did (a 404 or another error). */
  answeredBy: 'record' | 'none';
  /** ISO 8601 time of arrival. */
  receivedAt: string;
}

/** One endpoint's coverage. */
export interface CoverageEndpoint {
  name: string;
  /** Every route the endpoint has now, in order, with its hits. */
  routes: CoverageRoute[];
  /** The routes with no hit in the window (dead mocks), in order. */
  dead: Omit<CoverageRoute, 'hits'>[];
  /** Requests that hit no route: how many, how many of them the record answered, and the first ones. */
  unmatched: {
    count: number;
    byRecord: number;
    unhandled: number;
    /** The oldest, at most {@link MAX_COVERAGE_SAMPLE}. */
    sample: UnmatchedRequest[];
  };
  /** Requests answered otherwise: a queued answer, injected chaos, a GraphQL or gRPC schema. */
  other: number;
  /** Requests answered by a route the endpoint no longer has (replaced or deleted since). */
  goneRouteHits: number;
}

/** The answer of `GET /api/coverage`. */
export interface CoverageReport {
  /** The window asked for (absent bound: open), as given. */
  window: { since?: string; until?: string };
  /** Journal entries in the window that were counted (WebSocket messages are not requests: not counted). */
  requests: number;
  /** Endpoints with routes or with requests in the window (or those of `names`), by name. */
  endpoints: CoverageEndpoint[];
  /** Totals over the endpoints. */
  totals: { routes: number; dead: number; unmatched: number };
}

/** What `GET /api/coverage` takes (as query parameters: `names=a,b`). */
export interface CoverageQuery {
  /** Only these endpoints (default: every endpoint with routes or requests). */
  names?: string[];
  /** Only requests received at or after this ISO 8601 time. */
  since?: string;
  /** Only requests received before this ISO 8601 time. */
  until?: string;
}
