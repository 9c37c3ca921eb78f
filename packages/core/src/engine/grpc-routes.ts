/**
 * Routes answering gRPC calls: the first route (in list order) with a `grpc`
 * answer whose filter holds for the call — its `grpc` field over the service,
 * the method and the (first) request message in proto3 JSON, `headers` over
 * the call's metadata, `state` over the endpoint's scenarios — answers it,
 * rendered when templated (`{{body.a}}` the first message, `{{messages}}` all
 * of them), moving the state with its `setState` as an HTTP route does. Also
 * the check, when routes are saved, that a route's messages fit its method's
 * output type.
 *
 * @module
 */
import type { RouteHit, RouteTable } from '../answer/routes/route-table.js';
import { compileJsonTemplate, RenderBudget, renderJson, type TemplateContext } from '../answer/template.js';
import type { GrpcAnswer, GrpcAnswerMessage } from '../api/answer-grpc.js';
import { grpcCodeOf } from '../api/answer-grpc.js';
import { rateLimitHeaders } from '../api/rate-limit-headers.js';
import type { Route, RouteAnswer } from '../api/route.js';
import type { States } from '../api/state-json.js';
import type { GrpcCallInfo, GrpcOut, GrpcReply, GrpcRouting } from '../grpc/grpc-reply.js';
import { firstMismatch } from '../journal/graphql-filter.js';
import type { FilterSubject } from '../journal/request-filter.js';
import { MockpointError } from '../registry/errors.js';
import type { EndpointService } from './endpoint-service.js';
import type { GrpcCallLimits } from './grpc-catalog.js';
import { gateGrpcCall, mayGate, replyOfVerdict } from './grpc-gate.js';
import { queuedReply } from './grpc-queue.js';
import type { PipelineParts } from './pipeline/exchange.js';
import { refusedAnswer } from './pipeline/rate-limit-answers.js';
import { takeToken } from './pipeline/rate-limit-step.js';
import { checkRoom, keptMoving, MAX_MOVES, pick, scheduleLater, splitMove } from './pipeline/state-moves.js';

/** What answering a call by a route needs of the app: the pipeline's parts (the steps run on calls too). */
export type GrpcRouteParts = Pick<PipelineParts, 'endpoints' | 'clock' | 'timers' | 'maxTimers' | 'maxBodyBytes'>;

function headersOf(headers: Headers): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  for (const [name, value] of headers) out[name] = value;
  return out;
}

/** A call (or one of a bidirectional call's messages) as the one filter sees it. */
export function subjectOf(info: GrpcCallInfo, message: unknown, state?: States): FilterSubject {
  return {
    method: 'POST',
    subpath: `/${info.service}/${info.method}`,
    query: {},
    rawQuery: '',
    headers: headersOf(info.headers),
    body: JSON.stringify(message ?? null),
    bodyTruncated: false,
    json: message,
    grpc: { service: info.service, method: info.method, message },
    ...(state === undefined ? {} : { state: { before: state } }),
  };
}

/** Compiled templates by the answer's text. */
const TEMPLATES = new Map<string, ReturnType<typeof compileJsonTemplate>>();

/** `value` with its templates rendered in `context`. */
function rendered<T>(value: T, context: TemplateContext): T {
  const text = JSON.stringify(value);
  let template = TEMPLATES.get(text);
  if (template === undefined) {
    template = compileJsonTemplate(text);
    if (TEMPLATES.size >= 1000) TEMPLATES.clear();
    TEMPLATES.set(text, template);
  }
  return JSON.parse(renderJson(template, context)) as T;
}

function outs(messages: readonly GrpcAnswerMessage[] | undefined): GrpcOut[] {
  return (messages ?? []).map(({ message, delay }) => (delay === undefined ? { message } : { message, delay }));
}

/** Where an answer comes from, for its reply: `route r1` or `the queued answer`, with the template's `params` and `seq`. */
export interface GrpcAnswerSource {
  by: string;
  route?: string;
  queued?: true;
  params: Record<string, string>;
  seq: number;
}

/** The reply a route's or queued answer gives `info`, rendered when templated. */
export function answerReply(
  parts: GrpcRouteParts,
  answer: Pick<RouteAnswer, 'grpc' | 'delay' | 'fault' | 'template'>,
  source: GrpcAnswerSource,
  info: GrpcCallInfo,
  state: States | undefined,
): GrpcReply {
  const contextOf = (message: unknown): TemplateContext => ({
    params: source.params,
    query: {},
    headers: headersOf(info.headers),
    json: message,
    seq: source.seq,
    budget: new RenderBudget(parts.maxBodyBytes),
    state: state ?? {},
    now: parts.clock.now(),
    messages: info.messages,
  });
  const template = answer.template === true;
  const grpc = template
    ? rendered(answer.grpc as GrpcAnswer, contextOf(info.messages[0]))
    : (answer.grpc as GrpcAnswer);
  const reply: GrpcReply = {
    by: source.by,
    messages: grpc.message !== undefined ? [{ message: grpc.message }] : outs(grpc.messages),
  };
  if (source.route !== undefined) reply.route = source.route;
  if (source.queued === true) reply.queued = true;
  if (template) reply.templated = true;
  if (answer.delay !== undefined) reply.delay = answer.delay;
  if (grpc.metadata !== undefined) reply.metadata = grpc.metadata;
  if (grpc.trailers !== undefined) reply.trailers = grpc.trailers;
  if (answer.fault === 'reset') reply.reset = true;
  if (grpc.status !== undefined) {
    reply.status = { code: grpcCodeOf(grpc.status.code) ?? 2 };
    if (grpc.status.message !== undefined) reply.status.message = grpc.status.message;
    if (grpc.status.details !== undefined) reply.status.details = grpc.status.details;
  }
  const on = (answer.grpc as GrpcAnswer).on;
  if (on !== undefined) {
    reply.onMessage = (message) => {
      const subject = subjectOf(info, message);
      const found = on.find((entry) => entry.match === undefined || firstMismatch(subject, entry.match) === undefined);
      const sent = outs(found?.send);
      return template ? rendered(sent, contextOf(message)) : sent;
    };
  }
  return reply;
}

