/**
 * Answers more than one step gives: a failure's, a template that could not be
 * rendered, the record's (or its 404), and a hanging stream's release.
 *
 * @module
 */

import { type EndpointAnswer, errorAnswer, type RespondAnswer } from '../../answer/endpoint-answer.js';
import { answerCases, matchAnswer } from '../../answer/match-answer.js';
import type { AnswerMark } from '../../journal/journal-entry.js';
import { isMockpointError } from '../../registry/errors.js';
import type { CachedResponse } from '../response-cache.js';
import type { Exchange } from './exchange.js';
import type { Verdict } from './step.js';

/**
 * The answer to a request that failed: a coded error's own status and code;
 * anything else is reported and answered 500 `INTERNAL`. Not journaled.
 */
export function failedAnswer(exchange: Exchange, error: unknown): EndpointAnswer {
  const { request, head } = exchange;
  if (isMockpointError(error)) return errorAnswer(error.status, error.code, error.message, { head });
  exchange.parts.report(error, { method: request.method, url: request.target });
  return errorAnswer(500, 'INTERNAL', 'internal error; see the server log', { head });
}

/**
 * A templated answer that could not be rendered for this request (a coded
 * error such as `TEMPLATE_TOO_LARGE`; anything else is `INTERNAL`), journaled
 * with its status; `what` names the answer in the message.
 */
export function renderFailed(
  exchange: Exchange,
  mark: AnswerMark,
  what: string,
  error: unknown,
  details: Record<string, unknown>,
): Verdict {
  if (!isMockpointError(error)) return { answer: failedAnswer(exchange, error), status: 500, mark };
  const answer = errorAnswer(error.status, error.code, `${what} of "${exchange.name}": ${error.message}`, {
    head: exchange.head,
    cors: true,
    details: { ...error.details, ...details },
  });
  return { answer, mark };
}

/** The answer for the record `entry` (or 404 `NOT_FOUND`), without journaling. */
export function recordAnswer(exchange: Exchange, entry: CachedResponse | undefined): EndpointAnswer {
  const { head, name } = exchange;
  if (entry !== undefined) return head ? entry.answers.head : entry.answers.full;
  return errorAnswer(
    404,
    'NOT_FOUND',
    `no endpoint named "${name}"; create it with PUT /api/endpoint/add or list them at GET /api/endpoints`,
    { head, cors: true },
  );
}

/** A stream that ends with `hang` is let go at the next change of its name (see `EndpointChanges`). */
export function heldUntilChange<A extends EndpointAnswer>(exchange: Exchange, answer: A): A {
  return matchAnswer(answer, HELD, exchange, undefined) as A;
}

const HELD = answerCases<EndpointAnswer, Exchange>({
  stream: (answer, exchange) =>
    answer.end === 'hang' ? { ...answer, release: exchange.parts.endpoints.changes.signal(exchange.name) } : answer,
  otherwise: (answer) => answer,
});

/**
 * The headers of a refusal kept when a protocol says it in its own form (an MCP call's
 * JSON-RPC error, a gRPC call's metadata): when to retry, and the rate limit's.
 */
export function refusalHeaders(answer: Pick<RespondAnswer, 'headers'>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(answer.headers)) {
    if (name === 'retry-after' || name.startsWith('ratelimit') || name.startsWith('x-ratelimit')) {
      out[name] = String(value);
    }
  }
  return out;
}
