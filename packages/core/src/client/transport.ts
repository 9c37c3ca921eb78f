/**
 * How the client talks to the service: one {@link Transport} per client, built
 * from its options, that each part of the client (endpoints.ts, journal.ts, …)
 * sends its calls through. A failure to get an answer is a {@link ConnectionError};
 * an error answer is a `MockpointError` with the service's code.
 *
 * @module
 */

import { stringifyExact } from '../codec/json-text.js';
import { type ErrorCode, isOwnError, MockpointError, OWN_ERROR } from '../registry/errors.js';
import type { ClientOptions, Fetchable } from './client.js';

/** Default of `WaitOptions.timeout`. */
export const DEFAULT_WAIT_MS = 4000;
/** Longest single long-poll the server allows; longer waits are chained. */
export const MAX_POLL_MS = 60_000;

/** The service could not be reached at all (as opposed to answering with an error). */
export class ConnectionError extends Error {
  override readonly name = 'ConnectionError';
  readonly [OWN_ERROR] = true;
  readonly code = 'CONNECTION_FAILED' satisfies ErrorCode;
  /** The URL that could not be reached. */
  readonly url: string;

  constructor(url: string, cause: unknown) {
    super(`cannot reach mockpoint at ${url}: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.url = url;
  }
}

/** What the parts of a client send through (no `this`: the client's methods work destructured). */
export interface Transport {
  /** The base URL, without trailing slashes. */
  readonly base: string;
  /** The admin token, sent as `Authorization: Bearer <token>`. */
  readonly token: string | undefined;
  /** Sends one request as it is (to the app or the network). */
  readonly send: (request: Request) => Promise<Response>;
  /** The absolute URL of an API path. */
  readonly url: (path: string) => string;
  /** The public URL of an endpoint, or of a subpath below it. */
  readonly endpointUrl: (name: string, subpath?: string) => string;
  /** One API call; resolves with an ok answer, throws the service's error otherwise. */
  readonly call: (method: string, path: string, body?: unknown, signal?: AbortSignal) => Promise<Response>;
  /** One API call's JSON answer. */
  readonly json: <T>(method: string, path: string, body?: unknown, signal?: AbortSignal) => Promise<T>;
}

/** A name (or id) as one path segment. */
export const seg = (name: string) => encodeURIComponent(name);

/** The transport for a client with `options`. */
export function createTransport(options: ClientOptions): Transport {
  const base = options.baseUrl.replace(/\/+$/, '');
  const send: (request: Request) => Promise<Response> =
    options.fetch ??
    (options.app ? async (request) => (options.app as Fetchable).fetch(request) : (request) => fetch(request));
  const url = (path: string) => `${base}${path}`;
  const endpointUrl = (name: string, subpath = '') => url(`/endpoint/${seg(name)}${subpathOf(subpath)}`);

  async function call(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<Response> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const target = url(path);
    let response: Response;
    try {
      response = await send(
        new Request(target, { method, headers, signal, body: body === undefined ? undefined : bodyText(body) }),
      );
    } catch (error) {
      throw toConnectionError(target, error, signal);
    }
    if (response.ok) return response;
    throw await toError(response, method, target);
  }

  async function json<T>(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
    return (await (await call(method, path, body, signal)).json()) as T;
  }

  return { base, token: options.token, send, url, endpointUrl, call, json };
}

/** A request body as JSON text; every {@link JsonText} in it (a record's or a queued answer's `data`) goes as its own text. */
function bodyText(body: unknown): string {
  return stringifyExact(body);
}

/** A subpath as it goes after `/endpoint/{name}`: with one leading slash, or nothing for the bare URL. */
function subpathOf(subpath: string): string {
  if (subpath === '' || subpath === '/') return '';
  return subpath.startsWith('/') ? subpath : `/${subpath}`;
}

/**
 * A failure to get any answer, as a {@link ConnectionError}, whatever the runtime
 * made of it (Node's `TypeError: fetch failed`, Bun's error with a string `code`,
 * Deno's `TypeError`). mockpoint's own errors (e.g. a closed in-process server)
 * and aborts asked for by the caller pass unchanged.
 */
export function toConnectionError(target: string, error: unknown, signal?: AbortSignal): unknown {
  if (signal?.aborted || isOwnError(error)) return error;
  return new ConnectionError(target, error);
}

export async function toError(response: Response, method: string, target: string): Promise<MockpointError> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { error?: { code?: string; message?: string } };
    if (body.error?.code && body.error.message) {
      return new MockpointError(body.error.code as ErrorCode, body.error.message, { status: response.status });
    }
  } catch {
    // not a mockpoint error body: reported below
  }
  return new MockpointError(
    'UNEXPECTED_RESPONSE',
    `${method} ${target} answered ${response.status} without a mockpoint error body: ${text.slice(0, 200)}`,
    { status: response.status },
  );
}
