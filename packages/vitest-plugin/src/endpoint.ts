/**
 * Endpoint handles: what `add()` returns. A handle knows its record and its URL,
 * reads its own request journal, and is what the matchers take.
 *
 * @module
 */
import type {
  Endpoint,
  EndpointDefinition,
  JournalEntry,
  MockpointClient,
  QueuedAnswer,
  QueuedAnswerInput,
  QuietOptions,
  WaitOptions,
} from '@mockpoint/core';

/**
 * Anything whose recorded requests can be read: an endpoint handle. The
 * matchers (`toHaveBeenRequested` …) accept this shape.
 */
export interface RequestRecorder {
  /** The endpoint name. */
  readonly name: string;
  /** The requests received so far, oldest first. */
  requests(): Promise<JournalEntry[]>;
}

/**
 * A stored endpoint whose data has type `T`.
 * @example
 * const hook = await mock.add<{ ok: boolean }>({ name: 'hook', data: { ok: true } })
 * await sendWebhook(hook.url)
 * const [request] = await hook.waitForRequests()
 */
export interface MockEndpoint<T = unknown> extends RequestRecorder {
  /** Public URL to give to the code under test. */
  readonly url: string;
  /** The data it answers with (as of the last `add`/`replace` through this handle). */
  readonly data: T;
  /** The status it answers with. */
  readonly statusCode: number;
  /** Milliseconds it waits before answering. */
  readonly delay: number;
  /**
   * Waits (server-side long-poll) until `count` requests have arrived and returns them.
   * @throws MockpointError `WAIT_TIMEOUT`, naming what did arrive, after `timeout` ms.
   */
  waitForRequests(options?: WaitOptions): Promise<JournalEntry[]>;
  /** Forgets the requests recorded so far. */
  clearRequests(): Promise<void>;
  /**
   * Proves that no request (matching `match`, when given) arrives within `within` ms.
   * @throws MockpointError `UNEXPECTED_REQUEST`, naming the request, as soon as one arrives.
   * @example await hook.expectNoRequests({ within: 500 }) // the webhook is not sent again
   */
  expectNoRequests(options: QuietOptions): Promise<void>;
  /**
   * Queues one-shot answers: the next requests get them in order, each once
   * (`times` repeats one), before the record answers; absent fields fall back to
   * the record. A `fault` (`reset`, `close`, `hang`) fails the request at the network level.
   * @example await hook.queue([{ statusCode: 503, times: 2 }]) // 503, 503, then the record
   */
  queue(answers: QueuedAnswerInput[]): Promise<QueuedAnswer[]>;
  /** The answers still queued, first answer first. */
  queued(): Promise<QueuedAnswer[]>;
  /** Drops the queued answers (and releases requests hanging on a queued `hang`). */
  clearQueue(): Promise<void>;
  /**
   * Replaces data, status and delay (e.g. a 500 that turns into a 200 between retries);
   * resolves with this handle, updated.
   */
  replace(definition: EndpointDefinition<T>): Promise<this>;
  /** Deletes the endpoint (its recorded requests stay readable). */
  remove(): Promise<void>;
}

/** The {@link MockEndpoint} implementation; one per `add()`. */
class EndpointHandle<T> implements MockEndpoint<T> {
  readonly name: string;
  readonly url: string;
  readonly #client: MockpointClient;
  #record: Endpoint<T>;

  constructor(client: MockpointClient, record: Endpoint<T>) {
    this.#client = client;
    this.#record = record;
    this.name = record.name;
    this.url = client.endpointUrl(record.name);
  }

  get data(): T {
    return this.#record.data;
  }

  get statusCode(): number {
    return this.#record.statusCode;
  }

  get delay(): number {
    return this.#record.delay;
  }

  requests(): Promise<JournalEntry[]> {
    return this.#client.requests(this.name);
  }

  waitForRequests(options?: WaitOptions): Promise<JournalEntry[]> {
    return this.#client.waitForRequests(this.name, options);
  }

  clearRequests(): Promise<void> {
    return this.#client.clearRequests(this.name);
  }

  expectNoRequests(options: QuietOptions): Promise<void> {
    return this.#client.expectNoRequests(this.name, options);
  }

  queue(answers: QueuedAnswerInput[]): Promise<QueuedAnswer[]> {
    return this.#client.queue(this.name, answers);
  }

  queued(): Promise<QueuedAnswer[]> {
    return this.#client.queued(this.name);
  }

  clearQueue(): Promise<void> {
    return this.#client.clearQueue(this.name);
  }

  async replace(definition: EndpointDefinition<T>): Promise<this> {
    const { created: _created, ...record } = await this.#client.put(this.name, definition);
    this.#record = record;
    return this;
  }

  remove(): Promise<void> {
    return this.#client.remove(this.name);
  }

  /** What test reporters and `console.log` show. */
  toJSON(): Endpoint<T> & { url: string } {
    return { ...this.#record, url: this.url };
  }
}

/** Wraps a stored record in a handle bound to `client`. */
export function createEndpointHandle<T>(client: MockpointClient, record: Endpoint<T>): MockEndpoint<T> {
  return new EndpointHandle(client, record);
}

/** An endpoint handle that can also check a quiet period (what `toHaveBeenRequestedWithin` takes). */
export interface QuietRecorder extends RequestRecorder {
  expectNoRequests(options: QuietOptions): Promise<void>;
}

/** True for anything shaped like a {@link RequestRecorder} (by shape: handles may come from two builds). */
export function isRequestRecorder(value: unknown): value is RequestRecorder {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as RequestRecorder).name === 'string' &&
    typeof (value as RequestRecorder).requests === 'function'
  );
}
