/**
 * A fetch with retries: a request that fails in a way worth trying again (a
 * 429, 500, 502, 503 or 504, a reset connection, no answer in time) is sent
 * again after an exponential backoff (`baseDelayMs × 2^n`, capped, with full
 * jitter), or after the server's `Retry-After`, up to `retries` more times.
 * Anything else (a 2xx, a 404) is answered at once. When every attempt failed
 * it throws {@link RetriesExhaustedError} saying how many were made and how
 * the last one failed.
 *
 * @module
 */

/** How one attempt failed: an HTTP status, or no answer at all. */
export type Failure = { kind: 'status'; status: number } | { kind: 'network'; message: string } | { kind: 'timeout' };

export interface RetryOptions {
  /** Attempts after the first. @default 3 */
  retries?: number;
  /** The first backoff, in ms; each next one doubles. @default 100 */
  baseDelayMs?: number;
  /** The longest wait between attempts (a `Retry-After` too), in ms. @default 5000 */
  maxDelayMs?: number;
  /** How long one attempt may take before it is given up, in ms. @default 2000 */
  timeoutMs?: number;
  /** Wait a random time from 0 to the backoff ("full jitter"), so clients do not retry in step. @default true */
  jitter?: boolean;
  /** Statuses worth another attempt. @default 429, 500, 502, 503, 504 */
  retryOn?: readonly number[];
  /** Called before each wait: which attempt failed, how, and how long until the next. */
  onRetry?: (info: { attempt: number; failure: Failure; delayMs: number }) => void;
  /** How to wait (tests pass one that records). @default setTimeout */
  sleep?: (ms: number) => Promise<void>;
  /** Which fetch to use. @default globalThis.fetch */
  fetch?: typeof fetch;
}

/** Every attempt failed. */
export class RetriesExhaustedError extends Error {
  readonly attempts: number;
  readonly failure: Failure;

  constructor(attempts: number, failure: Failure) {
    const how =
      failure.kind === 'status' ? `status ${failure.status}` : failure.kind === 'network' ? failure.message : 'timeout';
    super(`gave up after ${attempts} attempts; the last: ${how}`);
    this.name = 'RetriesExhaustedError';
    this.attempts = attempts;
    this.failure = failure;
  }
}

const RETRY_ON = [429, 500, 502, 503, 504];
/** Methods safe to send twice. A POST is sent once. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A `Retry-After` in seconds (the form servers send with 429 and 503), in ms; absent or another form: undefined. */
function retryAfterMs(response: Response): number | undefined {
  const value = response.headers.get('retry-after');
  if (value === null || !/^\d+$/.test(value.trim())) return undefined;
  return Number(value) * 1000;
}

/** One attempt: the response, or how it failed without one. */
async function attempt(
  send: typeof fetch,
  url: string,
  init: RequestInit,
  timeoutMs: number,
): Promise<Response | Failure> {
  try {
    return await send(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const name = (error as { name?: unknown }).name;
    if (name === 'TimeoutError' || name === 'AbortError') return { kind: 'timeout' };
    const cause = (error as { cause?: { code?: unknown } }).cause;
    return { kind: 'network', message: typeof cause?.code === 'string' ? cause.code : String(error) };
  }
}

/**
 * `fetch(url, init)`, tried again as {@link RetryOptions} says. Resolves with the
 * first response that is not worth retrying (its body unread).
 * @throws RetriesExhaustedError when the last attempt failed too.
 * @example const response = await fetchWithRetry('https://api.example.com/orders/1', {}, { retries: 5 })
 */
export async function fetchWithRetry(
  url: string,
  init: RequestInit = {},
  options: RetryOptions = {},
): Promise<Response> {
  const {
    retries = 3,
    baseDelayMs = 100,
    maxDelayMs = 5000,
    timeoutMs = 2000,
    jitter = true,
    retryOn = RETRY_ON,
    onRetry,
    sleep = realSleep,
    fetch: send = globalThis.fetch,
  } = options;
  const attempts = IDEMPOTENT.has((init.method ?? 'GET').toUpperCase()) ? retries + 1 : 1;
  for (let n = 1; ; n++) {
    const outcome = await attempt(send, url, init, timeoutMs);
    let failure: Failure;
    let serverDelay: number | undefined;
    if (outcome instanceof Response) {
      if (!retryOn.includes(outcome.status)) return outcome;
      failure = { kind: 'status', status: outcome.status };
      serverDelay = retryAfterMs(outcome);
      await outcome.body?.cancel(); // not read: let the connection go
    } else {
      failure = outcome;
    }
    if (n >= attempts) throw new RetriesExhaustedError(n, failure);
    const backoff = Math.min(maxDelayMs, baseDelayMs * 2 ** (n - 1));
    const delayMs = Math.min(maxDelayMs, serverDelay ?? (jitter ? Math.floor(Math.random() * (backoff + 1)) : backoff));
    onRetry?.({ attempt: n, failure, delayMs });
    await sleep(delayMs);
  }
}
