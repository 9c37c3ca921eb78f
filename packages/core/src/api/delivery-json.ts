/**
 * Outgoing webhook deliveries as they cross the wire (`/api/deliveries`, the
 * client, the CLI): what a client asks for, and the delivery with its attempts
 * as the server reports it. No secret ever appears in what is reported.
 *
 * @module
 */

/**
 * A deliberately bad delivery, for testing that a receiver rejects it:
 * - `body`: the body is changed after signing (one space appended: same JSON, other bytes);
 * - `signature`: one character of the signature is changed;
 * - `secret`: signed with another (random) secret;
 * - `stale`: the timestamp is an hour old (outside every usual tolerance);
 * - `duplicate`: sent a second time, same id, after the first send.
 */
export type TamperMode = 'body' | 'signature' | 'secret' | 'stale' | 'duplicate';

/** The tamper modes, in the order the docs list them. */
export const TAMPER_MODES: readonly TamperMode[] = ['body', 'signature', 'secret', 'stale', 'duplicate'];

/**
 * `pending` until finished: `delivered` (a 2xx), `failed` (410, or no retry left) or `cancelled`;
 * `not-sent`: a twin's webhook to a host that is neither loopback nor in
 * `MOCKPOINT_DELIVERY_ALLOW_HOSTS`, kept (never sent) so that it can be seen.
 */
export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'cancelled' | 'not-sent';

/**
 * The retries of the Standard Webhooks spec, after the first (immediate) attempt:
 * 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h.
 */
export const STANDARD_RETRY_DELAYS_MS: readonly number[] = [
  5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
];

/** Most retries one delivery may have. */
export const MAX_RETRIES = 20;

/** Longest a delivery may keep retrying: its delays together (and a `Retry-After`) at most 48 h. */
export const MAX_RETRY_SPAN_MS = 48 * 3600 * 1000;

/** How long one attempt may take (connect, answer and its body) unless told. */
export const DEFAULT_DELIVERY_TIMEOUT_MS = 15_000;

/** Longest `timeoutMs` accepted. */
export const MAX_DELIVERY_TIMEOUT_MS = 300_000;

/** Bytes of a receiver's answer body kept with an attempt (the rest is dropped, `bodyTruncated` says so). */
export const ATTEMPT_BODY_BYTES = 16 * 1024;

/** How a delivery is signed: a scheme of the one signing module and its secret. */
export interface DeliverySign {
  /** A registered scheme (`GET /api/signature-schemes`): `standard` (Standard Webhooks), `hmac`, the other generic ones and those of the providers loaded. */
  scheme: string;
  /** `whsec_<base64>` for `standard`; the secret text for the others. Never reported back. */
  secret: string;
  /** Settings of the generic `hmac` scheme (required for it). */
  hmac?: { header: string; algorithm?: 'sha1' | 'sha256' | 'sha512'; encoding?: 'hex' | 'base64'; prefix?: string };
  /**
   * The delivery id, sent in the scheme's id header (`webhook-id` for `standard`; GitHub's `X-GitHub-Delivery`).
   * @default a fresh one where the scheme sends an id (`msg_…` for `standard`)
   */
  id?: string;
}

/** What `POST /api/deliveries` takes. One of `data`, `body` and `bodyBase64` (none: an empty body). */
export interface DeliveryInput {
  /** Where to send: http(s), a loopback address unless the host is in `MOCKPOINT_DELIVERY_ALLOW_HOSTS`. */
  url: string;
  /** @default 'POST' */
  method?: 'POST' | 'PUT' | 'PATCH';
  /** A JSON value, sent as its exact text (`application/json` unless `headers` says otherwise). */
  data?: unknown;
  /** Text, sent as its UTF-8 bytes (`text/plain; charset=utf-8` unless `headers` says otherwise). */
  body?: string;
  /** Bytes in base64 (`application/octet-stream` unless `headers` says otherwise). */
  bodyBase64?: string;
  /** Request headers (hop-by-hop and framing headers are refused). */
  headers?: Record<string, string>;
  /** Sign every attempt (fresh timestamp and signature each time, one id per delivery). @default unsigned */
  sign?: DeliverySign;
  /**
   * Retries after a failed first attempt: `"standard"` ({@link STANDARD_RETRY_DELAYS_MS})
   * or the delays before each retry. @default no retry (one attempt)
   */
  retry?: 'standard' | { delaysMs: number[] };
  /** Milliseconds one attempt may take. @default 15000 */
  timeoutMs?: number;
  /** Send a deliberately bad delivery (needs `sign`); sent once (`duplicate`: twice), never retried. */
  tamper?: TamperMode;
}

/** Why an attempt got no usable answer (or a redirect, which is never followed). */
export type AttemptErrorCode =
  | 'TIMEOUT'
  | 'CONNECTION_REFUSED'
  | 'CONNECTION_FAILED'
  | 'REDIRECT_NOT_FOLLOWED'
  /** Sent, but its sender stopped (killed, shut down) or the delivery was cancelled before the result was recorded. */
  | 'INTERRUPTED';

/** One attempt, as recorded. */
export interface DeliveryAttempt {
  /** 1 for the first attempt. */
  n: number;
  /** When it started (ISO 8601). */
  at: string;
  /** Milliseconds from start to the end of the answer (or the error). */
  durationMs: number;
  /** The receiver's status, when it answered. */
  status?: number;
  /** The receiver's answer headers (names in lower case). */
  headers?: Record<string, string>;
  /** The receiver's answer body as text (at most {@link ATTEMPT_BODY_BYTES} bytes). */
  body?: string;
  /** True when the answer body was longer than what `body` holds. */
  bodyTruncated?: boolean;
  /** What went wrong, when no 2xx came back for a reason other than the status. */
  error?: { code: AttemptErrorCode; message: string };
  /** The tamper mode this send carried (a `duplicate` delivery's first send has none). */
  tamper?: TamperMode;
}

/** How a delivery ended. */
export type DeliveryOutcomeCode = 'DELIVERED' | 'GONE' | 'RETRIES_EXHAUSTED' | 'CANCELLED' | 'HOST_NOT_ALLOWED';

/** A delivery as `/api/deliveries` reports it. */
export interface Delivery {
  /** `dlv_…`, sortable by creation time. */
  id: string;
  url: string;
  method: 'POST' | 'PUT' | 'PATCH';
  state: DeliveryState;
  /** The id every attempt carries (`webhook-id` or `X-GitHub-Delivery`), when signed with such a scheme. */
  webhookId?: string;
  /** The scheme it is signed with (the secret is never reported). */
  sign?: { scheme: DeliverySign['scheme'] };
  tamper?: TamperMode;
  /** The delays before each retry. */
  retry: { delaysMs: number[] };
  timeoutMs: number;
  /** Bytes of the body sent. */
  bodyBytes: number;
  createdAt: string;
  /** When the next attempt is due, while pending. */
  nextAttemptAt?: string;
  attempts: DeliveryAttempt[];
  /**
   * The attempt going out now, recorded before it is sent: its number and when it
   * started. Its result takes its place in `attempts`; when its sender stopped
   * first, it enters `attempts` as `INTERRUPTED` before the next attempt.
   */
  sending?: { n: number; at: string };
  /** How it ended, once finished; `hint`: how to have it sent (`HOST_NOT_ALLOWED`). */
  outcome?: { code: DeliveryOutcomeCode; message: string; hint?: string };
}

/** `GET /api/deliveries`: newest first. */
export interface DeliveryPage {
  deliveries: Delivery[];
}
