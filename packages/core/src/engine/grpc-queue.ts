/**
 * Queued answers for gRPC calls: the first queued `grpc` answer a call matches
 * (its `match` over the call as the one filter sees it, the `grpc` field
 * included) answers it, once, before routes and schema mode. One that looks at
 * the state or moves it does so in the same compare-and-set as an HTTP
 * request's queued answer (pipeline/queue-step.ts): when the state moved
 * meanwhile, the use goes back first in line and the call takes again.
 *
 * @module
 */
import type { GrpcCallInfo, GrpcReply } from '../grpc/grpc-reply.js';
import { pathParams } from '../journal/request-filter.js';
import { answerReply, type GrpcRouteParts, subjectOf } from './grpc-routes.js';
import { keptMoving, MAX_MOVES, moveForTaken } from './pipeline/state-moves.js';

/** The reply of the queued `grpc` answer `info` takes from `name`'s queue, or `undefined` when it takes none. */
export async function queuedReply(
  parts: GrpcRouteParts,
  name: string,
  info: GrpcCallInfo,
): Promise<GrpcReply | undefined> {
  const { queue, states } = parts.endpoints;
  for (let attempt = 0; attempt < MAX_MOVES; attempt++) {
    const before = await states.get(name);
    const subject = subjectOf(info, info.messages[0], before);
    const taken = await queue.take(name, subject);
    if (taken === undefined) return undefined;
    const { match, setState } = taken.answer;
    let after = before;
    if (match?.state !== undefined || setState !== undefined) {
      const { timers, maxTimers } = parts;
      const moved = await moveForTaken({ states, timers, maxTimers }, name, before, taken.answer, () =>
        queue.putBack(name, taken),
      );
      if (moved === undefined) {
        await queue.putBack(name, taken);
        continue;
      }
      after = moved;
    }
    const params = (match?.path !== undefined && pathParams(match.path, subject.subpath)) || {};
    return answerReply(parts, taken.answer, { by: 'the queued answer', queued: true, params, seq: 1 }, info, after);
  }
  throw keptMoving(name);
}
