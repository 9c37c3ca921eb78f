/**
 * The daemon's namespace API, as test sessions use it: create one (with an idle
 * TTL), read the requests in it that nothing answered, delete it.
 *
 * @module
 */
import {
  type CoverageReport,
  type CreatedNamespace,
  type ErrorCode,
  MockpointError,
  type UnhandledRequest,
} from '@mockpoint/core';

export type { CreatedNamespace, UnhandledRequest };

/** Where the daemon is and how to talk to it. */
export interface NamespaceApi {
  /** The daemon's base URL (no `/ns/…`). */
  url: string;
  /** The admin token, when the daemon has one. */
  token?: string;
  fetch?: (request: Request) => Promise<Response>;
}

async function call(
  api: NamespaceApi,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
): Promise<Response> {
  const headers: Record<string, string> = {};
  const bearer = token ?? api.token;
  if (bearer !== undefined) headers.authorization = `Bearer ${bearer}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const request = new Request(`${api.url.replace(/\/+$/, '')}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const response = await (api.fetch ?? fetch)(request);
  if (response.ok) return response;
  const text = await response.text();
  let error: { code?: string; message?: string } | undefined;
  try {
    error = (JSON.parse(text) as { error?: { code?: string; message?: string } }).error;
  } catch {
    // not the daemon's JSON error: reported with the text below
  }
  throw new MockpointError(
    (error?.code ?? 'INTERNAL_ERROR') as ErrorCode,
    `${method} ${path}: ${response.status} ${error?.message ?? text.slice(0, 200)}`,
    { status: response.status },
  );
}

/** `POST /api/namespaces`: a fresh namespace, deleted by the daemon after `ttlMs` without a request. */
export async function createNamespace(
  api: NamespaceApi,
  options: { ttlMs?: number; name?: string } = {},
): Promise<CreatedNamespace> {
  const response = await call(api, 'POST', '/api/namespaces', undefined, options);
  return (await response.json()) as CreatedNamespace;
}

/** `POST /api/namespaces` with `count`: that many fresh namespaces in one request (a file's pool: session-pool.ts). */
export async function createNamespaces(
  api: NamespaceApi,
  options: { ttlMs?: number; count: number },
): Promise<CreatedNamespace[]> {
  const response = await call(api, 'POST', '/api/namespaces', undefined, options);
  return ((await response.json()) as { namespaces: CreatedNamespace[] }).namespaces;
}

/** `DELETE /api/namespaces/{ns}` (with the admin token, when there is one); one already gone counts as deleted. */
export async function deleteNamespace(api: NamespaceApi, name: string): Promise<void> {
  try {
    await call(api, 'DELETE', `/api/namespaces/${encodeURIComponent(name)}`);
  } catch (error) {
    if ((error as MockpointError).status === 404) return;
    throw error;
  }
}

/**
 * `DELETE /api/namespaces/{ns}?unhandled=true`: deletes it and answers the requests in it that
 * nothing answered, read just before: a test session's end in one request. One already gone
 * reports none. A daemon from before this query answers 204, and that is an error: it could not
 * say what went unhandled.
 */
export async function endNamespace(api: NamespaceApi, name: string): Promise<UnhandledRequest[]> {
  let response: Response;
  try {
    response = await call(api, 'DELETE', `/api/namespaces/${encodeURIComponent(name)}?unhandled=true`);
  } catch (error) {
    if ((error as MockpointError).status === 404) return [];
    throw error;
  }
  if (response.status === 204) {
    // Reporting none would turn `onUnhandledRequest` off without a word.
    throw new Error(
      `mockpoint: the daemon answered 204 to DELETE /api/namespaces/${name}?unhandled=true: it predates that query and cannot report a session's unhandled requests. Run a daemon of the plugin's version (they are released together).`,
    );
  }
  return ((await response.json()) as { requests: UnhandledRequest[] }).requests;
}

/** `GET /ns/{ns}/api/requests/unhandled`: every request in the namespace that nothing answered, oldest first. */
export async function unhandledRequests(api: NamespaceApi, name: string, token?: string): Promise<UnhandledRequest[]> {
  const response = await call(api, 'GET', `/ns/${encodeURIComponent(name)}/api/requests/unhandled`, token);
  return ((await response.json()) as { requests: UnhandledRequest[] }).requests;
}

/** `GET /ns/{ns}/api/coverage`: the namespace's coverage (docs/coverage.md), read with its own token. */
export async function namespaceCoverage(api: NamespaceApi, name: string, token?: string): Promise<CoverageReport> {
  const response = await call(api, 'GET', `/ns/${encodeURIComponent(name)}/api/coverage`, token);
  return (await response.json()) as CoverageReport;
}
