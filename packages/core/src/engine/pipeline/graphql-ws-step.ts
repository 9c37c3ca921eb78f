/**
 * GraphQL subscriptions (and queries and mutations) over graphql-ws: a
 * WebSocket upgrade offering the subprotocol `graphql-transport-ws` to a name
 * in schema mode is accepted by the schema step (after the queue and the
 * routes, like any request), and the connection speaks graphql-ws
 * (`answer/websocket/graphql-ws.ts`). Each operation it carries is answered as the same
 * operation over HTTP would be: the first route that matches it (as a `POST`
 * of the `subscribe` payload to the upgrade's URL) gives its answer, else the
 * schema's deterministic mocks; a subscription gets that answer once per event.
 *
 * @module
 */
import type { SocketSession, UpgradeAnswer } from '../../answer/endpoint-answer.js';
import { answerCases, letGo, matchAnswer } from '../../answer/match-answer.js';
import { GRAPHQL_WS_PROTOCOL, type GraphqlWsResult, speakGraphqlWs } from '../../answer/websocket/graphql-ws.js';
import type { SocketScript } from '../../answer/websocket/socket-script.js';
import { chooseProtocol } from '../../answer/websocket/socket-script.js';
import { jsonValueOf } from '../../codec/json-value.js';
import { rawHeader } from '../../codec/raw-headers.js';
import type { GraphqlOperation } from '../../graphql/graphql-request.js';
import type { GraphqlAnswerText, StoredGraphqlSchema } from '../../graphql/graphql-runner.js';
import { BY_GRAPHQL, type RecordedRequest } from '../../journal/journal-entry.js';
import { isMockpointError } from '../../registry/errors.js';
import { Exchange, type PipelineParts } from './exchange.js';
import { routeStep, socketsFull } from './route-step.js';
import type { Maybe, Verdict } from './step.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const NONE: readonly never[] = Object.freeze([]);

/** The most values one operation's mock answer may hold over the socket (as over HTTP). */
const MAX_VALUES = 100_000;

function errorsText(message: string): GraphqlWsResult {
  return { errors: JSON.stringify([{ message }]) };
}

/** What a route's verdict gives over graphql-ws: its body when it is a GraphQL result (`{ data?, errors? }`). */
function fromVerdict(verdict: Verdict | undefined): GraphqlWsResult | undefined {
  if (verdict === undefined) return undefined;
  const by = verdict.mark?.answeredBy;
  const route = typeof by === 'object' && by !== null && 'route' in by ? `route ${by.route}` : 'the route';
  return matchAnswer(verdict.answer, OVER_GRAPHQL_WS, route, undefined);
}

/** What each kind of a route's answer gives over graphql-ws (`route` names the route in the errors). */
const OVER_GRAPHQL_WS = answerCases<GraphqlWsResult, string>({
  respond: (answer, route) => {
    const text =
      answer.body === null ? '' : typeof answer.body === 'string' ? answer.body : decoder.decode(answer.body);
    const value = jsonValueOf(text);
    if (
      typeof value !== 'object' ||
      value === null ||
      Array.isArray(value) ||
      !('data' in value || 'errors' in value)
    ) {
      return errorsText(
        `${route} answered ${answer.status} without a GraphQL result ({ data?, errors? }) as its body.`,
      );
    }
    return { next: text };
  },
  relay: (answer, route) => {
    letGo(answer);
    return errorsText(`${route} is a proxy route: its answer cannot be sent over graphql-ws.`);
  },
  otherwise: (answer, route) =>
    errorsText(`${route} answers with a ${answer.kind}, which graphql-ws cannot carry: give it a data answer.`),
});

/** The schema's answer (a request error: `error`; otherwise `next`). */
function fromText(text: GraphqlAnswerText): GraphqlWsResult {
  return text.errors !== undefined ? { errors: text.errors } : { next: text.json };
}

/** The schema's answer to `operation` from the runner; a refusal (a schema not served, a busy or failed worker) as its errors. */
function fromSchema(
  upgrade: Exchange,
  schema: StoredGraphqlSchema | null,
  operation: GraphqlOperation,
  event: number | undefined,
): Promise<GraphqlWsResult> | undefined {
  if (schema === null) return undefined;
  return upgrade.parts.endpoints.graphqlRunner.answer(schema, [{ operation, maxValues: MAX_VALUES, event }]).then(
    ([text]) => fromText(text as GraphqlAnswerText),
    (error: unknown) => {
      if (isMockpointError(error)) return errorsText(error.message);
      throw error;
    },
  );
}

/** The operation as a `POST` of its payload to the upgrade's URL: what a route sees of it. */
function operationExchange(upgrade: Exchange, payload: string): Exchange {
  const request: RecordedRequest = {
    method: 'POST',
    target: upgrade.request.target,
    rawHeaders: [...upgrade.request.rawHeaders, 'content-type', 'application/json'],
    body: encoder.encode(payload),
    bodyTruncated: false,
  };
  return new Exchange(upgrade.parts, upgrade.name, upgrade.subpath, request, undefined, undefined);
}

function answerOperation(
  upgrade: Exchange,
  operation: GraphqlOperation,
  payload: string,
  event: number | undefined,
): Maybe<GraphqlWsResult | undefined> {
  const { endpoints } = upgrade.parts;
  const schema = (): Maybe<GraphqlWsResult | undefined> => {
    const cached = endpoints.compiled.get('graphql', upgrade.name);
    if (cached !== undefined) return fromSchema(upgrade, cached, operation, event);
    return endpoints.compiled
      .read('graphql', upgrade.name)
      .then((stored) => fromSchema(upgrade, stored, operation, event));
  };
  const verdict = routeStep.run(operationExchange(upgrade, payload));
  if (verdict instanceof Promise) return verdict.then((ready) => fromVerdict(ready) ?? schema());
  return fromVerdict(verdict) ?? schema();
}

function report(parts: PipelineParts, upgrade: Exchange) {
  return (error: unknown) => parts.report(error, { method: 'MESSAGE', url: upgrade.request.target });
}

/**
 * The verdict for a WebSocket upgrade to a name in schema mode: accepted with
 * graphql-ws when the client offers `graphql-transport-ws`; `undefined` (pass
 * on) when it offers no such subprotocol.
 */
export function graphqlWsVerdict(exchange: Exchange): Verdict | undefined {
  const { request, view, name, parts } = exchange;
  const protocol = chooseProtocol(rawHeader(request.rawHeaders, 'sec-websocket-protocol'), [GRAPHQL_WS_PROTOCOL]);
  if (protocol === undefined) return undefined;
  const full = socketsFull(exchange);
  if (full !== undefined) return { answer: full, mark: BY_GRAPHQL };
  const session: SocketSession = {
    name,
    route: 'graphql',
    target: request.target,
    subpath: view.subpath,
    query: view.query,
    headers: view.headers,
    protocol,
    mark: BY_GRAPHQL,
  };
  const script: SocketScript = {
    protocols: [GRAPHQL_WS_PROTOCOL],
    onOpen: NONE,
    on: NONE,
    close: undefined,
    speaks: (peer) =>
      speakGraphqlWs(peer, {
        answer: (operation, payload, event) => answerOperation(exchange, operation, payload, event),
        events: parts.sockets?.graphqlEvents ?? 3,
        intervalMs: parts.sockets?.graphqlIntervalMs ?? 1000,
        report: report(parts, exchange),
      }),
  };
  const answer: UpgradeAnswer = { kind: 'upgrade', status: 101, headers: {}, script, delay: 0, session };
  return { answer, mark: BY_GRAPHQL };
}