/** The reply a route's answer gives `info`, rendered when templated. */
function replyOf(parts: GrpcRouteParts, hit: RouteHit, info: GrpcCallInfo, state: States | undefined): GrpcReply {
  const { route } = hit;
  const source = { by: `route ${route.id}`, route: route.id, params: hit.params, seq: ++route.seq };
  return answerReply(parts, route.route.answer, source, info, state);
}

/**
 * The rate limit of `hit`'s route, through the pipeline's bucket (rate-limit-step.ts): `refused`, the
 * call's `resource_exhausted` (with the style's headers as metadata); else the headers its answer carries.
 */
async function limit(
  parts: PipelineParts,
  name: string,
  table: RouteTable,
  hit: RouteHit,
): Promise<{ refused?: GrpcReply; headers?: Record<string, string> }> {
  const rateLimit = hit.route.route.rateLimit;
  if (rateLimit === undefined) return {};
  const { take, style, bucket } = takeToken(parts.rateBuckets, table, name, hit, rateLimit);
  const took = await take;
  if (took.allowed) return { headers: rateLimitHeaders(style, took, bucket) };
  const answer = refusedAnswer(style, took, bucket, hit.route.id, false);
  const mark = { answeredBy: { route: hit.route.id }, params: hit.params, rateLimited: true as const };
  return { refused: replyOfVerdict({ answer, mark }, `route ${hit.route.id}`) };
}

/** The reply of `hit`'s route once its rate limit let the call through; the limit's refusal otherwise. */
async function limitedReply(
  parts: PipelineParts,
  name: string,
  table: RouteTable,
  hit: RouteHit,
  info: GrpcCallInfo,
  state: States | undefined,
): Promise<GrpcReply> {
  const { refused, headers } = await limit(parts, name, table, hit);
  if (refused !== undefined) return refused;
  const reply = replyOf(parts, hit, info, state);
  return headers === undefined ? reply : { ...reply, metadata: { ...headers, ...reply.metadata } };
}

/** The first grpc route for `info` on the scenarios as they are, moving them with its setState (as route-step.ts does). */
async function statefully(parts: PipelineParts, name: string, table: RouteTable, info: GrpcCallInfo) {
  const { states } = parts.endpoints;
  let limited = false;
  for (let attempt = 0; attempt < MAX_MOVES; attempt++) {
    const before = await states.get(name);
    const hit = table.select(subjectOf(info, info.messages[0], before));
    if (hit === undefined) return undefined;
    if (!limited && hit.route.route.rateLimit !== undefined) {
      // The token is taken once, on the route selected on the state as the call found it (as rate-limit-step.ts).
      limited = true;
      const { refused } = await limit(parts, name, table, hit);
      if (refused !== undefined) return refused;
    }
    const moves = hit.route.route.answer.setState;
    if (moves === undefined) return replyOf(parts, hit, info, before);
    const move = splitMove(moves);
    if (move.later !== undefined) checkRoom(parts.timers, parts.maxTimers);
    const after = await states.move(name, pick(before, table.stateScenarios), move.now);
    if (after === undefined) continue;
    scheduleLater(parts.timers, parts.maxTimers, name, move, after);
    return replyOf(parts, hit, info, after);
  }
  throw keptMoving(name);
}

/** The reply of the queue or the routes, or `undefined` (schema mode). */
async function routedReply(parts: PipelineParts, name: string, info: GrpcCallInfo): Promise<GrpcReply | undefined> {
  // A queued grpc answer the call matches comes first (grpc-queue.ts).
  if (parts.endpoints.queue.pending(name)) {
    const queued = await queuedReply(parts, name, info);
    if (queued !== undefined) return queued;
  }
  const table = await parts.endpoints.routeTable(name);
  if (table === null || !table.routes.some((route) => route.route.answer.grpc !== undefined)) return undefined;
  if (table.usesState) return statefully(parts, name, table, info);
  const hit = table.select(subjectOf(info, info.messages[0]));
  return hit === undefined ? undefined : limitedReply(parts, name, table, hit, info, undefined);
}

/**
 * The routing of `name`'s calls: the pipeline's signature check and chaos first (grpc-gate.ts), then
 * its queued `grpc` answers, then its routes with a `grpc` answer (read once per change of its routes),
 * each route behind its rate limit; the chaos latency added to whatever answers, its bandwidth applied.
 */
export function grpcRouting(parts: PipelineParts, name: string): GrpcRouting {
  return async (info) => {
    // A name known to have no signature check and no chaos skips the gate without a Promise.
    const gate = mayGate(parts, name) ? await gateGrpcCall(parts, name, info) : undefined;
    if (gate !== undefined && gate.schema !== true) return gate;
    const reply = await routedReply(parts, name, info);
    if (gate === undefined) return reply;
    if (reply === undefined) return gate;
    const delayed: GrpcReply = { ...reply, delay: (reply.delay ?? 0) + (gate.delay ?? 0) };
    if (gate.bandwidth !== undefined) delayed.bandwidth = gate.bandwidth;
    if (gate.signature !== undefined) delayed.signature = gate.signature;
    return delayed;
  };
}

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
