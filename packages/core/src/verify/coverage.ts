/**
 * Coverage of the mocks by the requests the journal kept: each route's hits,
 * the routes never hit (dead mocks) and the requests that hit no route, per
 * endpoint (docs/coverage.md). Pure counting: the caller hands over the routes
 * and the entries (`GET /api/coverage` reads them from the store and journal).
 *
 * @module
 */
import {
  type CoverageEndpoint,
  type CoverageReport,
  type CoverageRoute,
  MAX_COVERAGE_SAMPLE,
} from '../api/coverage-json.js';
import type { JournalEntry } from '../api/journal-json.js';
import type { Route } from '../api/route.js';

/** The match fields besides method and path, in the order a summary names them. */
const OTHER_FIELDS = [
  'url',
  'query',
  'headers',
  'body',
  'bodyPatterns',
  'bodyEquals',
  'bodyJsonPaths',
  'signature',
  'state',
  'websocket',
  'graphql',
  'mcp',
] as const;

/** A route's match in one line: `POST /orders [body, headers]`. */
function matchSummary(route: Pick<Route, 'match'>): string {
  const match = route.match ?? {};
  const method = match.method?.toUpperCase() ?? '*';
  const path =
    typeof match.path === 'string' ? match.path : match.path === undefined ? '(any path)' : '(a regular expression)';
  const others = OTHER_FIELDS.filter((field) => match[field] !== undefined);
  return others.length === 0 ? `${method} ${path}` : `${method} ${path} [${others.join(', ')}]`;
}

/** A time window: requests received at or after `since` and before `until` (epoch ms; absent: open). */
export interface CoverageWindow {
  since?: number;
  until?: number;
}

interface Tally {
  endpoint: CoverageEndpoint;
  /** Route id → its row. */
  byId: Map<string, CoverageRoute>;
}

/** Counts entries against routes, endpoint by endpoint; {@link CoverageCount.report} gives the answer. */
export class CoverageCount {
  readonly #tallies = new Map<string, Tally>();
  readonly #window: CoverageWindow;
  #requests = 0;

  constructor(window: CoverageWindow = {}) {
    this.#window = window;
  }

  /** The endpoint `name` and its routes now (call before its entries; a name never given has none). */
  addEndpoint(name: string, routes: readonly Route[]): void {
    const rows = routes.map((route, index) => ({ id: route.id, index, match: matchSummary(route), hits: 0 }));
    this.#tallies.set(name, { endpoint: emptyEndpoint(name, rows), byId: new Map(rows.map((row) => [row.id, row])) });
  }

  /** Whether `name` was given. */
  has(name: string): boolean {
    return this.#tallies.has(name);
  }

  /** Counts one journal entry of `name` (outside the window, or a WebSocket message: skipped). */
  addEntry(name: string, entry: JournalEntry): void {
    if (entry.websocket !== undefined || !this.#inWindow(entry.receivedAt)) return;
    let tally = this.#tallies.get(name);
    if (tally === undefined) {
      tally = { endpoint: emptyEndpoint(name, []), byId: new Map() };
      this.#tallies.set(name, tally);
    }
    this.#requests++;
    const by = entry.answeredBy;
    const { endpoint } = tally;
    if (by === 'record' || by === 'none') {
      const unmatched = endpoint.unmatched;
      unmatched.count++;
      if (by === 'record') unmatched.byRecord++;
      else unmatched.unhandled++;
      if (unmatched.sample.length < MAX_COVERAGE_SAMPLE) {
        const { method, subpath, statusCode, receivedAt } = entry;
        unmatched.sample.push({ method, subpath, statusCode, answeredBy: by, receivedAt });
      }
    } else if (typeof by === 'object' && 'route' in by) {
      const row = tally.byId.get(by.route);
      if (row === undefined) endpoint.goneRouteHits++;
      else row.hits++;
    } else endpoint.other++;
  }

  #inWindow(receivedAt: string): boolean {
    const { since, until } = this.#window;
    if (since === undefined && until === undefined) return true;
    const at = Date.parse(receivedAt);
    return (since === undefined || at >= since) && (until === undefined || at < until);
  }

  /** The report, endpoints by name. */
  report(window: CoverageReport['window']): CoverageReport {
    const endpoints = [...this.#tallies.values()]
      .map(({ endpoint }) => endpoint)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const totals = { routes: 0, dead: 0, unmatched: 0 };
    for (const endpoint of endpoints) {
      endpoint.dead = endpoint.routes.filter((route) => route.hits === 0).map(({ hits: _hits, ...route }) => route);
      totals.routes += endpoint.routes.length;
      totals.dead += endpoint.dead.length;
      totals.unmatched += endpoint.unmatched.count;
    }
    return { window, requests: this.#requests, endpoints, totals };
  }
}

function emptyEndpoint(name: string, routes: CoverageRoute[]): CoverageEndpoint {
  return {
    name,
    routes,
    dead: [],
    unmatched: { count: 0, byRecord: 0, unhandled: 0, sample: [] },
    other: 0,
    goneRouteHits: 0,
  };
}
