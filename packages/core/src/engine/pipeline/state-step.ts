/**
 * The step before the queue: when the name's routes look at or move the state
 * (docs/state.md), its scenarios are read once here, so that every step that
 * selects a route — a queued answer's fallback, request validation, the routes
 * — selects on the state as the request found it; so do queued answers, so a
 * name with answers queued reads it too. Other names read nothing.
 *
 * @module
 */
import type { RouteTable } from '../../answer/routes/route-table.js';
import type { Exchange } from './exchange.js';
import { after, FIRST_BYTES, type Maybe, type Step } from './step.js';

function readState(table: RouteTable | null, exchange: Exchange): Maybe<undefined> {
  // A queued answer may look at the state too: a name with answers queued reads it.
  if (table?.usesState !== true && !exchange.parts.endpoints.queue.pending(exchange.name)) return undefined;
  return exchange.parts.endpoints.states.get(exchange.name).then((states) => {
    exchange.view.state = { before: states };
    return undefined;
  });
}

export const stateStep: Step = {
  name: 'state',
  run: (exchange) => after(exchange.routes(), readState, exchange),
  passes: ({ endpoints }, name) => endpoints.routeTables.get(name) === null && !endpoints.queue.pending(name),
  reads: FIRST_BYTES,
};
