/**
 * The step after the queue: the request is checked against the schemas of the
 * route it matches (its `validate`). With `mode: enforce`, a request that does
 * not fit is answered `400 REQUEST_INVALID` with the errors; otherwise the
 * outcome goes on to the journal with the route's answer.
 *
 * @module
 */

import { errorAnswer } from '../../answer/endpoint-answer.js';
import type { RouteTable } from '../../answer/routes/route-table.js';
import type { ValidationMark } from '../../api/route-validation.js';
import type { Exchange } from './exchange.js';
import { routesRead } from './route-step.js';
import { after, type Step, type Verdict } from './step.js';

function refused(
  exchange: Exchange,
  routeId: string,
  params: Record<string, string>,
  validation: ValidationMark,
): Verdict {
  const { name } = exchange;
  const [first] = validation.errors;
  const count = validation.total ?? validation.errors.length;
  const where = first === undefined ? '' : `${first.in}${first.path}: ${first.message}`;
  const answer = errorAnswer(
    400,
    'REQUEST_INVALID',
    `the request does not fit the schemas of route ${routeId} of "${name}" (${count} error${count === 1 ? '' : 's'}; the first: ${where}); its validate.mode is enforce: send what they ask for, or set mode report to answer anyway`,
    { head: exchange.head, cors: true, details: { ...validation } },
  );
  return { answer, mark: { answeredBy: { route: routeId }, params, validation } };
}

function validate(table: RouteTable | null, exchange: Exchange): Verdict | undefined {
  const hit = exchange.hit(table);
  const validator = hit?.route.validator;
  if (hit === undefined || validator === undefined) return undefined;
  const { request, view } = exchange;
  const validation = validator.check({
    query: view.query,
    headers: view.headers,
    params: hit.params,
    body: request.bodyTruncated ? exchange.wholeBody : request.body,
  });
  exchange.validation = validation;
  if (validation.errors.length > 0 && validator.validation.mode === 'enforce') {
    return refused(exchange, hit.route.id, hit.params, validation);
  }
  return undefined;
}

export const validationStep: Step = {
  name: 'request validation',
  // An HTTP request's query, headers and body bytes against the route's schemas: a gRPC call's
  // message is not checked (its route's `validate` applies to HTTP requests only, as before).
  answers: 'http',
  run: (exchange) => after(exchange.routes(), validate, exchange),
  // No routes: no route to validate against.
  passes: (parts, name) => parts.endpoints.routeTables.get(name) === null,
  // A route validating the body counts in the routes' reads (`RouteTable.readsWholeBody`).
  reads: routesRead,
};
