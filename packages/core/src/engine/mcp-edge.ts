/**
 * MCP's edge of the one pipeline (docs/design.md#every-feature-composes, §2.21; docs/mcp.md, "Chaos,
 * rate limits, signatures, the queue"): applied once, to the pipeline's final
 * verdict (EndpointHandler.handle), as engine/grpc-edge.ts says a gRPC call's.
 * When the verdict is a refusal ({@link isRefusal}: a status of 400 or more
 * with mockpoint's own error body or none, such as the signature check's, the
 * chaos's, a bodiless queued status or a rate limit's, whichever step gave
 * it; a route's own answer, an enforced validation's 400 among them, is the
 * route's and not one) and the request is a JSON-RPC request to an `mcp`
 * route, it is written as a JSON-RPC error for its `id`, in a `200` (JSON, or
 * one SSE event as the fake answers), `error.data` holding the stable code
 * and the HTTP status it stands for. The codes are here and nowhere else, as
 * gRPC's are in engine/grpc-edge.ts. A notification, a response, a body that is not a JSON-RPC request, or a
 * request to a route of another kind keeps the HTTP form; `reset` and
 * `timeout` stay at the connection (they are faults, not answers). No step
 * needs wrapping: a new one's refusals reach an MCP client in this form.
 *
 * @module
 */

import type { EndpointAnswer, RespondAnswer } from '../answer/endpoint-answer.js';
import { answerCases, matchAnswer } from '../answer/match-answer.js';
import type { RouteTable } from '../answer/routes/route-table.js';
import type { McpAnswer } from '../api/mcp-json.js';
import type { AnswerMark } from '../journal/journal-entry.js';
import { NOT_JSON } from '../journal/request-filter.js';
import type { Exchange } from './pipeline/exchange.js';
import { mcpMessageText, sentToMcp } from './pipeline/mcp-answer.js';
import type { Maybe, Verdict } from './pipeline/step.js';
import { refusalHeaders } from './pipeline/verdicts.js';

/**
 * The JSON-RPC codes of the HTTP statuses the pipeline refuses with. `500` is
 * JSON-RPC's own Internal error; the others sit in the implementation-defined
 * server-error range (-32000…-32099), clear of the codes MCP and its SDKs use
 * (-32000…-32003, -32042).
 */
const RPC_CODE_OF_STATUS: Readonly<Record<number, number>> = {
  401: -32052,
  429: -32051,
  500: -32603,
  503: -32050,
};
/** Any other status (a queued `statusCode`). */
const RPC_REFUSED = -32059;
/** The MCP SDK's code for what its transport refuses before reading a message (a body over its limit). */
const RPC_SERVER_ERROR = -32000;

/** The JSON-RPC error code an HTTP status stands for in an MCP call's answer. */
export function rpcCodeOfStatus(status: number): number {
  return RPC_CODE_OF_STATUS[status] ?? RPC_REFUSED;
}

function bodyText(answer: RespondAnswer): string {
  if (answer.body === null) return '';
  return typeof answer.body === 'string' ? answer.body : new TextDecoder().decode(answer.body);
}

/** The stable code and message of a refusal: mockpoint's own error body, or (a rate limit in a provider's style) the code it stands for. */
function refusalOf(answer: RespondAnswer, rateLimited: boolean): { code?: string; message: string } {
  const text = bodyText(answer);
  let parsed: { success?: unknown; message?: unknown; error?: { code?: unknown; message?: unknown } } = {};
  try {
    parsed = text === '' ? {} : (JSON.parse(text) as typeof parsed);
  } catch {
    // a provider's body that is not JSON: its status speaks for it
  }
  const own = parsed.success === false && typeof parsed.error?.code === 'string' ? parsed.error.code : undefined;
  const said = parsed.error?.message ?? parsed.message;
  const message = typeof said === 'string' ? said : `refused with HTTP ${answer.status} (a queued answer's statusCode)`;
  const code = own ?? (rateLimited ? 'RATE_LIMITED' : undefined);
  return code === undefined ? { message } : { code, message };
}

/** Whether a verdict is one of the pipeline's refusals (not the fake server's own answer, nor a queued body). */
function isRefusal(verdict: Verdict): verdict is Verdict & { answer: RespondAnswer } {
  return matchAnswer(verdict.answer, REFUSAL, verdict.mark, undefined);
}

/** Only a respond answer can be a refusal (a status of 400 or more; see {@link refusing}). */
const REFUSAL = answerCases<boolean, AnswerMark | undefined>({
  respond: refusing,
  otherwise: () => false,
});

function refusing(answer: RespondAnswer, mark: AnswerMark | undefined): boolean {
  if (answer.status < 400) return false;
  if (mark?.rateLimited === true) return true;
  const by = mark?.answeredBy;
  if (typeof by === 'object' && 'route' in by) return false;
  // A queued status with a body of its own is the body the test asked for.
  return answer.body === null || bodyText(answer) === '' || bodyText(answer).startsWith('{"success":false');
}

/** The JSON-RPC request's id, or `undefined` when the body is not a JSON-RPC request. */
function requestId(exchange: Exchange): string | number | undefined {
  const { view } = exchange;
  const message = view.bodyTruncated ? NOT_JSON : view.json;
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  const { id, method } = message as { id?: unknown; method?: unknown };
  if (typeof method !== 'string') return undefined;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : undefined;
}

/** `verdict` as the MCP call's JSON-RPC error, when the request is one to an `mcp` route. */
function written(table: RouteTable | null, exchange: Exchange, verdict: Verdict & { answer: RespondAnswer }): Verdict {
  const mcp = exchange.hit(table)?.route.route.answer.mcp as McpAnswer | undefined;
  if (mcp === undefined) return verdict;
  if (exchange.request.bodyTooLarge === true) return tooLarge(exchange, mcp, verdict);
  const id = requestId(exchange);
  if (id === undefined) return verdict;
  const { answer } = verdict;
  const { code, message } = refusalOf(answer, verdict.mark?.rateLimited === true);
  const data = code === undefined ? { status: answer.status } : { code, status: answer.status };
  const error = { code: rpcCodeOfStatus(answer.status), message, data };
  const sent: EndpointAnswer = sentToMcp(exchange, mcp, 200, mcpMessageText(id, { error }), refusalHeaders(answer));
  return { ...verdict, answer: answer.delay > 0 ? { ...sent, delay: answer.delay } : sent };
}

/**
 * A body over the limit, unread, has no `id` to answer: as the MCP SDK's own
 * server answers it, a `413` with a JSON-RPC error for `id: null` (code `-32000`),
 * `error.data` holding the stable code and the status.
 */
function tooLarge(exchange: Exchange, mcp: McpAnswer, verdict: Verdict & { answer: RespondAnswer }): Verdict {
  const { answer } = verdict;
  const { code, message } = refusalOf(answer, false);
  const error = { code: RPC_SERVER_ERROR, message, data: { code, status: answer.status } };
  const text = mcpMessageText(null, { error });
  return { ...verdict, answer: sentToMcp(exchange, mcp, answer.status, text, { connection: 'close' }) };
}

/**
 * The pipeline's final `verdict` for `exchange`, in MCP's form when it is a
 * refusal of a JSON-RPC request to an `mcp` route (a Promise only while the
 * name's routes are looked up); any other verdict as it is.
 */
export function mcpForm(verdict: Verdict, exchange: Exchange): Maybe<Verdict> {
  if (!isRefusal(verdict)) return verdict;
  const table = exchange.routes();
  return table instanceof Promise
    ? table.then((loaded) => written(loaded, exchange, verdict))
    : written(table, exchange, verdict);
}
