/**
 * The GraphQL worker thread's module (built as `graphql-worker.js`; started by
 * `graphqlWorker()`, see graphql-worker.ts): builds stored schemas and answers
 * their operations, one job at a time, in the order sent.
 *
 * @module
 */
import { parentPort } from 'node:worker_threads';
import { answerText, BuiltMocks } from '../../graphql/built-mocks.js';
import { graphqlOperationOf } from '../../graphql/graphql-request.js';
import { buildGraphqlSchema } from '../../graphql/graphql-schema.js';
import { isMockpointError } from '../../registry/errors.js';
import type { FromWorker, ToWorker, WireCall, WireError } from './graphql-worker.js';

const port = parentPort;
if (port === null) throw new Error('mockpoint: graphql-worker.js runs as a worker thread (graphqlWorker())');

const send = (message: FromWorker) => port.postMessage(message);
const built = new BuiltMocks({ log: (line) => send({ log: line }) });

/** The operation `call` was read from, as the event loop read it (its problem too). */
function operationOf(call: WireCall) {
  const operation = graphqlOperationOf({
    query: call.query,
    operationName: call.requestedName,
    variables: call.variables,
  });
  if (operation === undefined) throw new Error('mockpoint: a GraphQL call without a query reached the worker');
  return { ...operation, problem: call.problem };
}

function wireError(error: unknown): WireError {
  if (isMockpointError(error)) return { code: error.code, message: error.message, details: error.details };
  return { message: error instanceof Error ? error.message : String(error) };
}

function handle(message: ToWorker): void {
  if (message.kind === 'forget') {
    built.forget(message.name);
    return;
  }
  const { id } = message;
  try {
    if (message.kind === 'check') {
      buildGraphqlSchema(message.sdl, message.maxBytes);
      send({ id, answers: [] });
      return;
    }
    const { name, version, sdl } = message;
    if (sdl === undefined && !built.has(name, version)) {
      send({ id, missing: true });
      return;
    }
    const mock = built.mock(name, version, sdl ?? '');
    const answers = message.calls.map((call) =>
      answerText(mock, { operation: operationOf(call), maxValues: call.maxValues, event: call.event }),
    );
    send({ id, answers });
  } catch (error) {
    send({ id, error: wireError(error) });
  }
}

port.on('message', handle);
