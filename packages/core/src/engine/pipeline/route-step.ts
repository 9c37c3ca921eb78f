/**
 * The routes' step: the first route that matches answers (its prepared answer,
 * rendered for this request when templated; a proxy route relays to its
 * upstream; a resource route serves its collection), journaled with the
 * route's id and the pattern's parameters. Also
 * what a queued answer falls back to ({@link routeFallback}).
 *
 * @module
 */

import {
  type EndpointAnswer,
  errorAnswer,
  type RespondAnswer,
  type StreamAnswer,
  type UpgradeAnswer,
} from '../../answer/endpoint-answer.js';
import { answerCases, matchAnswer } from '../../answer/match-answer.js';
import type { RouteHit, RouteTable } from '../../answer/routes/route-table.js';
import { resumeAfter } from '../../answer/stream/stream-frames.js';
import { socketsRefusal } from '../../answer/websocket/open-sockets.js';
import { chooseProtocol } from '../../answer/websocket/socket-script.js';
import { movedStates } from '../../api/state-json.js';
import { rawHeader } from '../../codec/raw-headers.js';
import { isWebSocketHandshake } from '../../codec/websocket-handshake.js';
import type { AnswerMark } from '../../journal/journal-entry.js';
import { isMockpointError, MockpointError } from '../../registry/errors.js';
import type { Exchange, PipelineParts } from './exchange.js';
import { VERDICT_KINDS } from './route-kinds.js';
import { checkRoom, keptMoving, MAX_MOVES, pick, scenariosOf, scheduleLater, splitMove } from './state-moves.js';
import { after, type BodyReads, type ExchangeKind, type Maybe, type Step, type Verdict } from './step.js';
import { renderFailed } from './verdicts.js';

function answered(exchange: Exchange, hit: RouteHit): Verdict | Promise<Verdict> {
  const { route, params } = hit;
  // A kind with its own verdict answers (route-kinds.ts); else the compiled answer.
  for (const [name, step] of VERDICT_KINDS) {
    const value = route.route.answer[name];
    if (value !== undefined) return step.verdict(exchange, hit, value as never);
  }
  const seq = ++route.seq;
  const mark: AnswerMark = { answeredBy: { route: route.id }, params };
  if (exchange.validation !== undefined) mark.validation = exchange.validation;
  let answer: EndpointAnswer;
  try {
    answer = route.answer.templated
      ? route.answer.answer(exchange.head, exchange.context(params, seq, route.answer))
      : route.answer.answer(exchange.head);
  } catch (error) {
    return renderFailed(exchange, mark, `route ${route.id}`, error, { route: route.id });
  }
  return matchAnswer(answer, ROUTE_VERDICT, exchange, { hit, mark });
}

/** A route's answer as its verdict, marked with its fault: an upgrade checked and given its session; a stream resumed. */
const ROUTE_VERDICT = answerCases<Verdict, Exchange, { hit: RouteHit; mark: AnswerMark }>({
  upgrade: (answer, exchange, { hit, mark }) => upgraded(exchange, hit, answer, mark),
  // A reconnecting SSE client resumes after the last event it saw.
  stream: (answer, exchange, { hit, mark }) => ({
    answer: resumeAfter(answer, exchange.lastEventId),
    mark: withFault(mark, hit),
  }),
  otherwise: (answer, _, { hit, mark }) => ({ answer, mark: withFault(mark, hit) }),
});

function withFault(mark: AnswerMark, hit: RouteHit): AnswerMark {
  const { fault } = hit.route.route.answer;
  if (fault !== undefined) mark.fault = fault;
  return mark;
}

/** Whether a request asks to become a WebSocket (codec/websocket-handshake.ts). */
export function asksUpgrade(exchange: Exchange): boolean {
  return isWebSocketHandshake(exchange.request.method, exchange.request.rawHeaders);
}

/**
 * A WebSocket route: an upgrade request gets the script with its session (the
 * subprotocol chosen from those it offers); a plain request `426
 * WEBSOCKET_REQUIRED`; one past the name's open sockets `503 TOO_MANY_SOCKETS`.
 */
function upgraded(exchange: Exchange, hit: RouteHit, answer: UpgradeAnswer, mark: AnswerMark): Verdict {
  const { name, view, request } = exchange;
  if (!asksUpgrade(exchange)) {
    const refused = errorAnswer(
      426,
      'WEBSOCKET_REQUIRED',
      `route ${hit.route.id} answers WebSocket upgrades only: open ${view.subpath} with a WebSocket client (GET with Upgrade: websocket)`,
      { head: exchange.head, cors: true, extra: { upgrade: 'websocket' } },
    );
    return { answer: refused, mark };
  }
  const full = socketsFull(exchange);
  if (full !== undefined) return { answer: full, mark };
  const session = {
    name,
    route: hit.route.id,
    target: request.target,
    subpath: view.subpath,
    query: view.query,
    headers: view.headers,
    protocol: chooseProtocol(rawHeader(request.rawHeaders, 'sec-websocket-protocol'), answer.script.protocols),
  };
  return { answer: { ...answer, session }, mark };
}

