/**
 * Queued one-shot answers: per endpoint name, a FIFO of answers that requests to
 * `/endpoint/{name}` consume, in order and each exactly once, before the stored
 * record answers. This file holds the contract; implementations live in folders
 * beside it (`memory/` in this process; the Redis one, shared by replicas, is
 * `RedisAnswerQueue` in `stores/redis/`).
 *
 * @module
 */

/**
 * A network failure instead of an answer:
 * - `reset`: the connection is reset (TCP RST); no status line is sent.
 * - `close`: the status line and headers are sent, then the connection closes
 *   partway through the body.
 * - `hang`: nothing is sent until the client gives up or the queue is cleared.
 */
export type Fault = 'reset' | 'close' | 'hang';

/** The faults, in the order the docs list them. */
export const FAULTS: readonly Fault[] = ['reset', 'close', 'hang'];

/** One answer as a client queues it; absent fields fall back to the stored record. */
export interface QueuedAnswerInput {
  /** 200–599. @default the record's statusCode */
  statusCode?: number;
  /** Any JSON value (`null` included). @default the record's data */
  data?: unknown;
  /** Milliseconds before the answer (or the fault). @default the record's delay */
  delay?: number;
  /** A network failure instead of an answer. @default undefined (a normal answer) */
  fault?: Fault;
  /** How many requests this answer serves, one after the other. @default 1 */
  times?: number;
}

/** A queued answer as the queue holds and lists it: `times` is what remains. */
export interface QueuedAnswer extends Omit<QueuedAnswerInput, 'times'> {
  times: number;
}

/** One use of a queued answer, taken off the queue by a request. */
export type TakenAnswer = Omit<QueuedAnswer, 'times'>;

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

/** Answers queued per name at most (a `times` of 10 counts once). */
export const MAX_QUEUED_ANSWERS = 100;
/** Largest `times` of one answer. */
export const MAX_ANSWER_TIMES = 10_000;

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
   * Takes the next use of the first answer for `name` (exactly once, also across
   * processes that share the queue), or `undefined` when nothing is queued.
   */
  take(name: string): Promise<Taken | undefined>;
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
  /** Lets go of what the queue holds open (connections, subscriptions); the queue is unusable after. */
  close?(): Promise<void>;
}
