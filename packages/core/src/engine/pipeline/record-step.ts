/**
 * The last two steps: at the bare URL the stored record answers (its prepared
 * answer, or `404 NOT_FOUND` for a name with neither a record nor routes); what
 * is left gets `404 NO_ROUTE_MATCHED`, naming up to three near misses.
 *
 * @module
 */

import { errorAnswer } from '../../answer/endpoint-answer.js';
import type { RouteTable } from '../../answer/routes/route-table.js';
import { BY_NONE, BY_RECORD } from '../../journal/journal-entry.js';
import type { CachedResponse } from '../response-cache.js';
import type { Exchange } from './exchange.js';
import { after, FIRST_BYTES, type Step, type Verdict } from './step.js';
import { recordAnswer } from './verdicts.js';

/** The record's answer (or 404 `NOT_FOUND`), journaled as answered by the record (or by nobody). */
export function recordVerdict(exchange: Exchange, entry: CachedResponse | undefined): Verdict {
  return {
    answer: recordAnswer(exchange, entry),
    status: entry?.statusCode ?? 404,
    mark: entry === undefined ? BY_NONE : BY_RECORD,
  };
}

/** The record, looked up in the store: a name with routes but no record passes (no route matched). */
async function stored(table: RouteTable | null, exchange: Exchange): Promise<Verdict | undefined> {
  const entry = await exchange.parts.endpoints.response(exchange.name);
  return entry === undefined && table !== null ? undefined : recordVerdict(exchange, entry);
}

export const recordStep: Step = {
  name: 'record',
  answers: 'http',
  run(exchange) {
    if (exchange.subpath !== '/') return undefined;
    const { endpoints } = exchange.parts;
    // Synchronous when the record is cached: the hot path.
    const cached = endpoints.cache.get(exchange.name);
    if (cached !== undefined) return recordVerdict(exchange, cached);
    return after(exchange.routes(), stored, exchange);
  },
  reads: FIRST_BYTES,
};

function noRoute(table: RouteTable | null, exchange: Exchange): Verdict {
  const { name, request } = exchange;
  const view = exchange.view;
  const where = `${request.method} ${view.subpath}`;
  const nearMisses = table === null ? [] : table.nearMisses(view);
  const message =
    table === null
      ? `no route of "${name}" matches ${where}: it has no routes; add some with PUT /api/endpoints/${name}/routes`
      : `no route of "${name}" matches ${where}; the nearest: ${nearMisses.map((miss) => `${miss.id} (${miss.reason})`).join('; ')}`;
  const answer = errorAnswer(404, 'NO_ROUTE_MATCHED', message, {
    head: exchange.head,
    cors: true,
    details: { subpath: view.subpath, nearMisses },
  });
  return { answer, mark: BY_NONE };
}

export const noRouteStep: Step = {
  name: 'no route matched',
  answers: 'http',
  run: (exchange) => after(exchange.routes(), noRoute, exchange),
  reads: FIRST_BYTES,
};
