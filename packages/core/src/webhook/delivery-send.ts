/**
 * How an attempt's request goes out: the transport contract, and the portable
 * one over `fetch` (every runtime). Node's own (`node:http`, several times less
 * CPU per request than `fetch`) is `nodeDeliverySend()` from `@mockpoint/core/node`,
 * which the daemon uses.
 *
 * A transport never follows a redirect (a receiver must not be able to send an
 * attempt, and its signature, elsewhere): a 3xx is an answer like any other.
 *
 * @module
 */

import { ATTEMPT_BODY_BYTES } from '../api/delivery-json.js';
import { readStreamPrefix } from '../codec/body.js';

/** One request of an attempt. */
export interface SendRequest {
  url: string;
  method: string;
  /** Everything to send but Host and the framing headers, which the transport sets. */
  headers: Record<string, string>;
  body: Uint8Array;
  /** Aborts the request (the attempt's timeout, or shutting down): the send then rejects. */
  signal: AbortSignal;
}

/** The receiver's answer. */
export interface SendAnswer {
  status: number;
  /** Lower-case names; a repeated header's values joined with `, `. */
  headers: Record<string, string>;
  /** The first {@link ATTEMPT_BODY_BYTES} of the body; none for a null-body status ({@link NULL_BODY_STATUSES}). */
  body?: Uint8Array;
  /** True when the body was longer (the rest is read up to 64 times that, then the connection dropped). */
  bodyTruncated: boolean;
}

/**
 * Makes one request, without following redirects, and reads the answer to its
 * end. Rejects when `signal` aborts, or on a network error (with Node's error
 * `code`, e.g. `ECONNREFUSED`, on the error or its `cause`).
 */
export type DeliverySend = (request: SendRequest) => Promise<SendAnswer>;

/** Statuses whose answers have no body (fetch's null body statuses). */
export const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);

/** How much of an answer body is read before the connection is dropped. */
export const ATTEMPT_DRAIN_BYTES = 64 * ATTEMPT_BODY_BYTES;

/**
 * The transport over `fetch` (`redirect: 'manual'`): the default, on every runtime.
 * @example createApp({ deliverySend: fetchDeliverySend(myFetch) })
 */
export function fetchDeliverySend(fetchImpl: typeof fetch = (input, init) => fetch(input, init)): DeliverySend {
  return async ({ url, method, headers, body, signal }) => {
    const response = await fetchImpl(url, {
      method,
      headers,
      body: body as Uint8Array<ArrayBuffer>,
      redirect: 'manual',
      signal,
    });
    const answer: SendAnswer = {
      status: response.status,
      headers: Object.fromEntries(response.headers),
      bodyTruncated: false,
    };
    if (response.body !== null) {
      const { bytes, truncated } = await readStreamPrefix(response.body, ATTEMPT_BODY_BYTES, ATTEMPT_DRAIN_BYTES);
      answer.body = bytes;
      answer.bodyTruncated = truncated;
    }
    return answer;
  };
}
