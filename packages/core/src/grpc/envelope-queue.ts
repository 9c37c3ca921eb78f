/**
 * The request messages of a native gRPC call read without Connect's handler
 * (direct-call.ts): the body's bytes, pushed as they arrive, split at gRPC's
 * 5-byte length prefix (a flags byte, a 4-byte big-endian length) into the
 * messages' bytes, which the call reads one at a time as they are complete.
 * The refusals are Connect's, with its codes and messages: a message over
 * `readMaxBytes` (`resource_exhausted`), a compressed one (this reader is used
 * for uncompressed calls only: `internal`), a body that ends inside a message
 * (`invalid_argument`). While the call leaves messages unread the body is
 * paused ({@link BodyFlow}), as Connect's handler leaves a body unread.
 *
 * @module
 */
import { Code, ConnectError } from '@connectrpc/connect';

const PREFIX = 5;
const COMPRESSED = 0b1;

/** Messages ready and unread at which the body is paused (resumed when the call has read them). */
const HIGH_WATER = 16;

/** How the queue holds the body back while the call does not read (the runtime's flow control). */
export interface BodyFlow {
  pause(): void;
  resume(): void;
}

type Waiter = { resolve: (result: IteratorResult<Uint8Array>) => void; reject: (error: unknown) => void };

/** The messages of one call's body, as a queue the call reads with {@link next}. */
export class EnvelopeQueue implements AsyncIterable<Uint8Array> {
  readonly #readMaxBytes: number;
  /** Bytes pushed and not yet made into a message. */
  #held: Uint8Array = new Uint8Array(0);
  #ready: Uint8Array[] = [];
  #waiter: Waiter | undefined;
  #ended = false;
  #error: unknown;
  readonly #flow: BodyFlow | undefined;
  #paused = false;

  /** `flow`: paused while {@link HIGH_WATER} messages wait unread, so a client cannot fill the memory. */
  constructor(readMaxBytes: number, flow?: BodyFlow) {
    this.#readMaxBytes = readMaxBytes;
    this.#flow = flow;
  }

  /** Adds body bytes; each message they complete is ready to read. */
  push(chunk: Uint8Array): void {
    if (this.#ended || this.#error !== undefined) return;
    let bytes = this.#held.length === 0 ? chunk : concat(this.#held, chunk);
    try {
      while (bytes.length >= PREFIX) {
        const length = ((bytes[1] as number) << 24) | ((bytes[2] as number) << 16) | ((bytes[3] as number) << 8);
        const size = (length | (bytes[4] as number)) >>> 0;
        if (size > this.#readMaxBytes) {
          throw new ConnectError(
            `message size ${size} is larger than configured readMaxBytes ${this.#readMaxBytes}`,
            Code.ResourceExhausted,
          );
        }
        if ((bytes[0] as number) & COMPRESSED) {
          throw new ConnectError('received compressed envelope, but do not know how to decompress', Code.Internal);
        }
        if (bytes.length < PREFIX + size) break;
        this.#deliver(bytes.subarray(PREFIX, PREFIX + size));
        bytes = bytes.subarray(PREFIX + size);
      }
    } catch (error) {
      this.fail(error);
      return;
    }
    this.#held = bytes;
  }

  /** The body ended: a message left incomplete is an error. */
  end(): void {
    if (this.#ended || this.#error !== undefined) return;
    if (this.#held.length > 0) {
      this.fail(new ConnectError('protocol error: incomplete envelope', Code.InvalidArgument));
      return;
    }
    this.#ended = true;
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.resolve({ done: true, value: undefined });
  }

  /** Whether the body has ended or failed: nothing more comes. */
  get settled(): boolean {
    return this.#ended || this.#error !== undefined;
  }

  /** The body cannot be read on (the client went away, a limit): the next read throws `error`. */
  fail(error: unknown): void {
    if (this.#ended || this.#error !== undefined) return;
    this.#error = error;
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.reject(error);
  }

  /** The next message's bytes, once complete; done when the body has ended. */
  next(): Promise<IteratorResult<Uint8Array>> {
    const ready = this.#ready.shift();
    if (this.#paused && this.#ready.length === 0) {
      this.#paused = false;
      this.#flow?.resume();
    }
    if (ready !== undefined) return Promise.resolve({ done: false, value: ready });
    if (this.#error !== undefined) return Promise.reject(this.#error);
    if (this.#ended) return Promise.resolve({ done: true, value: undefined });
    return new Promise((resolve, reject) => {
      this.#waiter = { resolve, reject };
    });
  }

  [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    return { next: () => this.next() };
  }

  #deliver(message: Uint8Array): void {
    const waiter = this.#waiter;
    if (waiter === undefined) {
      this.#ready.push(message);
      if (!this.#paused && this.#ready.length >= HIGH_WATER && this.#flow !== undefined) {
        this.#paused = true;
        this.#flow.pause();
      }
      return;
    }
    this.#waiter = undefined;
    waiter.resolve({ done: false, value: message });
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