/**
 * `503 TOO_MANY_SOCKETS` when the name holds as many WebSocket connections as
 * it may, or all names together their share of the connection cap.
 */
export function socketsFull(exchange: Exchange): EndpointAnswer | undefined {
  const { sockets } = exchange.parts;
  const refused = sockets === undefined ? undefined : socketsRefusal(sockets, exchange.name);
  return refused === undefined ? undefined : errorAnswer(503, 'TOO_MANY_SOCKETS', refused);
}

function routed(table: RouteTable | null, exchange: Exchange): Maybe<Verdict | undefined> {
  if (table?.usesState === true) return statefully(table, exchange);
  const hit = exchange.hit(table);
  return hit === undefined ? undefined : answered(exchange, hit);
}

/**
 * Routes that look at or move the state: the routes are selected on the
 * scenarios as they are, and a route with `setState` moves them only from the
 * values every `match.state` of the table saw ({@link StateStore.move}) — one
 * atomic step, so two requests never both match `started` and both move it.
 * When another request moved the state in between, the selection runs again on
 * the state as it is then.
 */
async function statefully(table: RouteTable, exchange: Exchange): Promise<Verdict | undefined> {
  const { states } = exchange.parts.endpoints;
  // The state step read it for this request; each retry reads it again.
  let before = exchange.view.state?.before ?? (await states.get(exchange.name));
  for (let attempt = 0; attempt < MAX_MOVES; attempt++) {
    if (attempt > 0) before = await states.get(exchange.name);
    const hit = exchange.selectAt(table, before);
    if (hit === undefined) return undefined;
    const moves = hit.route.route.answer.setState;
    const seen = scenariosOf(hit.route.route.match?.state);
    if (moves === undefined) {
      exchange.states = before;
      if (seen.size > 0) {
        const now = pick(before, seen);
        exchange.stateMark = { before: now, after: now };
      }
      return answered(exchange, hit);
    }
    const move = splitMove(moves);
    const { timers, maxTimers } = exchange.parts;
    if (move.later !== undefined) checkRoom(timers, maxTimers);
    const after = await states.move(exchange.name, pick(before, table.stateScenarios), move.now);
    if (after === undefined) continue;
    scheduleLater(timers, maxTimers, exchange.name, move, after);
    for (const scenario of Object.keys(movedStates(moves))) seen.add(scenario);
    exchange.states = after;
    exchange.stateMark = { before: pick(before, seen), after: pick(after, seen) };
    return answered(exchange, hit);
  }
  throw keptMoving(exchange.name);
}

const tableReads = (table: RouteTable | null): BodyReads =>
  table?.readsWholeBody === true ? 'whole-body' : 'first-bytes';

/**
 * What the routes read of a body: all of it when one of them may (a body match,
 * validation, a proxy, a `{{body…}}` template: `RouteTable.readsWholeBody`). A
 * call is answered by `grpc` routes only (`RouteTable.select`), which match and
 * render its decoded messages, not its bytes: none of it.
 */
export function routesRead({ endpoints }: PipelineParts, name: string, reading: ExchangeKind): Maybe<BodyReads> {
  // (`reading`, not `kind`: `call` is an answer kind too, dispatched on in one place only.)
  if (reading === 'call') return 'first-bytes';
  const table = endpoints.routeTables.get(name);
  return table === undefined ? endpoints.routeTable(name).then(tableReads) : tableReads(table);
}

export const routeStep: Step = {
  name: 'routes',
  run: (exchange) => after(exchange.routes(), routed, exchange),
  reads: routesRead,
};

/**
 * What a queued answer's absent fields fall back to from the routes: the
 * matching route's answer, rendered for this request (its `{{seq}}` the next
 * one, not taken) and a stream resumed after the client's last event;
 * `undefined` when no route matches; `null` when the matching route has no
 * answer to lend (a proxy route answers only over the network; a fault).
 */
export function routeFallback(
  exchange: Exchange,
  hit: RouteHit | undefined,
): RespondAnswer | StreamAnswer | null | undefined {
  if (hit === undefined) return undefined;
  const { route, params } = hit;
  for (const [name, step] of VERDICT_KINDS)
    if (step.lends === false && route.route.answer[name] !== undefined) return null;
  let answer: EndpointAnswer;
  try {
    answer = route.answer.templated
      ? route.answer.answer(false, exchange.context(params, route.seq + 1, route.answer))
      : route.answer.answer(false);
  } catch (error) {
    // Named here: the queued answer's message says whose template it was.
    if (!isMockpointError(error)) throw error;
    throw new MockpointError(
      error.code,
      `route ${route.id}, whose answer the queued answer falls back to: ${error.message}`,
      {
        details: { ...error.details, route: route.id },
      },
    );
  }
  return matchAnswer(answer, FALLBACK, exchange, undefined);
}

/** What a queued answer may fall back to of a route's answer: a response, or a stream resumed; else none. */
const FALLBACK = answerCases<RespondAnswer | StreamAnswer | null, Exchange>({
  respond: (answer) => answer,
  stream: (answer, exchange) => resumeAfter(answer, exchange.lastEventId),
  otherwise: () => null,
});
