/**
 * A small webhook sender: POSTs a JSON event signed with HMAC-SHA256, gives each
 * attempt its own timeout, and retries 5xx answers, 429, timeouts and network
 * failures with exponential backoff. Other 4xx answers are final.
 *
 * @module
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';

/** Options for {@link sendWebhook}. */
export interface SendWebhookOptions {
  /** Where to POST. */
  url: string;
  /** Shared secret for the `x-webhook-signature` header. */
  secret: string;
  /** Event name, e.g. `order.created`. */
  event: string;
  /** Any JSON value. */
  payload: unknown;
  /** Retries after the first attempt. @default 3 */
  retries?: number;
  /** Time allowed for each attempt, in milliseconds. @default 5000 */
  timeoutMs?: number;
  /** Wait before the first retry; doubled for each further one. @default 200 */
  backoffMs?: number;
  /** How to wait between attempts (tests pass their own). @default a timer */
  sleep?: (ms: number) => Promise<void>;
}

/** A delivered webhook. */
export interface Delivery {
  /** The delivery id, the same on every attempt (`x-webhook-id`). */
  id: string;
  /** Attempts made, the successful one included. */
  attempts: number;
  /** The receiver's status. */
  status: number;
}

/** Why a webhook was not delivered. */
export class WebhookDeliveryError extends Error {
  override readonly name = 'WebhookDeliveryError';
  /** `REJECTED`: the receiver answered a final 4xx; `EXHAUSTED`: every attempt failed. */
  readonly code: 'REJECTED' | 'EXHAUSTED';
  readonly attempts: number;
  /** The last status received, if the last attempt got an answer at all. */
  readonly lastStatus: number | undefined;

  constructor(code: WebhookDeliveryError['code'], attempts: number, lastStatus: number | undefined, cause?: unknown) {
    const last = lastStatus === undefined ? String((cause as Error | undefined)?.name ?? 'no answer') : lastStatus;
    super(`webhook ${code === 'REJECTED' ? 'rejected' : 'not delivered'} after ${attempts} attempt(s): ${last}`, {
      cause,
    });
    this.code = code;
    this.attempts = attempts;
    this.lastStatus = lastStatus;
  }
}

/** `sha256=<hex>` of `<timestamp>.<body>` (the timestamp is signed to stop replays). */
export function sign(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** What a receiver does: recompute the signature and compare in constant time. */
export function verifySignature(secret: string, timestamp: string, body: string, signature: string): boolean {
  const expected = Buffer.from(sign(secret, timestamp, body));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const retryable = (status: number) => status >= 500 || status === 429;

/**
 * Sends one webhook.
 * @throws WebhookDeliveryError when it cannot be delivered.
 * @example await sendWebhook({ url, secret, event: 'order.created', payload: { orderId: 42 } })
 */
export async function sendWebhook(options: SendWebhookOptions): Promise<Delivery> {
  const { retries = 3, timeoutMs = 5000, backoffMs = 200, sleep = wait } = options;
  const id = randomUUID();
  const body = JSON.stringify({ id, event: options.event, payload: options.payload });
  let lastStatus: number | undefined;
  let lastError: unknown;

  for (let attempt = 1; attempt <= retries + 1; attempt++) {
    if (attempt > 1) await sleep(backoffMs * 2 ** (attempt - 2));
    const timestamp = String(Math.floor(Date.now() / 1000));
    try {
      const response = await fetch(options.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-webhook-id': id,
          'x-webhook-timestamp': timestamp,
          'x-webhook-signature': sign(options.secret, timestamp, body),
        },
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
      await response.body?.cancel(); // the answer's content is not used; free the connection
      lastStatus = response.status;
      lastError = undefined;
      if (response.ok) return { id, attempts: attempt, status: response.status };
      if (!retryable(response.status)) throw new WebhookDeliveryError('REJECTED', attempt, response.status);
    } catch (error) {
      if (error instanceof WebhookDeliveryError) throw error;
      // A timeout (TimeoutError) or a network failure: worth another attempt.
      lastStatus = undefined;
      lastError = error;
    }
  }
  throw new WebhookDeliveryError('EXHAUSTED', retries + 1, lastStatus, lastError);
}
