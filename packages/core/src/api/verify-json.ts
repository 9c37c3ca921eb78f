/**
 * `POST /api/verify`: what it takes and what it answers (docs/verify.md). The
 * types cross the network (API, client, CLI, MCP); the work is in verify/.
 *
 * @module
 */

/** What each finding says went wrong, stable across releases. */
export const VERIFY_FINDING_CODES = [
  /** The document has no operation for the route's path and method. */
  'MISSING_OPERATION',
  /** The operation declares neither the answer's status (nor its range, `2XX`) nor `default`. */
  'UNDECLARED_STATUS',
  /** The answer's content type is not one the response declares (or the response declares no body). */
  'WRONG_CONTENT_TYPE',
  /** The response declares a body, the answer has none. */
  'MISSING_BODY',
  /** A header the response marks required is not among the answer's headers. */
  'MISSING_HEADER',
  /** The body (or a header) does not fit the response's schema; the path says where. */
  'SCHEMA_MISMATCH',
  /** `journal`: a recorded request's body, query, path parameter or header does not fit the operation's schema. */
  'REQUEST_SCHEMA_MISMATCH',
  /** `journal`: a recorded request lacks a parameter (query, header) the operation requires, or a required body. */
  'MISSING_PARAMETER',
  /** `journal`: no operation of the document covers a recorded request's path (or its method). */
  'UNKNOWN_OPERATION',
  /** `upstream`: the real answer has a field the mock's lacks (`found` the mock's, `expected` the real one's). */
  'SHAPE_MISSING_FIELD',
  /** `upstream`: the mock's answer has a field the real one lacks. */
  'SHAPE_EXTRA_FIELD',
  /** `upstream`: a field is of another JSON type in the real answer (string, number, boolean, null, object, array). */
  'SHAPE_TYPE_CHANGED',
  /** `upstream`: the real answer's status differs from the mock's. */
  'STATUS_DIFFERS',
  /** `upstream`: the real answer's content type (its essence) differs from the mock's. */
  'CONTENT_TYPE_DIFFERS',
] as const;

export type VerifyFindingCode = (typeof VERIFY_FINDING_CODES)[number];

/** One difference between a route and the document. */
export interface VerifyFinding {
  code: VerifyFindingCode;
  /** The endpoint's name. */
  endpoint: string;
  /**
   * The route's id and its index in the endpoint's list; for a journal finding
   * the route that answered the request, absent when none did.
   */
  route?: { id: string; index: number };
  /** A journal finding's recorded request. */
  entry?: VerifyEntry;
  /** `METHOD /path` of the route as it matches (`* /path` for any method); of a journal finding, the request's. */
  operation: string;
  /**
   * Where: `body/items/0/id`, `headers/x-rate-limit`, `status` or `path`; a
   * journal finding's `query/limit`, `params/id`, `body/name`; an upstream
   * finding's a shape path, `body.items.*.id` (as `ignore` takes it).
   */
  path: string;
  /** What the document asks for (an upstream finding: what the real API answered). */
  expected: string;
  /** What the route has (a journal finding: what the request sent; an upstream finding: the mock's). */
  found: string;
  /** The same in one line. */
  message: string;
}

/** The recorded request a journal finding is about. */
export interface VerifyEntry {
  /** Its journal id. */
  id: number;
  receivedAt: string;
  method: string;
  /** The subpath it was sent to (below the endpoint). */
  path: string;
}

/** A route (or an answer, or a recorded request) that was not checked, and why. */
export interface VerifyNote {
  endpoint: string;
  /** Absent for a note on a recorded request no route answered. */
  route?: { id: string; index: number };
  entry?: VerifyEntry;
  note: string;
}

/** The answer of `POST /api/verify`. */
export interface VerifyReport {
  /** No finding: the routes fit the document. */
  ok: boolean;
  /** The document's `info.title` and `info.version`, as it names itself (absent: verified against `upstream` only). */
  document?: { title: string; version: string; openapi: string };
  /** The live API the routes were replayed against (`upstream`). */
  upstream?: string;
  /**
   * What was looked at: with `journal`, the recorded requests checked
   * (`requests`); with `upstream`, the routes replayed (`replayed`) and those
   * whose replay failed (`unreached`: refused, timed out, not allowed; each a note).
   */
  checked: { endpoints: number; routes: number; requests?: number; replayed?: number; unreached?: number };
  /** In endpoint and route order; at most the cap. */
  findings: VerifyFinding[];
  /** Findings beyond the cap, not listed. */
  moreFindings: number;
  /** Routes (or parts) not checked, with why; at most the cap. */
  notes: VerifyNote[];
  moreNotes: number;
  /** Every endpoint verified, in order, with its route count (a report lists an endpoint with no finding too). */
  endpoints: { name: string; routes: { id: string; index: number; operation: string }[] }[];
}

/** What `POST /api/verify` takes: `openapi`, `upstream` or both. */
export interface VerifyRequest {
  /** The OpenAPI 3.0 or 3.1 document: its object, or its text (JSON or YAML). */
  openapi?: unknown;
  /** Only these endpoints (default: every endpoint with routes). */
  names?: string[];
  /** Also check each recorded request of the endpoints against its operation's request schemas (needs `openapi`). */
  journal?: boolean;
  /** Replay each route's example request against this live API and compare shapes (docs/verify.md). */
  upstream?: VerifyUpstream;
}

/** How routes are replayed against the live API. */
export interface VerifyUpstream {
  /** The API's base URL (`https://api.example.com/v1`): a route's subpath is appended. Only hosts `MOCKPOINT_PROXY_ALLOW_HOSTS` allows. */
  url: string;
  /** Shape paths left out of the comparison: `body.updatedAt`, `body.items.*.id`, `headers.etag`. */
  ignore?: string[];
  /** Headers sent with every replayed request (the only way a secret such as `authorization` is sent). */
  headers?: Record<string, string>;
  /** Also replay methods that change the live API (POST, PUT, PATCH, DELETE, …); without it only GET, HEAD and OPTIONS are sent. @default false */
  unsafe?: boolean;
  /** A HAR document (its `log.entries`): requests to take as routes' examples before the journal's. */
  har?: unknown;
  /** Requests in flight at once. @default 4 */
  concurrency?: number;
  /** Milliseconds one request may take. @default 10000 */
  timeoutMs?: number;
  /** Milliseconds the whole replay may take; routes not reached by then are noted. @default 60000 */
  totalMs?: number;
}

/** Bounds of {@link VerifyUpstream}: the most requests in flight, and the longest timeouts. */
export const MAX_VERIFY_CONCURRENCY = 16;
export const MAX_VERIFY_TIMEOUT_MS = 60_000;
/** Under the 300 s a Node client (undici) waits for an answer's headers by default. */
export const MAX_VERIFY_TOTAL_MS = 240_000;

/** The most findings (and notes) a report lists; the rest are counted. */
export const MAX_VERIFY_FINDINGS = 1000;
