/**
 * The in-process {@link AnswerQueue}: one array per name. Not shared between
 * processes (a Redis queue is needed for replicas).
 *
 * @module
 */

import { answerJson, MAX_QUEUED_ANSWERS, type QueuedAnswer } from '../../api/answer-json.js';
import { matchesRequest } from '../../journal/graphql-filter.js';
import type { FilterSubject } from '../../journal/request-filter.js';
import { type AnswerQueue, answersKindOf, type Taken } from '../../queue/answer-queue.js';
import { QueueListeners } from '../../queue/queue-listeners.js';
import { MockpointError } from '../../registry/errors.js';

/** Options for {@link MemoryAnswerQueue}. */
export interface MemoryAnswerQueueOptions {
  /** Answers queued per name at most. @default 100 */
  maxAnswers?: number;
  /**
   * Approximate bytes all queued answers may take together (their `data` as
   * JSON text); past it a push is refused with `QUEUE_FULL`. @default 67108864 (64 MiB)
   */
  maxBytes?: number;
}

interface Held {
  answer: QueuedAnswer;
  bytes: number;
}

/** Rough memory cost of one queued answer: its JSON text (UTF-16) plus a fixed overhead. */
function answerBytes(answer: QueuedAnswer): number {
  return answerJson(answer).length * 2 + 128;
}

export class MemoryAnswerQueue implements AnswerQueue {
  readonly kind = 'memory';
  readonly maxAnswers: number;
  readonly maxBytes: number;
  // A Map, never a plain object: `__proto__` is an ordinary name. Both maps are made on first use:
  // a namespace's queue (one per test session) seldom holds anything.
  #queues: Map<string, Held[]> | undefined;
  #clearing: Map<string, AbortController> | undefined;
  readonly #listeners = new QueueListeners();
  #bytes = 0;
  #released = false;

  constructor(options: MemoryAnswerQueueOptions = {}) {
    this.maxAnswers = options.maxAnswers ?? MAX_QUEUED_ANSWERS;
    this.maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  }

  /** Approximate bytes held by all queued answers. */
  get bytes(): number {
    return this.#bytes;
  }

  async push(name: string, answers: readonly QueuedAnswer[]): Promise<QueuedAnswer[]> {
    const queue = this.#queues?.get(name) ?? [];
    if (queue.length + answers.length > this.maxAnswers) {
      throw new MockpointError(
        'QUEUE_FULL',
        `the queue of "${name}" holds ${queue.length} answer(s); at most ${this.maxAnswers} may be queued per name (use times to repeat one)`,
      );
    }
    const held = answers.map((answer) => ({ answer: { ...answer }, bytes: answerBytes(answer) }));
    const bytes = held.reduce((sum, h) => sum + h.bytes, 0);
    if (this.#bytes + bytes > this.maxBytes) {
      throw new MockpointError(
        'QUEUE_FULL',
        `queued answers would take more than ${this.maxBytes} bytes; clear some queues first`,
      );
    }
    queue.push(...held);
    this.#queues ??= new Map();
    this.#queues.set(name, queue);
    this.#bytes += bytes;
    this.#listeners.emit(name);
    return this.#snapshot(queue);
  }

  pending(name: string): boolean {
    return this.#queues?.has(name) === true;
  }

  async take(name: string, request?: FilterSubject): Promise<Taken | undefined> {
    // Synchronous from here on: no other request can see the queue in between.
    const queue = this.#queues?.get(name);
    if (queue === undefined) return undefined;
    const index = queue.findIndex(
      ({ answer }) =>
        answersKindOf(answer, request) &&
        (answer.match === undefined || (request !== undefined && matchesRequest(request, answer.match))),
    );
    const held = queue[index];
    if (held === undefined) return undefined;
    const { times, ...answer } = held.answer;
    if (times > 1) {
      held.answer.times = times - 1;
    } else {
      queue.splice(index, 1);
      this.#bytes -= held.bytes;
      if (queue.length === 0) this.#queues?.delete(name);
    }
    return { answer, release: this.#release(name) };
  }

  async putBack(name: string, taken: Taken): Promise<void> {
    // Aborted: the queue of the name was cleared after the take (or hangs were released).
    if (taken.release.aborted) return;
    const answer = { ...taken.answer, times: 1 };
    const bytes = answerBytes(answer);
    this.#queues ??= new Map();
    const queue = this.#queues.get(name) ?? [];
    queue.unshift({ answer, bytes });
    this.#queues.set(name, queue);
    this.#bytes += bytes;
    this.#listeners.emit(name);
  }

  async names(): Promise<string[]> {
    return [...(this.#queues ?? [])].filter(([, queue]) => queue.length > 0).map(([name]) => name);
  }

  async list(name: string): Promise<QueuedAnswer[]> {
    return this.#snapshot(this.#queues?.get(name) ?? []);
  }

  async clear(name: string): Promise<void> {
    const queue = this.#queues?.get(name);
    if (queue !== undefined) {
      for (const held of queue) this.#bytes -= held.bytes;
      this.#queues?.delete(name);
    }
    this.#clearing?.get(name)?.abort();
    this.#clearing?.delete(name);
    this.#listeners.emit(name);
  }

  async clearAll(): Promise<void> {
    this.#queues?.clear();
    this.#bytes = 0;
    for (const controller of this.#clearing?.values() ?? []) controller.abort();
    this.#clearing?.clear();
    this.#listeners.emit(undefined);
  }

  onChange(listener: (name: string | undefined) => void): () => void {
    return this.#listeners.add(listener);
  }

  /** Aborts when the queue of `name` is next cleared. */
  #release(name: string): AbortSignal {
    if (this.#released) return AbortSignal.abort();
    this.#clearing ??= new Map();
    let controller = this.#clearing.get(name);
    if (controller === undefined) {
      controller = new AbortController();
      this.#clearing.set(name, controller);
    }
    return controller.signal;
  }

  releaseHangs(): void {
    this.#released = true;
    for (const controller of this.#clearing?.values() ?? []) controller.abort();
    this.#clearing?.clear();
  }

  reopen(): void {
    this.#released = false;
  }

  #snapshot(queue: Held[]): QueuedAnswer[] {
    return queue.map((held) => ({ ...held.answer }));
  }
}
