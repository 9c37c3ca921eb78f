/**
 * The context of a native gRPC call answered without Connect's handler
 * (direct-call.ts): what the answer logic reads of Connect's `HandlerContext`
 * ({@link AnswerContext}), each part made only when something reads it — the
 * request's `Headers` when a route is looked for, the response's when a route
 * sets metadata or trailers, the abort signal when something waits — since a
 * call in schema mode reads none of them. Its deadline (`grpc-timeout`) aborts
 * it with Connect's `deadline_exceeded`.
 *
 * @module
 */
import { Code, ConnectError } from '@connectrpc/connect';
import type { AnswerContext } from './stream-answers.js';

/** The longest delay `setTimeout` keeps (2^31 − 1 ms, about 24.8 days); a longer one fires at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class DirectContext implements AnswerContext {
  readonly #rawHeaders: readonly string[];
  #requestHeader: Headers | undefined;
  #responseHeader: Headers | undefined;
  #responseTrailer: Headers | undefined;
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;
  #deadline: ReturnType<typeof setTimeout> | undefined;

  /** `rawHeaders`: the request's headers as name, value pairs, without pseudo-headers. */
  constructor(rawHeaders: readonly string[]) {
    this.#rawHeaders = rawHeaders;
  }

  get requestHeader(): Headers {
    if (this.#requestHeader === undefined) {
      const header = new Headers();
      for (let i = 0; i + 1 < this.#rawHeaders.length; i += 2) {
        header.append(this.#rawHeaders[i] as string, this.#rawHeaders[i + 1] as string);
      }
      this.#requestHeader = header;
    }
    return this.#requestHeader;
  }

  get responseHeader(): Headers {
    this.#responseHeader ??= new Headers();
    return this.#responseHeader;
  }

  get responseTrailer(): Headers {
    this.#responseTrailer ??= new Headers();
    return this.#responseTrailer;
  }

  /** The response metadata a handler set, if any did. */
  get metadata(): Headers | undefined {
    return this.#responseHeader;
  }

  /** The trailers a handler set, if any did. */
  get trailers(): Headers | undefined {
    return this.#responseTrailer;
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** Ends the call's waits: the client went away (no `reason`), or its deadline passed. */
  abort(reason?: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.done();
    this.#controller?.abort(reason);
  }

  /**
   * Aborts the call with `deadline_exceeded` in `ms` (now when `ms` ≤ 0), as Connect's handler does.
   * A deadline past {@link MAX_TIMER_MS} (`grpc-timeout: 600H`) is no deadline: no timer is set
   * (`setTimeout` would fire such a delay after 1 ms).
   */
  deadline(ms: number): void {
    const passed = () => this.abort(new ConnectError('the operation timed out', Code.DeadlineExceeded));
    if (ms <= 0) passed();
    else if (ms <= MAX_TIMER_MS) this.#deadline = setTimeout(passed, ms);
  }

  /** The call is over: its deadline no longer runs. */
  done(): void {
    if (this.#deadline !== undefined) clearTimeout(this.#deadline);
    this.#deadline = undefined;
  }
}
