/**
 * One attempt of a delivery: the body and headers, signed afresh (a new
 * timestamp and signature, the delivery's one id), tampered with when asked,
 * sent by a transport (`fetch`, or Node's own) without following redirects, and the answer (or the
 * error) recorded within the delivery's timeout.
 *
 * @module
 */

import type { AttemptErrorCode, DeliveryAttempt, TamperMode } from '../api/delivery-json.js';
import { fromBase64, toBase64 } from '../codec/base64.js';
import { maskCredentials } from '../codec/shown-url.js';
import { connectionErrorCode } from '../registry/errors.js';
import { VERSION } from '../registry/version.js';
import { utf8Bytes } from '../signing/hmac.js';
import { signWebhook } from '../signing/signature.js';
import { signatureScheme } from '../signing/signature-schemes.js';
import { type DeliverySend, fetchDeliverySend } from './delivery-send.js';
import type { StoredDelivery } from './delivery-store.js';

/** How old a `stale` timestamp is: an hour, far outside the usual five minutes of tolerance. */
export const STALE_AGE_SEC = 3600;

/** The headers a scheme carries its signature in, the first its signature's (those `tamper: "signature"` changes a character of). */
function signatureHeaders(delivery: StoredDelivery): readonly string[] {
  const { sign } = delivery;
  const scheme = signatureScheme(sign?.scheme);
  if (sign === undefined || scheme === undefined) return [];
  return scheme.signatureHeaders(scheme.settings?.(sign.hmac));
}

/**
 * A secret that is certainly not the delivery's: `whsec_` and base64 of random bytes, which a
 * scheme that decodes its secrets (Standard Webhooks) reads as a key as well as the others do.
 */
function otherSecret(): string {
  return `whsec_${toBase64(crypto.getRandomValues(new Uint8Array(24)))}`;
}

/**
 * `text` with one character of its encoded MAC changed: the third from the end
 * once any `=` padding is passed over. Every scheme ends its header with the MAC.
 * In hex every digit carries 4 bits of it; in base64 every character but the last
 * before the padding carries 6, while that last one carries only 2 or 4, the rest
 * dropped by a decoder (so changing it could leave the MAC as it was, and the
 * signature valid).
 */
function changeOneCharacter(text: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === '=') end--;
  const at = end - 3;
  const replacement = text[at] === '0' ? '1' : '0';
  return text.slice(0, at) + replacement + text.slice(at + 1);
}

/** The body and headers of one send. */
export async function buildSend(
  delivery: StoredDelivery,
  tamper: TamperMode | undefined,
  nowMs: number,
): Promise<{ body: Uint8Array; headers: Record<string, string> }> {
  const body = fromBase64(delivery.bodyBase64) ?? new Uint8Array(0);
  const headers: Record<string, string> = { 'user-agent': `mockpoint/${VERSION}`, ...delivery.headers };
  const { sign } = delivery;
  if (sign === undefined) return { body, headers };
  const timestamp = Math.floor(nowMs / 1000) - (tamper === 'stale' ? STALE_AGE_SEC : 0);
  const signed = await signWebhook({
    scheme: sign.scheme,
    secret: tamper === 'secret' ? otherSecret() : sign.secret,
    hmac: sign.hmac,
    body,
    id: delivery.webhookId,
    timestamp,
  });
  Object.assign(headers, signed);
  if (tamper === 'signature') {
    // Every signature the send carries is wrong: no header of it verifies.
    for (const name of signatureHeaders(delivery)) {
      const value = headers[name];
      if (value !== undefined) headers[name] = changeOneCharacter(value);
    }
  }
  // Changed after signing: one space appended, the same JSON to a parser but other bytes.
  const sent = tamper === 'body' ? new Uint8Array([...body, ...utf8Bytes(' ')]) : body;
  return { body: sent, headers };
}

/** Options for {@link attemptDelivery}. */
export interface AttemptOptions {
  /** Aborts the attempt without recording it (shutting down): then `undefined` is resolved. */
  signal: AbortSignal;
  /** How the request goes out. @default fetchDeliverySend() */
  send?: DeliverySend;
  /** The tamper mode of this send. */
  tamper: TamperMode | undefined;
}

