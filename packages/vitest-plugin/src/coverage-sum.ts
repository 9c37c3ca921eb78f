/**
 * The coverage of a whole Vitest run: the reports of its sessions (each test's
 * namespace, read before it was deleted) added up by endpoint and route id, and
 * the text printed at the end of the run (docs/coverage.md#after-a-vitest-run).
 *
 * @module
 */
import type { CoverageReport } from '@mockpoint/core';

/** One route over the run: its hits in every session that had it. */
export interface RunRoute {
  id: string;
  match: string;
  hits: number;
  /** How many sessions had the route. */
  sessions: number;
}

/** One endpoint over the run. */
export interface RunEndpoint {
  name: string;
  routes: RunRoute[];
  /** The routes no session's request hit. */
  dead: { id: string; match: string }[];
  /** Requests that hit no route (answered by the record, or by nobody). */
  unmatched: number;
}

/** The run's coverage, as printed and as written to `coverage.file`. */
export interface RunCoverage {
  /** The reports added up: one per session (or one, the run's instance's). */
  sessions: number;
  routes: number;
  dead: number;
  unmatched: number;
  endpoints: RunEndpoint[];
}

/** Adds up `reports` by endpoint name and route id, endpoints by name, routes in first-seen order. */
export function sumCoverage(reports: readonly CoverageReport[]): RunCoverage {
  const endpoints = new Map<string, { routes: Map<string, RunRoute>; unmatched: number }>();
  for (const report of reports) {
    for (const endpoint of report.endpoints) {
      let sum = endpoints.get(endpoint.name);
      if (sum === undefined) {
        sum = { routes: new Map(), unmatched: 0 };
        endpoints.set(endpoint.name, sum);
      }
      sum.unmatched += endpoint.unmatched.count;
      for (const route of endpoint.routes) {
        const seen = sum.routes.get(route.id);
        if (seen === undefined)
          sum.routes.set(route.id, { id: route.id, match: route.match, hits: route.hits, sessions: 1 });
        else {
          seen.hits += route.hits;
          seen.sessions++;
        }
      }
    }
  }
  const run: RunCoverage = { sessions: reports.length, routes: 0, dead: 0, unmatched: 0, endpoints: [] };
  for (const name of [...endpoints.keys()].sort()) {
    const sum = endpoints.get(name) as { routes: Map<string, RunRoute>; unmatched: number };
    const routes = [...sum.routes.values()];
    const dead = routes.filter((route) => route.hits === 0).map(({ id, match }) => ({ id, match }));
    run.endpoints.push({ name, routes, dead, unmatched: sum.unmatched });
    run.routes += routes.length;
    run.dead += dead.length;
    run.unmatched += sum.unmatched;
  }
  return run;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/**
 * The summary line, then each route never hit.
 * @example
 * mockpoint coverage: 3 routes in 4 sessions, 1 never hit
 *   api: GET /users/:id/avatar  (route route-3)
 */
export function runCoverageText(run: RunCoverage): string {
  const head = `mockpoint coverage: ${plural(run.routes, 'route')} in ${plural(run.sessions, 'session')}, ${
    run.dead === 0 ? 'every one hit' : `${run.dead} never hit`
  }`;
  const lines = [head];
  for (const endpoint of run.endpoints) {
    for (const route of endpoint.dead) lines.push(`  ${endpoint.name}: ${route.match}  (route ${route.id})`);
  }
  if (run.unmatched > 0) lines.push(`  ${plural(run.unmatched, 'request')} hit no route`);
  return lines.join('\n');
}
