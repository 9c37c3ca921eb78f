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
import { type GraphqlOperation, type GraphqlRequest, graphqlRequestOf } from '../../graphql/graphql-request.js';
import type { GraphqlCall, StoredGraphqlSchema } from '../../graphql/graphql-runner.js';
import { BY_GRAPHQL } from '../../journal/journal-entry.js';
import type { Exchange } from './exchange.js';
import { graphqlWsVerdict } from './graphql-ws-step.js';
import { asksUpgrade } from './route-step.js';
import { after, type BodyReads, type Maybe, type Step, type Verdict } from './step.js';

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
const SUBSCRIPTION_OVER_HTTP = JSON.stringify({
  errors: [
    new GraphQLError(
      'Subscriptions are answered over graphql-ws: open a WebSocket to this URL with the subprotocol graphql-transport-ws (docs/graphql.md).',
    ),
  ],
} satisfies ExecutionResult);

/** The most values one request's answers may hold together (a batch shares it). */
const MAX_REQUEST_VALUES = 100_000;

function verdictOf(exchange: Exchange, body: string, status: number): Verdict {
  const prepared = prepareAnswers(body, status, 0);
  const answer: EndpointAnswer = exchange.head ? prepared.head : prepared.full;
  return { answer, mark: BY_GRAPHQL };
}

/**
 * Each operation's answer as JSON text, in order: a subscription's refusal
 * here, the others from the schema's runner (the daemon's worker thread).
 */
function answerTexts(schema: StoredGraphqlSchema, request: GraphqlRequest, exchange: Exchange): Maybe<string[]> {
  const maxValues = Math.floor(MAX_REQUEST_VALUES / request.operations.length);
  const calls: GraphqlCall[] = [];
  for (const operation of request.operations) {
    if (operation.operationType !== 'subscription') calls.push({ operation, maxValues });
  }
  const texts = () => request.operations.map(() => SUBSCRIPTION_OVER_HTTP);
  if (calls.length === 0) return texts();
  return exchange.parts.endpoints.graphqlRunner.answer(schema, calls).then((answers) => {
    const all = texts();
    let next = 0;
    request.operations.forEach((operation, index) => {
      if (operation.operationType !== 'subscription') all[index] = (answers[next++] as { json: string }).json;
    });
    return all;
  });
}

function answered(schema: StoredGraphqlSchema | null, exchange: Exchange): Maybe<Verdict | undefined> {
  if (schema === null) return undefined;
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
  // JSON.stringify of an array is its members' texts, joined by commas, in brackets.
  const body = (texts: string[]) => (request.batch ? `[${texts.join(',')}]` : (texts[0] as string));
  return after(answerTexts(schema, request, exchange), (texts) => verdictOf(exchange, body(texts), 200), exchange);
}

const schemaReads = (schema: StoredGraphqlSchema | null): BodyReads => (schema === null ? 'first-bytes' : 'whole-body');

export const graphqlStep: Step = {
  name: 'graphql schema',
  answers: 'http',
  passes: (parts, name) => parts.endpoints.compiled.get('graphql', name) === null,
  // A name with a schema reads every query whole (a document past the journal's copy is still answered).
  reads({ endpoints }, name) {
    const cached = endpoints.compiled.get('graphql', name);
    return cached === undefined ? endpoints.compiled.read('graphql', name).then(schemaReads) : schemaReads(cached);
  },
  run(exchange) {
    const { endpoints } = exchange.parts;
    const cached = endpoints.compiled.get('graphql', exchange.name);
    if (cached === null) return undefined;
    return after(cached ?? endpoints.compiled.read('graphql', exchange.name), answered, exchange);
  },
};
