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
import type { TakenAnswer } from '../wire/answer-json.js';
import type { States } from '../wire/state-json.js';
import { answerReply, type GrpcRouteParts, subjectOf } from './grpc-routes.js';
import {
  checkRoom,
  keptMoving,
  keptOnRefusal,
  MAX_MOVES,
  pick,
  scenariosOf,
  scheduleLater,
  splitMove,
} from './pipeline/state-moves.js';

/**
 * The state after the move `answer` makes (its `setState`, where `match.state`
 * still holds), its timed part scheduled; `undefined` when the state moved meanwhile.
 */
async function moveFor(
  parts: GrpcRouteParts,
  name: string,
  before: States,
  answer: TakenAnswer,
): Promise<States | undefined> {
  const { match, setState } = answer;
  const move = setState === undefined ? undefined : splitMove(setState);
  if (move?.later !== undefined) checkRoom(parts.timers, parts.maxTimers);
  const moved =
    move === undefined
      ? before
      : await parts.endpoints.states.move(name, pick(before, scenariosOf(match?.state)), move.now);
  if (moved !== undefined && move !== undefined) scheduleLater(parts.timers, parts.maxTimers, name, move, moved);
  return moved;
}

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
      // A refusal here (TOO_MANY_TIMERS, a store failure) leaves the answer queued, first in line.
      const moved = await keptOnRefusal(
        () => moveFor(parts, name, before, taken.answer),
        () => queue.putBack(name, taken),
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
