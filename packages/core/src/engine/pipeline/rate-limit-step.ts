/**
 * Rate limits around the routes' step: when the route a request matches has a
 * `rateLimit`, the request takes a token from its bucket (engine/rate-buckets.ts)
 * first. With one, the route answers as it would and its answer carries the
 * style's headers (rate-limit-answers.ts); without, the request gets the
 * style's `429` with `Retry-After`, journaled with the route and
 * `rateLimited: true`. Requests to routes without a limit pass straight through.
 *
 * A queued answer (an earlier step) takes no token: it answers instead of the
 * route. Routes that look at the state are checked against the route selected
 * on the state as the request found it.
 *
 * @module
 */

import { headersAdded } from '../../answer/match-answer.js';
import type { RouteHit, RouteTable } from '../../answer/routes/route-table.js';
import { type RateLimitStyle, type RouteRateLimit, windowMs } from '../../api/rate-limit.js';
import { rateLimitHeaders } from '../../api/rate-limit-headers.js';
import type { AnswerMark } from '../../journal/journal-entry.js';
import type { BucketTake, RateBuckets } from '../rate-buckets.js';
import type { Exchange } from './exchange.js';
import { refusedAnswer } from './rate-limit-answers.js';
import { routeStep } from './route-step.js';
import { after, type Maybe, type Step, type Verdict } from './step.js';

/** `verdict` with `headers` added to its answer (a fault sends none of its own). */
function withHeaders(verdict: Verdict | undefined, headers: Record<string, string>): Verdict | undefined {
  if (verdict === undefined) return verdict;
  const answer = headersAdded(verdict.answer, headers);
  return answer === verdict.answer ? verdict : { ...verdict, answer };
}

/** Whether a table has a rate-limited route, once per table: the others go straight to the routes' step. */
const LIMITED = new WeakMap<RouteTable, boolean>();

function hasLimits(table: RouteTable): boolean {
  let found = LIMITED.get(table);
  if (found === undefined) {
    found = table.routes.some((route) => route.route.rateLimit !== undefined);
    LIMITED.set(table, found);
  }
  return found;
}

/** A token taken for `hit`'s route from its bucket: the take (now, or once Redis has counted it), the style and the bucket. */
export function takeToken(
  rateBuckets: RateBuckets,
  table: RouteTable,
  name: string,
  hit: RouteHit,
  rateLimit: RouteRateLimit,
): { take: Maybe<BucketTake>; style: RateLimitStyle; bucket: string } {
  const bucket = rateLimit.bucket ?? hit.route.id;
  const take = rateBuckets.take(table, name, bucket, rateLimit.limit, windowMs(rateLimit.per) as number);
  return { take, style: rateLimit.style ?? 'ietf', bucket };
}

function limited(table: RouteTable | null, exchange: Exchange): Maybe<Verdict | undefined> {
  if (table === null || !hasLimits(table)) return routeStep.run(exchange);
  const hit = exchange.hit(table);
  const rateLimit = hit?.route.route.rateLimit;
  if (hit === undefined || rateLimit === undefined) return routeStep.run(exchange);
  const { take, style, bucket } = takeToken(exchange.parts.rateBuckets, table, exchange.name, hit, rateLimit);
  const answer = (took: BucketTake): Maybe<Verdict | undefined> => {
    if (!took.allowed) {
      const mark: AnswerMark = { answeredBy: { route: hit.route.id }, params: hit.params, rateLimited: true };
      return { answer: refusedAnswer(style, took, bucket, hit.route.id, exchange.head), mark };
    }
    const headers = rateLimitHeaders(style, took, bucket);
    const verdict = routeStep.run(exchange);
    if (headers === undefined) return verdict;
    return verdict instanceof Promise
      ? verdict.then((ready) => withHeaders(ready, headers))
      : withHeaders(verdict, headers);
  };
  // Counted in this process at once; where replicas share the buckets (Redis), once Redis has counted it.
  return take instanceof Promise ? take.then(answer) : answer(take);
}

/** The routes' step behind the rate limits of the routes it answers with: the pipeline's step 5. */
export const rateLimitedRouteStep: Step = {
  name: 'rate limits, then routes',
  run: (exchange) => after(exchange.routes(), limited, exchange),
  // No routes: no limit, no route answers.
  passes: (parts, name) => parts.endpoints.routeTables.get(name) === null,
  reads: routeStep.reads,
};
