/**
 * How the route step answers each kind of route answer (api/answer-kinds.ts),
 * keyed by its name: `compiled`, its compiled answer sent and journaled by the
 * step (answer/routes/answer-kinds.ts); or its own verdict (it journals its
 * answer itself), and whether a queued answer may fall back to it.
 *
 * @module
 */

import type { RouteHit } from '../../answer/routes/route-table.js';
import type { AnswerKindName } from '../../api/answer-kinds.js';
import type { RouteAnswer } from '../../api/route.js';
import type { Exchange } from './exchange.js';
import { grpcVerdict } from './grpc-answer.js';
import { mcpVerdict } from './mcp-answer.js';
import { proxyVerdict } from './proxy-verdict.js';
import { resourceVerdict } from './resource-answer.js';
import type { Verdict } from './step.js';

/** A kind the route step answers itself. */
export interface KindVerdict<K extends AnswerKindName = AnswerKindName> {
  verdict(exchange: Exchange, hit: RouteHit, value: NonNullable<RouteAnswer[K]>): Verdict | Promise<Verdict>;
  /** `false`: a queued answer's absent fields find nothing to lend here (it answers only over the network). */
  lends?: false;
}

export const ROUTE_KINDS: { readonly [K in AnswerKindName]: KindVerdict<K> | 'compiled' } = {
  stream: 'compiled',
  fault: 'compiled',
  proxy: { verdict: proxyVerdict, lends: false },
  resource: { verdict: resourceVerdict },
  websocket: 'compiled',
  llm: 'compiled',
  mcp: { verdict: mcpVerdict },
  // Reached by calls only (route-table.ts); the reply is played at the call's edge (engine/grpc-edge.ts).
  grpc: { verdict: grpcVerdict, lends: false },
};

/** The kinds with their own verdict, as [name, verdict] pairs (looked up per request). */
export const VERDICT_KINDS: readonly (readonly [AnswerKindName, KindVerdict])[] = Object.entries(ROUTE_KINDS).flatMap(
  ([name, step]) => (step === 'compiled' ? [] : [[name as AnswerKindName, step as KindVerdict] as const]),
);
