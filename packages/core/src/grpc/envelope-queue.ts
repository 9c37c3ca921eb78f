/**
 * The request messages of a native gRPC call read without Connect's handler
 * (direct-call.ts): the body's bytes, pushed as they arrive, split at gRPC's
 * 5-byte length prefix (a flags byte, a 4-byte big-endian length) into the
 * messages' bytes, which the call reads one at a time as they are complete.
 * The refusals are Connect's, with its codes and messages: a message over
 * `readMaxBytes` (`resource_exhausted`), a compressed one (this reader is used
 * for uncompressed calls only: `internal`), a body that ends inside a message
 * (`invalid_argument`). While the call leaves 16 messages or 64 KiB of them
 * unread the body is paused ({@link BodyFlow}), as Connect's handler leaves a body unread.
 *
 * @module
 */
import { Code, ConnectError } from '@connectrpc/connect';

const PREFIX = 5;
const COMPRESSED = 0b1;

/** Messages ready and unread at which the body is paused (resumed when the call has read them). */
const HIGH_WATER = 16;
/**
 * Bytes of messages ready and unread at which the body is paused, whichever of this and
 * {@link HIGH_WATER} comes first: a call that does not read (a delay) holds about 64 KiB, not
 * 16 × `readMaxBytes`. A single message larger than this is still taken whole (within `readMaxBytes`).
 */
const HIGH_WATER_BYTES = 64 * 1024;

/** How the queue holds the body back while the call does not read (the runtime's flow control). */
export interface BodyFlow {
  pause(): void;
  resume(): void;
}

type Waiter = { resolve: (result: IteratorResult<Uint8Array>) => void; reject: (error: unknown) => void };

/** The messages of one call's body, as a queue the call reads with {@link next}. */
export class EnvelopeQueue implements AsyncIterable<Uint8Array> {
  readonly #readMaxBytes: number;
  /** The prefix of the next message, while it comes over several chunks, and how many of its bytes have. */
  readonly #prefix = new Uint8Array(PREFIX);
  #prefixed = 0;
  /** The message being filled (its size known from its prefix), and how many of its bytes have come. */
  #message: Uint8Array | undefined;
  #filled = 0;
  #ready: Uint8Array[] = [];
  /** The bytes of the messages in {@link #ready}. */
  #readyBytes = 0;
  #waiter: Waiter | undefined;
  #ended = false;
  #error: unknown;
  readonly #flow: BodyFlow | undefined;
  #paused = false;

  /** `flow`: paused while {@link HIGH_WATER} messages or {@link HIGH_WATER_BYTES} of them wait unread, so a client cannot fill the memory. */
  constructor(readMaxBytes: number, flow?: BodyFlow) {
    this.#readMaxBytes = readMaxBytes;
    this.#flow = flow;
  }

  /**
   * Adds body bytes; each message they complete is ready to read. A message whole in one chunk is
   * read in place; one split over chunks is copied once into a buffer of its size, made when its
   * prefix is read (after the size is checked against `readMaxBytes`), not re-copied per chunk.
   */
  push(chunk: Uint8Array): void {
    if (this.#ended || this.#error !== undefined) return;
    try {
      let at = 0;
      while (at < chunk.length) {
        const message = this.#message;
        if (message !== undefined) {
          const taken = Math.min(message.length - this.#filled, chunk.length - at);
          message.set(chunk.subarray(at, at + taken), this.#filled);
          this.#filled += taken;
          at += taken;
          if (this.#filled === message.length) {
            this.#message = undefined;
            this.#deliver(message);
          }
          continue;
        }
        let prefix: Uint8Array;
        if (this.#prefixed === 0 && chunk.length - at >= PREFIX) {
          prefix = chunk.subarray(at, at + PREFIX);
          at += PREFIX;
        } else {
          const taken = Math.min(PREFIX - this.#prefixed, chunk.length - at);
          this.#prefix.set(chunk.subarray(at, at + taken), this.#prefixed);
          this.#prefixed += taken;
          at += taken;
          if (this.#prefixed < PREFIX) break;
          prefix = this.#prefix;
        }
        this.#prefixed = 0;
        const size = this.#sizeOf(prefix);
        if (chunk.length - at >= size) {
          this.#deliver(chunk.subarray(at, at + size));
          at += size;
        } else {
          this.#message = new Uint8Array(size);
          this.#filled = 0;
        }
      }
    } catch (error) {
      this.fail(error);
    }
  }

  /** The size of the message whose 5-byte `prefix` this is; Connect's refusals when it cannot be read. */
  #sizeOf(prefix: Uint8Array): number {
    const length = ((prefix[1] as number) << 24) | ((prefix[2] as number) << 16) | ((prefix[3] as number) << 8);
    const size = (length | (prefix[4] as number)) >>> 0;
    if (size > this.#readMaxBytes) {
      throw new ConnectError(
        `message size ${size} is larger than configured readMaxBytes ${this.#readMaxBytes}`,
        Code.ResourceExhausted,
      );
    }
    if ((prefix[0] as number) & COMPRESSED) {
      throw new ConnectError('received compressed envelope, but do not know how to decompress', Code.Internal);
    }
    return size;
  }

  /** The body ended: a message left incomplete is an error. */
  end(): void {
    if (this.#ended || this.#error !== undefined) return;
    if (this.#prefixed > 0 || this.#message !== undefined) {
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
    if (ready !== undefined) this.#readyBytes -= ready.length;
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
      this.#readyBytes += message.length;
      const full = this.#ready.length >= HIGH_WATER || this.#readyBytes >= HIGH_WATER_BYTES;
      if (!this.#paused && full && this.#flow !== undefined) {
        this.#paused = true;
        this.#flow.pause();
      }
      return;
    }
    this.#waiter = undefined;
    waiter.resolve({ done: false, value: message });
  }
}
