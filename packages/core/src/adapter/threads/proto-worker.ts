/**
 * `protoWorker()`: a {@link ProtoCompiler} that parses `.proto` sources in one
 * worker thread (`node:worker_threads`), so a costly parse (protobufjs's is
 * quadratic in a message's fields: 60,000 fields stalled the daemon for
 * minutes) costs the event loop nothing. Jobs run one at a time, in order; at
 * most `maxQueued` wait (more: `503 TOO_MANY_PROTO_COMPILES`). A job not done
 * within `timeoutMs` ends its thread (`400 GRPC_DEFINITIONS_TOO_COMPLEX`), and
 * the next job starts a new one; a thread that stops otherwise fails its job
 * with `500 PROTO_WORKER_FAILED`. It never keeps the process alive while
 * idle; `close()` ends it.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { inlineProtoCompiler, type ProtoCompiler } from '../../grpc/proto-compiler.js';
import { ERROR_STATUS, type ErrorCode } from '../../registry/error-status.js';
import { MockpointError } from '../../registry/errors.js';

/** A job sent to the thread. */
export interface ToProtoWorker {
  readonly id: number;
  readonly files: Record<string, string>;
}

/** What the thread sends back: the set, or an error (a mockpoint error keeps its code and details). */
export type FromProtoWorker =
  | { readonly id: number; readonly set: Uint8Array }
  | {
      readonly id: number;
      readonly error: { readonly code?: string; readonly message: string; readonly details?: Record<string, unknown> };
    };

/** Options of {@link protoWorker}. */
export interface ProtoWorkerOptions {
  /** The most jobs waiting for the thread. @default 16 */
  maxQueued?: number;
  /** How long one job may take before its thread is ended (a backstop: parse-work.ts bounds the work first). @default 30000 */
  timeoutMs?: number;
  /** The thread's heap (V8's old generation), in MB: past it the thread stops, not the daemon. @default 1024 */
  maxHeapMb?: number;
  /** The thread's module. @default the built `proto-worker.js` beside this package's `threads.js` */
  url?: URL;
}

interface Job {
  readonly id: number;
  readonly files: Record<string, string>;
  readonly resolve: (set: Uint8Array) => void;
  readonly reject: (error: unknown) => void;
}

/** The thread's module: beside the built entry; from the sources (a test), the built one (`pnpm build` first). */
function workerUrl(): URL {
  const here = import.meta.url;
  return /\.ts$/.test(here) ? new URL('../../../dist/proto-worker.js', here) : new URL('./proto-worker.js', here);
}

function errorOf(error: { code?: string; message: string; details?: Record<string, unknown> }): Error {
  if (error.code !== undefined && Object.hasOwn(ERROR_STATUS, error.code)) {
    return new MockpointError(error.code as ErrorCode, error.message, { details: error.details });
  }
  return new Error(error.message);
}

class ProtoWorker implements ProtoCompiler {
  readonly #options: Required<ProtoWorkerOptions>;
  readonly #waiting: Job[] = [];
  #running: Job | undefined;
  #worker: Worker | undefined;
  #watchdog: ReturnType<typeof setTimeout> | undefined;
  #next = 0;

  constructor(options: Required<ProtoWorkerOptions>) {
    this.#options = options;
  }

  describe(files: Record<string, string>): Promise<Uint8Array> {
    if (this.#waiting.length >= this.#options.maxQueued) {
      return Promise.reject(
        new MockpointError(
          'TOO_MANY_PROTO_COMPILES',
          `${this.#options.maxQueued} sets of .proto sources are already waiting to be compiled; send these again once some are answered`,
        ),
      );
    }
    return new Promise((resolve, reject) => {
      this.#waiting.push({ id: ++this.#next, files, resolve, reject });
      this.#pump();
    });
  }

  async close(): Promise<void> {
    const worker = this.#worker;
    for (const job of this.#waiting.splice(0)) job.reject(this.#failed('the server is closing'));
    if (worker !== undefined) {
      this.#stopped(worker, this.#failed('the server is closing'));
      await worker.terminate();
    }
  }

  /** Sends the next waiting job when none runs. */
  #pump(): void {
    if (this.#running !== undefined) return;
    const job = this.#waiting.shift();
    if (job === undefined) {
      this.#worker?.unref();
      return;
    }
    const worker = this.#started();
    worker.ref();
    this.#running = job;
    worker.postMessage({ id: job.id, files: job.files } satisfies ToProtoWorker);
    const { timeoutMs } = this.#options;
    this.#watchdog = setTimeout(() => {
      this.#stopped(
        worker,
        new MockpointError(
          'GRPC_DEFINITIONS_TOO_COMPLEX',
          `the .proto sources took more than ${timeoutMs} ms to parse; split large messages, or send a descriptor set (protoc --include_imports -o / buf build -o), which needs no parsing`,
        ),
      );
      void worker.terminate();
    }, timeoutMs);
  }

  #started(): Worker {
    if (this.#worker !== undefined) return this.#worker;
    const worker = new Worker(this.#options.url, {
      resourceLimits: { maxOldGenerationSizeMb: this.#options.maxHeapMb },
    });
    worker.on('message', (message: FromProtoWorker) => this.#received(worker, message));
    worker.on('error', (error) => this.#stopped(worker, this.#failed(error.message)));
    worker.on('exit', (code) => this.#stopped(worker, this.#failed(`it exited with code ${code}`)));
    this.#worker = worker;
    return worker;
  }

  #received(worker: Worker, message: FromProtoWorker): void {
    const job = this.#running;
    if (worker !== this.#worker || job === undefined || job.id !== message.id) return;
    clearTimeout(this.#watchdog);
    this.#running = undefined;
    if ('set' in message) job.resolve(message.set);
    else job.reject(errorOf(message.error));
    this.#pump();
  }

  #failed(why: string): MockpointError {
    return new MockpointError(
      'PROTO_WORKER_FAILED',
      `the thread that parses .proto sources stopped before answering (${why}); send them again (a new thread parses them)`,
    );
  }

  /** The thread stopped (or is being stopped): its job fails with `error`; the next job starts a new thread. */
  #stopped(worker: Worker, error: MockpointError): void {
    if (worker !== this.#worker) return;
    this.#worker = undefined;
    clearTimeout(this.#watchdog);
    worker.unref();
    const job = this.#running;
    this.#running = undefined;
    job?.reject(error);
    this.#pump();
  }
}

/** A {@link ProtoCompiler} in a worker thread (see the module); give it to `createApp({ protoCompiler })` and close it with the server. */
export function protoWorker(options: ProtoWorkerOptions = {}): ProtoCompiler {
  const url = options.url ?? workerUrl();
  // A single executable (Bun's --compile) holds no thread module beside it: parsed on the event loop there.
  if (url.protocol === 'file:' && !existsSync(fileURLToPath(url))) return inlineProtoCompiler();
  return new ProtoWorker({
    maxQueued: options.maxQueued ?? 16,
    timeoutMs: options.timeoutMs ?? 30_000,
    maxHeapMb: options.maxHeapMb ?? 1024,
    url,
  });
}