const defaultSend = fetchDeliverySend();

/** Makes one send; resolves its record, or `undefined` when `options.signal` aborted it. */
export async function attemptDelivery(
  delivery: StoredDelivery,
  n: number,
  options: AttemptOptions,
): Promise<DeliveryAttempt | undefined> {
  const started = Date.now();
  const { body, headers } = await buildSend(delivery, options.tamper, started);
  // One controller per attempt, aborted by its timeout or by the shutdown (cheaper than AbortSignal.any).
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error(`no complete answer within ${delivery.timeoutMs} ms`));
  }, delivery.timeoutMs);
  const onShutdown = () => controller.abort(options.signal.reason);
  if (options.signal.aborted) onShutdown();
  else options.signal.addEventListener('abort', onShutdown, { once: true });
  const record: DeliveryAttempt = { n, at: new Date(started).toISOString(), durationMs: 0 };
  if (options.tamper !== undefined) record.tamper = options.tamper;
  const fail = (code: AttemptErrorCode, message: string): DeliveryAttempt => {
    record.durationMs = Date.now() - started;
    record.error = { code, message };
    return record;
  };
  try {
    const answer = await (options.send ?? defaultSend)({
      url: delivery.url,
      method: delivery.method,
      headers,
      body,
      signal: controller.signal,
    });
    record.status = answer.status;
    record.headers = answer.headers;
    if (answer.body !== undefined) {
      record.body = new TextDecoder().decode(answer.body);
      if (answer.bodyTruncated) record.bodyTruncated = true;
    }
    record.durationMs = Date.now() - started;
    if (answer.status >= 300 && answer.status < 400) {
      const location = answer.headers.location;
      return fail(
        'REDIRECT_NOT_FOLLOWED',
        `the receiver answered ${answer.status}${location ? ` to ${maskCredentials(location)}` : ''}; redirects are not followed`,
      );
    }
    return record;
  } catch (error) {
    if (options.signal.aborted) return undefined;
    if (timedOut) return fail('TIMEOUT', `no complete answer within ${delivery.timeoutMs} ms`);
    const code = connectionErrorCode(error);
    if (code === 'ECONNREFUSED')
      return fail('CONNECTION_REFUSED', `connection to ${new URL(delivery.url).host} refused`);
    const reason = code ?? (error as Error).message;
    return fail('CONNECTION_FAILED', `the connection failed: ${reason}`);
  } finally {
    clearTimeout(timer);
    options.signal.removeEventListener('abort', onShutdown);
  }
}

/**
 * The record of an attempt that was sent but whose result was never written
 * (its sender was killed or shut down, or the delivery was cancelled meanwhile).
 */
export function interruptedAttempt(sending: { n: number; at: number }): DeliveryAttempt {
  return {
    n: sending.n,
    at: new Date(sending.at).toISOString(),
    durationMs: 0,
    error: {
      code: 'INTERRUPTED',
      message:
        'sent, but no result was recorded: the sender stopped (killed or shut down) or the delivery was cancelled while it was in flight; the receiver may have received it',
    },
  };
}

/** Attempts that got a result (an `INTERRUPTED` one does not use up a retry: it is made again). */
export function completedAttempts(delivery: Pick<StoredDelivery, 'attempts'>): number {
  let count = 0;
  for (const attempt of delivery.attempts) if (attempt.error?.code !== 'INTERRUPTED') count++;
  return count;
}

/** The delivery with an attempt left `sending` by a sender that stopped recorded as interrupted (same version). */
export function settleInterrupted(delivery: StoredDelivery): StoredDelivery {
  if (delivery.sending === undefined) return delivery;
  return { ...delivery, attempts: [...delivery.attempts, interruptedAttempt(delivery.sending)], sending: undefined };
}

/** The delay a `Retry-After` header asks for (seconds or an HTTP date), in milliseconds; `undefined` when absent or unreadable. */
export function retryAfterMs(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}
