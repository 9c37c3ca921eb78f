/**
 * `graphqlWorker()`: a {@link GraphqlRunner} that builds stored GraphQL schemas
 * and answers schema-mode operations in one worker thread (`node:worker_threads`,
 * which Bun and Deno have too), so a schema as large as GitHub's costs the event
 * loop nothing. The thread starts with the first operation (or schema check),
 * takes at most `maxQueued` waiting jobs (more: `503 TOO_MANY_GRAPHQL_REQUESTS`),
 * and is replaced when it stops or gives no answer within `timeoutMs`: the jobs it
 * held get `500 GRAPHQL_WORKER_FAILED`, the next starts a new thread. It never keeps
 * the process alive while idle; `close()` ends it.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type {
  GraphqlAnswerText,
  GraphqlCall,
  GraphqlRunner,
  GraphqlRunnerOptions,
  StoredGraphqlSchema,
} from '../../graphql/graphql-runner.js';
import { inlineGraphqlRunner } from '../../graphql/graphql-runner.js';
import { ERROR_STATUS, type ErrorCode } from '../../registry/error-status.js';
import { MockpointError } from '../../registry/errors.js';

/** One operation as it crosses to the thread: what it was read from (the thread parses the document again). */
export interface WireCall {
  readonly query: string;
  readonly requestedName: string | undefined;
  readonly variables: Record<string, unknown> | undefined;
  readonly problem: string | undefined;
  readonly maxValues: number;
  readonly event: number | undefined;
}

/** A job sent to the thread; an `answer` without `sdl` is answered `missing` when the thread does not hold that version. */
export type ToWorker =
  | { readonly id: number; readonly kind: 'check'; readonly sdl: string; readonly maxBytes: number }
  | {
      readonly id: number;
      readonly kind: 'answer';
      readonly name: string;
      readonly version: number;
      readonly sdl?: string;
      readonly calls: readonly WireCall[];
    }
  | { readonly kind: 'forget'; readonly name: string | undefined };

/** What the thread sends back. */
export type FromWorker =
  | { readonly id: number; readonly answers: GraphqlAnswerText[] }
  | { readonly id: number; readonly missing: true }
  | { readonly id: number; readonly error: WireError }
  | { readonly log: string };

/** An error as it crosses back: a mockpoint error keeps its code and details. */
export interface WireError {
  readonly code?: string;
  readonly message: string;
  readonly details?: Record<string, unknown>;
}

/** Options of {@link graphqlWorker}. */
export interface GraphqlWorkerOptions extends GraphqlRunnerOptions {
  /** The most jobs waiting for the thread. @default 128 */
  maxQueued?: number;
  /** How long the thread may go without answering a waiting job before it is replaced. @default 30000 */
  timeoutMs?: number;
  /** The thread's heap (V8's old generation), in MB: past it the thread stops, not the daemon. @default 1024 */
  maxHeapMb?: number;
  /** The thread's module. @default the built `graphql-worker.js` beside this package's `threads.js` */
  url?: URL;
}

type Job = {
  readonly message: Exclude<ToWorker, { kind: 'forget' }>;
  readonly sdl: string | undefined;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
};

/**
 * The thread's module: beside the built entry; from the sources (a test), the
 * built one of this package (`pnpm build` first: a thread cannot load TypeScript).
 */
function workerUrl(): URL {
  const here = import.meta.url;
  return /\.ts$/.test(here) ? new URL('../../../dist/graphql-worker.js', here) : new URL('./graphql-worker.js', here);
}

function wireCall(call: GraphqlCall): WireCall {
  const { operation } = call;
  return {
    query: operation.query,
    requestedName: operation.requestedName,
    variables: operation.variables,
    problem: operation.problem,
    maxValues: call.maxValues,
    event: call.event,
  };
}

/** The error `wire` describes: a mockpoint error by its code, else a plain one (answered as `500 INTERNAL`). */
function errorOf(wire: WireError): Error {
  if (wire.code !== undefined && Object.hasOwn(ERROR_STATUS, wire.code)) {
    return new MockpointError(wire.code as ErrorCode, wire.message, { details: wire.details });
  }
  return new Error(wire.message);
}

class GraphqlWorker implements GraphqlRunner {
  readonly #options: Required<Omit<GraphqlWorkerOptions, 'url'>> & { url: URL };
  readonly #jobs = new Map<number, Job>();
  #worker: Worker | undefined;
  #watchdog: ReturnType<typeof setTimeout> | undefined;
  #next = 0;

