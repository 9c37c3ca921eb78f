/**
 * Reads the page polls for (the endpoint list, the inbox, the deliveries) with
 * conditional requests: the answer's `ETag` is sent back as `If-None-Match`, and
 * a `304 Not Modified` (no body) means the copy already held is current. A list
 * that has not changed costs a few hundred bytes instead of the whole list, and
 * nothing is parsed or redrawn.
 *
 * @module
 */
import { ConnectionError, MockpointError } from '@mockpoint/core/client';
import { adminToken, pageUrl } from './api.js';

interface Held {
  etag: string;
  value: unknown;
}

/** The last answer per URL, with its validator. */
const held = new Map<string, Held>();
/** URLs held at most (filters make new ones); the oldest is dropped. */
const MAX_HELD = 20;

/** What {@link conditionalGet} answers: the value, and whether it changed since the last read of that path. */
export interface ConditionalAnswer<T> {
  value: T;
  changed: boolean;
}

/**
 * GETs `path` (relative to the page) as JSON, conditionally. Failures throw like
 * the client's (`MockpointError` with the server's code, or `ConnectionError`).
 */
export async function conditionalGet<T>(path: string, signal?: AbortSignal): Promise<ConditionalAnswer<T>> {
  const url = pageUrl(path);
  const before = held.get(url);
  const headers = new Headers();
  if (before) headers.set('if-none-match', before.etag);
  const token = adminToken.get();
  if (token) headers.set('authorization', `Bearer ${token}`);
  let response: Response;
  try {
    // A conditional header makes the browser hand the 304 to the page (it keeps no copy of its own).
    response = await fetch(url, { headers, cache: 'no-store', signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ConnectionError(url, error);
  }
  if (response.status === 304 && before) return { value: before.value as T, changed: false };
  if (!response.ok) {
    const text = await response.text();
    let failure: { code?: string; message?: string } | undefined;
    try {
      failure = (JSON.parse(text) as { error?: { code?: string; message?: string } }).error;
    } catch {
      // not a mockpoint error body
    }
    throw new MockpointError(
      (failure?.code ?? 'UNEXPECTED_RESPONSE') as MockpointError['code'],
      failure?.message ?? `GET ${url} answered ${response.status}`,
      { status: response.status },
    );
  }
  const value = (await response.json()) as T;
  const etag = response.headers.get('etag');
  held.delete(url);
  if (etag) {
    held.set(url, { etag, value });
    if (held.size > MAX_HELD) held.delete(held.keys().next().value as string);
  }
  return { value, changed: true };
}
