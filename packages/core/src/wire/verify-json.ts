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
] as const;

export type VerifyFindingCode = (typeof VERIFY_FINDING_CODES)[number];

/** One difference between a route and the document. */
export interface VerifyFinding {
  code: VerifyFindingCode;
  /** The endpoint's name. */
  endpoint: string;
  /** The route's id and its index in the endpoint's list. */
  route: { id: string; index: number };
  /** `METHOD /path` of the route as it matches (`* /path` for any method). */
  operation: string;
  /** Where: `body/items/0/id`, `headers/x-rate-limit`, `status` or `path`. */
  path: string;
  /** What the document asks for. */
  expected: string;
  /** What the route has. */
  found: string;
  /** The same in one line. */
  message: string;
}

/** A route (or an answer) that was not checked, and why. */
export interface VerifyNote {
  endpoint: string;
  route: { id: string; index: number };
  note: string;
}

/** The answer of `POST /api/verify`. */
export interface VerifyReport {
  /** No finding: the routes fit the document. */
  ok: boolean;
  /** The document's `info.title` and `info.version`, as it names itself. */
  document: { title: string; version: string; openapi: string };
  /** What was looked at. */
  checked: { endpoints: number; routes: number };
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

/** What `POST /api/verify` takes. */
export interface VerifyRequest {
  /** The OpenAPI 3.0 or 3.1 document: its object, or its text (JSON or YAML). */
  openapi: unknown;
  /** Only these endpoints (default: every endpoint with routes). */
  names?: string[];
}

/** The most findings (and notes) a report lists; the rest are counted. */
export const MAX_VERIFY_FINDINGS = 1000;
