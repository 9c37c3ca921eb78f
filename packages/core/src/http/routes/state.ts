/**
 * `/api/endpoints/{name}/state`: an endpoint's state machines (docs/state.md).
 * GET answers every scenario its routes look at or move, and every one put or
 * moved, at its value (`started` when never moved), or with `?start=true` the
 * start (what was put); PUT sets scenarios, which
 * are also the start a reset (`POST /api/endpoints/{name}/reset`) returns to.
 *
 * @module
 */
import type { Hono } from 'hono';
import { movedStates, type States, stateOf, stateProblem, statesOf } from '../../api/state-json.js';
import { readJsonObjectBody } from '../../codec/body.js';
import { MockpointError } from '../../registry/errors.js';
import type { AppContext } from '../context.js';
import { pathName } from './manage.js';
import { ADMIN_ERRORS, BODY_ERRORS, errorResponses, REQUEST_ERRORS, readDoc, STORE_ERRORS } from './responses.js';

/** The body of `PUT …/state` as scenario → value, or `INVALID_STATE` saying why not. */
function parseStates(members: ReadonlyMap<string, string>): States {
  const states: Record<string, string> = {};
  for (const [scenario, text] of members) {
    // Refused before it is set: on a plain object, __proto__ would set a prototype and vanish.
    if (scenario === '__proto__') throw new MockpointError('INVALID_STATE', '__proto__ is not a scenario name');
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'string') {
      throw new MockpointError(
        'INVALID_STATE',
        `scenario ${JSON.stringify(scenario)}: a state value is a string, e.g. "paid"`,
      );
    }
    states[scenario] = value;
  }
  const problem = stateProblem(states);
  if (problem !== undefined) throw new MockpointError('INVALID_STATE', problem);
  return states;
}

/** The scenarios in name order, as JSON text. */
function statesJson(states: States): Response {
  const sorted = Object.fromEntries(Object.entries(states).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return new Response(JSON.stringify(sorted), { headers: { 'content-type': 'application/json; charset=utf-8' } });
}

export function registerStateRoutes(app: Hono, ctx: AppContext): void {
  const { backend, endpoints, schemas, options } = ctx;
  const base = '/api/endpoints/:name/state';

  app.get(base, async (c) => {
    const name = pathName(c.req.param('name'));
    // `?start=true`: what was put, the start a reset returns to (for `mockpoint export`), not where it is now.
    if (c.req.query('start') === 'true') return statesJson(await backend.states.getStart(name));
    const [states, table] = await Promise.all([backend.states.get(name), endpoints.routeTable(name)]);
    const named = new Set(Object.keys(states));
    for (const route of table?.routes ?? []) {
      const { match, answer } = route.route;
      if (match?.state !== undefined) for (const scenario of Object.keys(statesOf(match.state))) named.add(scenario);
      if (answer.setState !== undefined)
        for (const scenario of Object.keys(movedStates(answer.setState))) named.add(scenario);
    }
    return statesJson(Object.fromEntries([...named].map((scenario) => [scenario, stateOf(states, scenario)])));
  });

  app.put(base, async (c) => {
    const name = pathName(c.req.param('name'));
    const states = parseStates(await readJsonObjectBody(c.req.raw, options.maxBodyBytes));
    await backend.states.put(name, states);
    // A timed move scheduled before this put would undo it: the put wins (docs/clock.md).
    ctx.timers.cancel(name);
    return statesJson(states);
  });

  const params = { name: { description: 'Endpoint name (the record need not exist).', schema: schemas.name } };
  ctx.describe?.push(
    readDoc(
      schemas,
      {
        path: '/api/endpoints/{name}/state',
        summary:
          "This name's scenarios, in name order: every one its routes look at or move and every one put or moved, at its value (started when never moved). With ?start=true, the start instead: the scenarios last put (what a reset returns to; {} when none was).",
        tag: 'state',
        params,
      },
      { description: 'Scenario → its value.', schema: schemas.states },
    ),
    {
      method: 'put',
      path: '/api/endpoints/{name}/state',
      summary:
        'Set every scenario of this name (those left out are at started); what is put is also the start that POST /api/endpoints/{name}/reset returns to.',
      tag: 'state',
      params,
      body: schemas.states,
      admin: true,
      responses: {
        200: { description: 'Set.', schema: schemas.states },
        ...errorResponses(schemas, REQUEST_ERRORS, BODY_ERRORS, STORE_ERRORS, ADMIN_ERRORS, ['INVALID_STATE']),
      },
    },
  );
}
