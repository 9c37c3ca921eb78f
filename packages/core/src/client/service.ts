/**
 * The service methods of the client: the live request stream, the public URL, raw API calls and health.
 *
 * @module
 */
import type { CoverageQuery, CoverageReport } from '../api/coverage-json.js';
import type { LiveRequest } from '../api/journal-json.js';
import type { VerifyReport, VerifyRequest } from '../api/verify-json.js';
import type { Health } from './client.js';
import { type Transport, toConnectionError, toError } from './transport.js';
import { type WatchRequestsOptions, watchRequests } from './watch-requests.js';

/** These methods of the client, over `transport` (createClient in client.ts puts the parts together). */
export function serviceMethods({ json, send, url, token, endpointUrl }: Transport) {
  return {
    /**
     * The requests to `name` (to every name when undefined) as they arrive, from
     * the journal stream: an async iterator that reconnects by itself and resumes
     * without a gap or a duplicate (`Last-Event-ID`), also across a daemon restart.
     * Ends when `signal` aborts or the loop is left.
     * @example
     * for await (const request of client.watchRequests('hook', { match: { method: 'POST' }, signal })) {
     *   console.log(request.receivedAt, request.method, request.json)
     * }
     */
    watchRequests(name?: string, watch: WatchRequestsOptions = {}): AsyncGenerator<LiveRequest, void, undefined> {
      return watchRequests({ send, url, token: token, toError }, name, watch);
    },

    /** Sends a request to the endpoint's public URL and returns the raw response. */
    read(name: string, init: RequestInit = {}): Promise<Response> {
      // No `this`: the methods work when destructured from the client.
      const target = endpointUrl(name);
      return send(new Request(target, init)).catch((error: unknown) => {
        throw toConnectionError(target, error, init.signal ?? undefined);
      });
    },

    /**
     * One admin API call as it is answered, error statuses included (only a
     * failure to get any answer throws, as a {@link ConnectionError}): `path`
     * starts with `/api/`, `body` goes as is. For tools that relay the API's
     * own answers byte for byte (the MCP server of `mockpoint mcp`).
     * @example const answer = await client.apiCall('GET', '/api/endpoints?limit=10')
     */
    apiCall(
      method: string,
      path: string,
      init: { body?: string; contentType?: string; signal?: AbortSignal } = {},
    ): Promise<Response> {
      const headers: Record<string, string> = {};
      if (init.body !== undefined) headers['content-type'] = init.contentType ?? 'application/json';
      if (token) headers.authorization = `Bearer ${token}`;
      const target = url(path);
      return send(new Request(target, { method, headers, body: init.body, signal: init.signal })).catch(
        (error: unknown) => {
          throw toConnectionError(target, error, init.signal);
        },
      );
    },

    /** `GET /api/health`. */
    health(): Promise<Health> {
      return json('GET', '/api/health');
    },

    /**
     * `POST /api/verify`: the routes (of `names`, or every endpoint's) checked
     * against an OpenAPI 3.0/3.1 document, given as an object or as its JSON or
     * YAML text (docs/verify.md). Resolves with the report whether or not they
     * drifted (`ok`); a document that is not one throws `INVALID_OPENAPI`.
     * @example const report = await client.verify({ openapi: doc, names: ['github'] })
     * expect(report.findings).toEqual([])
     */
    verify(request: VerifyRequest, signal?: AbortSignal): Promise<VerifyReport> {
      return json('POST', '/api/verify', request, signal);
    },

    /**
     * `GET /api/coverage`: per endpoint (of `names`, or every one with routes or
     * requests), each route's hits, the routes never hit (dead mocks) and the
     * requests that hit no route, over the journal's requests received in the
     * `since`/`until` window (ISO 8601; docs/coverage.md).
     * @example const { totals, endpoints } = await client.coverage({ names: ['github'] })
     * expect(endpoints[0]?.dead).toEqual([])
     */
    coverage(query: CoverageQuery = {}, signal?: AbortSignal): Promise<CoverageReport> {
      const params = new URLSearchParams();
      if (query.names !== undefined) params.set('names', query.names.join(','));
      if (query.since !== undefined) params.set('since', query.since);
      if (query.until !== undefined) params.set('until', query.until);
      const search = params.size === 0 ? '' : `?${params}`;
      return json('GET', `/api/coverage${search}`, undefined, signal);
    },
  };
}
