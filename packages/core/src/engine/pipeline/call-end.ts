/**
 * The end of a gRPC-family call, which its journal entry waits for: the entry
 * holds the call's messages both ways and its final status, known only once
 * the call is over. The journal step's after-work registers on it
 * (journal-step.ts); the call's adapter says when the call is over, with its
 * HTTP status and the request body as sent (its copy).
 *
 * @module
 */
import type { GrpcCall } from '../../grpc/call-record.js';

const NO_BODY = new Uint8Array(0);

export class CallEnd {
  /** The call's HTTP status, once it is over. */
  status = 0;
  /** The request body as sent (the adapter's copy), once the call is over. */
  body: Uint8Array = NO_BODY;
  #over = false;
  #then: (() => void) | undefined;

  constructor(
    readonly service: string,
    readonly method: string,
    /** What the call did, filled in as it is answered (its messages, its status, who answered). */
    readonly call: GrpcCall,
  ) {}

  /** Calls `then` once the call is over (at once when it is already). */
  on(then: () => void): void {
    if (this.#over) then();
    else this.#then = then;
  }

  /** The call is over, answered with `status`, its request body as sent `body`; only the first end counts. */
  over(status: number, body: Uint8Array = NO_BODY): void {
    if (this.#over) return;
    this.#over = true;
    this.status = status;
    this.body = body;
    const then = this.#then;
    this.#then = undefined;
    then?.();
  }
}
