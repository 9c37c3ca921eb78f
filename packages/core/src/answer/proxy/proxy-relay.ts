/**
 * A proxy route answering a request: the request forwarded (method, subpath,
 * query, headers but the hop-by-hop ones, Host and Expect, the exact body), the
 * upstream's status and headers given back at once and its body passed on as it
 * arrives. Failures are answered with stable codes: `PROXY_PATH_OUTSIDE_BASE`
 * (400, a path that would leave the upstream's base path), `PROXY_HOST_NOT_ALLOWED`
 * (403), `UPSTREAM_FAILED` (502, with the reason), `UPSTREAM_TIMEOUT` (504).
 * With `record`, the complete answer is handed to `onComplete` once sent.
 *
 * @module
 */

import type { UpstreamOutcome } from '../../api/journal-json.js';
import { DEFAULT_PROXY_TIMEOUT_MS, type ProxyAnswer, upstreamUrl } from '../../api/proxy-answer.js';
import { concatBytes } from '../../codec/concat-bytes.js';
import { NOT_FORWARDED } from '../../codec/hop-by-hop.js';
import { headerLines } from '../../codec/raw-headers.js';
import type { RecordedRequest } from '../../journal/journal-entry.js';
import type { ErrorCode } from '../../registry/error-status.js';
import { connectionErrorCode, isMockpointError } from '../../registry/errors.js';
import { type ClientGone, type EndpointAnswer, errorAnswer, type RelayAnswer } from '../endpoint-answer.js';
import type { Upstream } from './upstream.js';
import { containedSubpath } from './upstream-path.js';

/** Header names a `Connection` header lists: hop-by-hop for this connection only. */
function connectionListed(lines: readonly (readonly [string, string])[]): Set<string> {
  const listed = new Set<string>();
  for (const [name, value] of lines) {
    if (name.toLowerCase() !== 'connection') continue;
    for (const token of value.split(',')) listed.add(token.trim().toLowerCase());
  }
  return listed;
}

/** Header lines of raw headers, without the hop-by-hop ones (and `also`). */
export function endToEndHeaders(
  rawHeaders: readonly string[],
  also: ReadonlySet<string> = NOT_FORWARDED,
): [string, string][] {
  const lines = headerLines(rawHeaders);
  const listed = connectionListed(lines);
  return lines.filter(([name]) => {
    const lower = name.toLowerCase();
    return !also.has(lower) && !listed.has(lower);
  });
}

/** The upstream's header lines as an answer's header map (lower-case names; repeated ones as a list). */
function relayHeaders(lines: readonly (readonly [string, string])[]): Record<string, string | string[]> {
  const listed = connectionListed(lines);
  const headers: Record<string, string | string[]> = Object.create(null);
  for (const [name, value] of lines) {
    const lower = name.toLowerCase();
    // Content-Length is passed on: the body is sent byte for byte.
    if ((NOT_FORWARDED.has(lower) && lower !== 'content-length') || listed.has(lower)) continue;
    const seen = headers[lower];
    headers[lower] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return { ...headers };
}

const REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'the name does not resolve',
  EAI_AGAIN: 'the name could not be resolved now',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its TLS certificate is for another name',
};

/** A complete upstream answer, for a recording. */
export interface CompleteAnswer {
  status: number;
  headers: readonly (readonly [string, string])[];
  body: Uint8Array;
}

/** Options for {@link relay}. */
export interface RelayOptions {
  /**
   * The whole body when it is longer than `request.body` (the journal's first
   * bytes): the adapter keeps it, up to the body limit, for a name with a proxy route.
   */
  wholeBody?: Uint8Array | undefined;
  upstream: Upstream;
  allowHosts: readonly string[];
  /** The request's subpath (as received, not decoded). */
  subpath: string;
  /** A signal of the client leaving: the upstream request is aborted then, not held to `timeoutMs`. */
  gone?: ClientGone | undefined;
  /** Called with the complete answer once its last byte is passed on (`proxy.record` only). */
  onComplete?: (answer: CompleteAnswer) => void;
  /** Most bytes of a body kept for `onComplete`; a longer answer is passed on but not handed over. */
  maxRecordBytes: number;
}

/** The answer and what to journal about it. */
export interface Relayed {
  answer: EndpointAnswer;
  status: number;
  upstream: UpstreamOutcome;
}