  constructor(options: GraphqlWorkerOptions) {
    this.#options = {
      log: options.log ?? ((line) => console.warn(line)),
      maxQueued: options.maxQueued ?? 128,
      timeoutMs: options.timeoutMs ?? 30_000,
      maxHeapMb: options.maxHeapMb ?? 1024,
      url: options.url ?? workerUrl(),
    };
  }

  async check(sdl: string, maxBytes: number): Promise<void> {
    await this.#post({ id: 0, kind: 'check', sdl, maxBytes }, undefined);
  }

  answer(schema: StoredGraphqlSchema, calls: readonly GraphqlCall[]): Promise<GraphqlAnswerText[]> {
    const { name, version, sdl } = schema;
    return this.#post({ id: 0, kind: 'answer', name, version, calls: calls.map(wireCall) }, sdl) as Promise<
      GraphqlAnswerText[]
    >;
  }

  forget(name: string | undefined): void {
    this.#worker?.postMessage({ kind: 'forget', name } satisfies ToWorker);
  }

  async close(): Promise<void> {
    const worker = this.#worker;
    if (worker === undefined) return;
    this.#stopped(worker, 'the server is closing');
    await worker.terminate();
  }

  #post(message: Job['message'], sdl: string | undefined): Promise<unknown> {
    if (this.#jobs.size >= this.#options.maxQueued) {
      return Promise.reject(
        new MockpointError(
          'TOO_MANY_GRAPHQL_REQUESTS',
          `${this.#options.maxQueued} GraphQL operations are already waiting to be answered; send this one again once some are answered`,
        ),
      );
    }
    const worker = this.#started();
    const sent = { ...message, id: ++this.#next };
    return new Promise((resolve, reject) => {
      this.#jobs.set(sent.id, { message: sent, sdl, resolve, reject });
      worker.postMessage(sent);
      // The watchdog counts from the last answer, not the last job sent: a thread that hangs is
      // replaced `timeoutMs` after it stopped answering, however often new jobs arrive.
      if (this.#watchdog === undefined) this.#progress(worker);
    });
  }

  #started(): Worker {
    if (this.#worker !== undefined) return this.#worker;
    const worker = new Worker(this.#options.url, {
      resourceLimits: { maxOldGenerationSizeMb: this.#options.maxHeapMb },
    });
    worker.on('message', (message: FromWorker) => this.#received(worker, message));
    worker.on('error', (error) => this.#stopped(worker, error.message));
    worker.on('exit', (code) => this.#stopped(worker, `it exited with code ${code}`));
    this.#worker = worker;
    return worker;
  }

  #received(worker: Worker, message: FromWorker): void {
    if (worker !== this.#worker) return;
    if ('log' in message) {
      this.#options.log(message.log);
      return;
    }
    const job = this.#jobs.get(message.id);
    if (job === undefined) return;
    if ('missing' in message) {
      // The thread does not hold this version (a new thread, or one it let go): again, with the SDL.
      worker.postMessage({ ...job.message, sdl: job.sdl });
      return;
    }
    this.#jobs.delete(message.id);
    this.#progress(worker);
    if ('error' in message) job.reject(errorOf(message.error));
    else job.resolve(message.answers);
  }

  /** Something was answered or sent: the watchdog starts again; the thread keeps the process alive only while it has jobs. */
  #progress(worker: Worker): void {
    clearTimeout(this.#watchdog);
    this.#watchdog = undefined;
    if (this.#jobs.size === 0) {
      worker.unref();
      return;
    }
    worker.ref();
    const { timeoutMs } = this.#options;
    this.#watchdog = setTimeout(() => {
      this.#stopped(worker, `it gave no answer within ${timeoutMs} ms`);
      void worker.terminate();
    }, timeoutMs);
    this.#watchdog.unref?.();
  }

  /** The thread stopped (or is being stopped): its jobs fail with `GRAPHQL_WORKER_FAILED`; the next job starts a new one. */
  #stopped(worker: Worker, why: string): void {
    if (worker !== this.#worker) return;
    this.#worker = undefined;
    clearTimeout(this.#watchdog);
    this.#watchdog = undefined;
    worker.unref();
    const jobs = [...this.#jobs.values()];
    this.#jobs.clear();
    if (jobs.length > 0 || why !== 'the server is closing') {
      this.#options.log(
        `mockpoint: warning: the GraphQL worker stopped (${why}); ${jobs.length} operation(s) failed with GRAPHQL_WORKER_FAILED, the next starts a new worker`,
      );
    }
    for (const job of jobs) {
      job.reject(
        new MockpointError(
          'GRAPHQL_WORKER_FAILED',
          `the GraphQL worker stopped before answering (${why}); send the operation again (a new worker answers it)`,
        ),
      );
    }
  }
}

/** A {@link GraphqlRunner} in a worker thread (see the module); give it to `createApp({ graphqlRunner })` and close it with the server. */
export function graphqlWorker(options: GraphqlWorkerOptions = {}): GraphqlRunner {
  // A single executable (Bun's --compile) holds the daemon's one bundle, not the thread's module
  // beside it: there, schema mode runs on the event loop, as on Workers, rather than failing
  // every operation with GRAPHQL_WORKER_FAILED.
  const url = options.url ?? workerUrl();
  if (url.protocol === 'file:' && !existsSync(fileURLToPath(url))) return inlineGraphqlRunner(options);
  return new GraphqlWorker({ ...options, url });
}
