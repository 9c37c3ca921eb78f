/**
 * The page's view of the mockpoint HTTP API. Every URL is resolved against the
 * page's own location (`document.baseURI`), so the page works behind a reverse
 * proxy that serves it under a path prefix such as `/mock/`.
 *
 * @module
 */

// The wire types come from core (type-only: nothing of core is bundled into the page).
import type { EndpointRecord, Health, JournalPage, ListPage, QueuedAnswer } from '@mockpoint/core';

export type { EndpointRecord, Health, JournalEntry, JournalPage, ListPage, QueuedAnswer } from '@mockpoint/core';

/** An error answer from the API (`{ success: false, error: { code, message } }`) or a network failure. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** The server's stable code, or `NETWORK` / `BAD_RESPONSE` for failures on the way. */
  readonly code: string;
  readonly status: number;
  constructor(code: string, message: string, status: number) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

const TOKEN_KEY = 'mockpoint-admin-token';

/** The admin token for writes, kept for this browser tab only. */
export const adminToken = {
  get(): string | undefined {
    try {
      return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
    } catch {
      return undefined;
    }
  },
  set(token: string): void {
    try {
      if (token) sessionStorage.setItem(TOKEN_KEY, token);
      else sessionStorage.removeItem(TOKEN_KEY);
    } catch {
      // storage disabled: the token lasts until reload
    }
  },
};

/** An absolute URL for a path relative to the page (no leading slash). */
export function pageUrl(path: string): string {
  return new URL(path, document.baseURI).href;
}

/** The public URL of an endpoint. */
export function endpointUrl(name: string): string {
  return pageUrl(`endpoint/${encodeURIComponent(name)}`);
}

async function call<T>(
  method: string,
  path: string,
  options: { body?: unknown; signal?: AbortSignal } = {},
): Promise<T> {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const token = adminToken.get();
  if (token && method !== 'GET') headers.authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(pageUrl(path), {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
      cache: 'no-store',
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError('NETWORK', 'Cannot reach the mockpoint server. Is it running?', 0);
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!response.ok) {
    const error = (parsed as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
    if (error && typeof error.code === 'string' && typeof error.message === 'string') {
      throw new ApiError(error.code, error.message, response.status);
    }
    throw new ApiError(
      'BAD_RESPONSE',
      `The server answered ${response.status} ${response.statusText}.`,
      response.status,
    );
  }
  return parsed as T;
}

/** A record as `GET api/endpoints?summary=true` lists it: everything but `data`. */
export type EndpointSummary = Omit<EndpointRecord, 'data'>;

/** A page of {@link EndpointSummary}s. */
export interface SummaryPage extends Omit<ListPage, 'endpoints'> {
  endpoints: EndpointSummary[];
}

const named = (name: string) => `api/endpoints/${encodeURIComponent(name)}`;

/** The API calls the page makes. */
export const api = {
  health: () => call<Health>('GET', 'api/health'),
  /** One page of the list without the records' `data` (`summary=true`): the list shows only name, status and delay. */
  list: (options: { limit: number; after?: string | null }) =>
    call<SummaryPage>(
      'GET',
      `api/endpoints?limit=${options.limit}&summary=true${options.after ? `&after=${encodeURIComponent(options.after)}` : ''}`,
    ),
  get: (name: string) => call<EndpointRecord>('GET', named(name)),
  /** Creates; fails with `NAME_TAKEN` when the name exists (the seed's `PUT /api/endpoint/add`). */
  create: (record: EndpointRecord) => call<EndpointRecord>('PUT', 'api/endpoint/add', { body: record }),
  /** Replaces (or creates) the endpoint at `name`. */
  replace: (name: string, definition: Omit<EndpointRecord, 'name'>) =>
    call<EndpointRecord>('PUT', named(name), { body: definition }),
  remove: (name: string) => call<void>('DELETE', named(name)),
  requests: (name: string, options: { wait?: number; count?: number; after?: number; signal?: AbortSignal } = {}) => {
    const query = options.wait ? `?wait=${options.wait}&count=${options.count ?? 1}&after=${options.after ?? 0}` : '';
    return call<JournalPage>('GET', `${named(name)}/requests${query}`, { signal: options.signal });
  },
  clearRequests: (name: string) => call<void>('DELETE', `${named(name)}/requests`),
  /** The one-shot answers still queued for `name`. */
  queued: (name: string) => call<{ answers: QueuedAnswer[] }>('GET', `${named(name)}/queue`),
};