/** The body passed on as it is, a copy kept (up to `max` bytes) for `done` once it has all gone through. */
function teeForRecording(
  body: ReadableStream<Uint8Array> | null,
  max: number,
  done: (bytes: Uint8Array) => void,
): ReadableStream<Uint8Array> | null {
  if (body === null) {
    done(new Uint8Array(0));
    return null;
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.byteLength;
        if (size <= max) chunks.push(chunk);
        controller.enqueue(chunk);
      },
      flush() {
        if (size <= max) done(concatBytes(chunks, size));
      },
    }),
  );
}

/** Forwards `request` as `proxy` says and answers with the upstream's answer (or a coded error). */
export async function relay(request: RecordedRequest, proxy: ProxyAnswer, options: RelayOptions): Promise<Relayed> {
  const head = request.method === 'HEAD';
  const refused = (url: string, status: number, code: ErrorCode, message: string): Relayed => ({
    answer: errorAnswer(status, code, message, { head, cors: true }),
    status,
    upstream: { url, error: code },
  });
  const subpath = containedSubpath(options.subpath);
  if (subpath === undefined) {
    return refused(
      proxy.url,
      400,
      'PROXY_PATH_OUTSIDE_BASE',
      `the path ${options.subpath} would leave the proxy's base path ${new URL(proxy.url).pathname} once decoded (.. segments, also as %2e%2e, %2f, %5c or \\); a proxy route forwards only below its URL`,
    );
  }
  const q = request.target.indexOf('?');
  const url = upstreamUrl(proxy.url, subpath, q === -1 ? '' : request.target.slice(q));
  const failed = (status: number, code: ErrorCode, message: string): Relayed => refused(url, status, code, message);
  const sent = request.bodyTruncated ? options.wholeBody : request.body;
  if (sent === undefined) {
    // The adapter keeps a body whole up to the body limit (MOCKPOINT_MAX_BODY_BYTES); past it, only the first bytes.
    return failed(
      413,
      'BODY_TOO_LARGE',
      "a proxied request's body is passed on whole up to the body limit (MOCKPOINT_MAX_BODY_BYTES); this one is longer",
    );
  }
  const timeoutMs = proxy.timeoutMs ?? DEFAULT_PROXY_TIMEOUT_MS;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  // The client leaving aborts the upstream request too (its headers or its body, whichever is under way).
  const left = options.gone?.();
  const leave = () => controller.abort();
  left?.addEventListener('abort', leave, { once: true });
  if (left?.aborted) controller.abort();
  try {
    const response = await options.upstream({
      url,
      method: request.method,
      headers: endToEndHeaders(request.rawHeaders),
      body: sent.byteLength === 0 ? null : sent,
      allowHosts: options.allowHosts,
      signal: controller.signal,
    });
    clearTimeout(timer);
    const headers = relayHeaders(response.headers);
    const { onComplete } = options;
    const body =
      onComplete === undefined
        ? response.body
        : teeForRecording(response.body, options.maxRecordBytes, (bytes) =>
            onComplete({ status: response.status, headers: response.headers, body: bytes }),
          );
    if (head && body !== null) void body.cancel();
    const answer: RelayAnswer = {
      kind: 'relay',
      status: response.status,
      headers: Object.freeze(headers),
      body: head ? null : body,
      delay: 0,
    };
    return { answer, status: response.status, upstream: { url, statusCode: response.status, headers } };
  } catch (error) {
    clearTimeout(timer);
    left?.removeEventListener('abort', leave);
    if (isMockpointError(error)) return failed(error.status, error.code, error.message);
    const origin = new URL(url).origin;
    if (left?.aborted) {
      // Nobody reads this answer; the journal tells what happened.
      return failed(499, 'REQUEST_ABORTED', `the client left before the upstream ${origin} answered`);
    }
    if (controller.signal.aborted) {
      return failed(504, 'UPSTREAM_TIMEOUT', `the upstream ${origin} sent no answer within ${timeoutMs} ms`);
    }
    const code = connectionErrorCode(error);
    const reason = code === undefined ? (error as Error).message : `${REASONS[code] ?? 'failed'} (${code})`;
    return failed(502, 'UPSTREAM_FAILED', `the upstream ${origin} could not be reached: ${reason}`);
  }
}
