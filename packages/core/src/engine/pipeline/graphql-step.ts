/**
 * Schema mode (docs/graphql.md): after the routes (so a route matching
 * `match.graphql` answers its operation first), a GraphQL request to a name
 * that holds a schema is answered from the schema: validated, then executed
 * with deterministic mocks. A request that is not GraphQL passes on (the record
 * at the bare URL, else `404 NO_ROUTE_MATCHED`, as without a schema).
 *
 * Statuses follow GraphQL over HTTP for `application/json`: 200 with `errors`
 * for a request error (syntax, validation), 405 for a mutation over GET, and
 * the answer of a batch is an array, one result per operation in order.
 *
 * @module
 */
import type { ExecutionResult } from 'graphql';
import { GraphQLError } from 'graphql/error/GraphQLError.js';
import { type EndpointAnswer, prepareAnswers } from '../../answer/endpoint-answer.js';
import type { GraphqlMock } from '../../graphql/graphql-mock.js';
import { type GraphqlOperation, type GraphqlRequest, graphqlRequestOf } from '../../graphql/graphql-request.js';
import { BY_GRAPHQL } from '../../journal/journal-entry.js';
import type { Exchange } from './exchange.js';
import { graphqlWsVerdict } from './graphql-ws-step.js';
import { asksUpgrade } from './route-step.js';
import { after, type Step, type Verdict } from './step.js';

/** An operation a GET may not run: GraphQL over HTTP allows only queries there. */
function notOverGet(operation: GraphqlOperation): ExecutionResult | undefined {
  if (operation.operationType === 'mutation' || operation.operationType === 'subscription') {
    return {
      errors: [new GraphQLError(`Can only perform a ${operation.operationType} operation from a POST request.`)],
    };
  }
  return undefined;
}

/** Subscriptions are served over graphql-ws on the WebSocket support, not over plain HTTP. */
const SUBSCRIPTION_OVER_HTTP: ExecutionResult = {
  errors: [
    new GraphQLError(
      'Subscriptions are answered over graphql-ws: open a WebSocket to this URL with the subprotocol graphql-transport-ws (docs/graphql.md).',
    ),
  ],
};

/** The most values one request's answers may hold together (a batch shares it). */
const MAX_REQUEST_VALUES = 100_000;

function answerOne(mock: GraphqlMock, operation: GraphqlOperation, maxValues: number): ExecutionResult {
  if (operation.operationType === 'subscription') return SUBSCRIPTION_OVER_HTTP;
  return mock.answer(operation, maxValues);
}

function verdictOf(exchange: Exchange, body: string, status: number): Verdict {
  const prepared = prepareAnswers(body, status, 0);
  const answer: EndpointAnswer = exchange.head ? prepared.head : prepared.full;
  return { answer, mark: BY_GRAPHQL };
}

function answered(mock: GraphqlMock | null, exchange: Exchange): Verdict | undefined {
  if (mock === null) return undefined;
  if (asksUpgrade(exchange)) return graphqlWsVerdict(exchange);
  const request: GraphqlRequest | undefined = graphqlRequestOf(exchange.view);
  if (request === undefined) return undefined;
  const method = exchange.request.method;
  if (method === 'GET' || method === 'HEAD') {
    const refused = notOverGet(request.operations[0] as GraphqlOperation);
    if (refused !== undefined) {
      const verdict = verdictOf(exchange, JSON.stringify(refused), 405);
      return {
        ...verdict,
        answer: { ...verdict.answer, headers: { ...verdict.answer.headers, allow: 'POST' } } as EndpointAnswer,
      };
    }
  }
  const share = Math.floor(MAX_REQUEST_VALUES / request.operations.length);
  const results = request.operations.map((operation) => answerOne(mock, operation, share));
  return verdictOf(exchange, JSON.stringify(request.batch ? results : results[0]), 200);
}

export const graphqlStep: Step = {
  name: 'graphql schema',
  run(exchange) {
    const { endpoints } = exchange.parts;
    const cached = endpoints.graphqlMocks.get(exchange.name);
    if (cached === null) return undefined;
    return after(cached ?? endpoints.graphqlMock(exchange.name), answered, exchange);
  },
};
