/**
 * The check, when routes or queued answers are saved, that a `grpc` answer's
 * messages fit its method's output type (`INVALID_GRPC_ANSWER`), against the
 * name's definitions.
 *
 * @module
 */
import type { GrpcAnswer } from '../api/answer-grpc.js';
import type { Route, RouteAnswer } from '../api/route.js';
import type { EndpointService } from '../engine/endpoint-service.js';
import type { GrpcCallLimits } from '../engine/grpc-catalog.js';
import { MockpointError } from '../registry/errors.js';

/** The messages of a gRPC answer, each with where it sits: `message`, `messages[1]`, `on[0].send[2]`. */
function messagesOf(grpc: GrpcAnswer): [string, unknown][] {
  const out: [string, unknown][] = [];
  if (grpc.message !== undefined) out.push(['message', grpc.message]);
  for (const [i, one] of (grpc.messages ?? []).entries()) out.push([`messages[${i}].message`, one.message]);
  for (const [i, reply] of (grpc.on ?? []).entries()) {
    for (const [j, one] of (reply.send ?? []).entries()) out.push([`on[${i}].send[${j}].message`, one.message]);
  }
  return out;
}

/** What {@link checkGrpcAnswers} looks at: a route, or a queued answer as one (`answer` the answer itself). */
export interface GrpcChecked {
  match?: Route['match'];
  answer: Pick<RouteAnswer, 'grpc' | 'template'>;
}

/**
 * `routes`, once checked: refuses (`INVALID_GRPC_ANSWER`) a route whose `grpc` answer holds a message
 * that is no message of its method's output type: checked for routes whose
 * `match.grpc` names a service and method of `name`'s definitions and whose
 * answer is not templated (a template's text is checked once rendered).
 */
export async function checkGrpcRoutes(
  endpoints: EndpointService,
  name: string,
  routes: Route[],
  limits: GrpcCallLimits,
): Promise<Route[]> {
  await checkGrpcAnswers(endpoints, name, routes, limits, 'routes');
  return routes;
}

/**
 * The check of {@link checkGrpcRoutes} over routes (`list` `routes`, messages
 * naming `routes[0].answer.grpc…`) or queued answers (`answers`, naming `answers[0].grpc…`).
 */
export async function checkGrpcAnswers(
  endpoints: EndpointService,
  name: string,
  items: readonly GrpcChecked[],
  limits: GrpcCallLimits,
  list: 'routes' | 'answers',
): Promise<void> {
  const checked = items
    .map((item, index) => ({ item, index }))
    .filter(({ item }) => item.answer.grpc !== undefined && item.answer.template !== true);
  if (checked.length === 0) return;
  const server = await endpoints.grpc.server(name, limits);
  if (server === null) return;
  for (const { item, index } of checked) {
    const { service, method } = item.match?.grpc ?? {};
    if (service === undefined || method === undefined) continue;
    const path = `/${service}/${method}`;
    if (!server.has(path)) continue;
    for (const [where, message] of messagesOf(item.answer.grpc as GrpcAnswer)) {
      const problem = server.messageProblem(path, message);
      if (problem === undefined) continue;
      const at = list === 'routes' ? `routes[${index}]: answer.grpc` : `answers[${index}]: grpc`;
      throw new MockpointError('INVALID_GRPC_ANSWER', `${at}.${where}: ${problem}`, { details: { index } });
    }
  }
}
