/**
 * Queued one-shot answers: per endpoint name, a FIFO of answers that requests to
 * `/endpoint/{name}` consume, in order and each exactly once, before the stored
 * record answers. This file holds the contract; implementations live in folders
 * beside it (`memory/` in this process; the Redis one, shared by replicas, is
 * `RedisAnswerQueue` in `store/redis/`).
 *
 * @module
 */

import type { QueuedAnswer, TakenAnswer } from '../api/answer-json.js';
import type { FilterSubject } from '../journal/request-filter.js';

/**
 * Whether `answer` is for the kind of request `request` is: a `grpc` answer is
 * taken only by a gRPC call (a subject with `grpc`), any other only by an HTTP
 * request (or a take without a request).
 */
export function answersKindOf(answer: TakenAnswer, request: FilterSubject | undefined): boolean {
  return (answer.grpc !== undefined) === (request?.grpc !== undefined);
}

/** What {@link AnswerQueue.take} hands a request. */
export interface Taken {
  answer: TakenAnswer;
  /**
   * Aborts when the queue of the name is cleared after this use was taken (or
   * {@link AnswerQueue.releaseHangs} is called): a `hang` waits on it. A clear
   * that came before the take never aborts it.
   */
  release: AbortSignal;
}

/**
 * Where queued answers are kept. Every method may be called concurrently; an
 * answer use handed out by {@link AnswerQueue.take} is never handed out twice.
 */
export interface AnswerQueue {
  /** A short name for diagnostics, e.g. `memory` or `redis`. */
  readonly kind: string;
  /**
   * Appends `answers` (all or none) and resolves with everything queued for
   * `name` afterwards. Rejects with `QUEUE_FULL` (nothing appended) when the
   * queue would pass its bound.
   */
  push(name: string, answers: readonly QueuedAnswer[]): Promise<QueuedAnswer[]>;
  /**
   * `false` only when `name` certainly has nothing queued. Synchronous and cheap:
   * the read path asks it on every request and pays nothing more when it says no.
   * Once a {@link push} has resolved, it says `true` for that name.
   */
  pending(name: string): boolean;
  /**
   * Takes the next use of the first answer for `name` that `request` matches (an
   * answer without `match` matches every request; exactly once, also across
   * processes that share the queue), or `undefined` when none does. A `grpc`
   * answer matches only a gRPC call (`request.grpc` set), and a gRPC call only
   * a `grpc` answer ({@link answersKindOf}). Answers it
   * skips stay queued, in their place. Without `request`, only answers without
   * `match` are taken.
   */
  take(name: string, request?: FilterSubject): Promise<Taken | undefined>;
  /**
   * Puts a use handed out by {@link take} back, first in line: the request it
   * was taken for did not answer with it (the state it matched on moved
   * meanwhile, see docs/state.md). A clear of the name since the take may drop it.
   */
  putBack(name: string, taken: Taken): Promise<void>;
  /** The names with anything queued now, in any order (across every process sharing the queue). */
  names(): Promise<string[]>;
  /** What is queued for `name`, first answer first. */
  list(name: string): Promise<QueuedAnswer[]>;
  /** Empties the queue of `name`, and ends its hanging requests (in every process sharing it). */
  clear(name: string): Promise<void>;
  /** Empties every queue, and ends every hanging request. */
  clearAll(): Promise<void>;
  /**
   * Aborts every {@link Taken.release} signal handed out by this process, now and
   * from now on, without touching what is queued: hanging requests are answered,
   * for shutting down without holding them open.
   */
  releaseHangs(): void;
  /**
   * Undoes {@link releaseHangs}: hangs taken from now on wait for a clear again
   * (a namespace's app made again after an idle unload).
   */
  reopen(): void;
  /**
   * Calls `listener` after each change of a name's queue: a push or a clear
   * (`undefined`: every queue was cleared, or changes may have been missed).
   * A shared queue announces the changes made by every process sharing it, each
   * once. Taking an answer is not a change. Returns a function that stops the calls.
   */
  onChange(listener: (name: string | undefined) => void): () => void;
  /** Lets go of what the queue holds open (connections, subscriptions); the queue is unusable after. */
  close?(): Promise<void>;
}
