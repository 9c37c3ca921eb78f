/**
 * The error responses of each operation, named by code and described from the
 * error registry (registry/error-codes.ts): a route lists the codes it may answer,
 * never their statuses or prose.
 *
 * @module
 */

import type { Schemas } from '../../api/schemas.js';
import { ERROR_STATUS, ERRORS, type ErrorCode } from '../../registry/error-codes.js';
import type { ResponseDoc, RouteDoc } from '../openapi.js';

/** Every route outside `/endpoint/` checks the Host. */
export const HOST_ERRORS = ['HOST_NOT_ALLOWED'] as const satisfies readonly ErrorCode[];

/** What any `/api` request may be refused with for its input. */
export const REQUEST_ERRORS = [
  'INVALID_JSON',
  'INVALID_BODY',
  'INVALID_NAME',
  'MISSING_DATA',
  'INVALID_STATUS_CODE',
  'INVALID_DELAY',
  'UNKNOWN_FIELD',
  'INVALID_QUERY',
  'DUPLICATE_KEY',
  'INVALID_UTF8',
  'INVALID_ENCODING',
  'INVALID_FAULT',
  'INVALID_TIMES',
  ...HOST_ERRORS,
] as const satisfies readonly ErrorCode[];

/** What a route that reads or writes the store may also answer. */
export const STORE_ERRORS = ['STORE_UNAVAILABLE'] as const satisfies readonly ErrorCode[];

/** What an operation with a body may also answer about it. */
export const BODY_ERRORS = ['BODY_TOO_LARGE', 'UNSUPPORTED_ENCODING'] as const satisfies readonly ErrorCode[];

/** What a write (admin) may also answer. */
export const ADMIN_ERRORS = [
  'UNAUTHORIZED',
  'FORBIDDEN_NAMESPACE',
  ...HOST_ERRORS,
  'CROSS_ORIGIN',
] as const satisfies readonly ErrorCode[];

/** Registry prose without its links to docs/ pages (they point nowhere from the OpenAPI document). */
function plain(text: string): string {
  return text.replace(/ \(\[[^\]]*\]\([^)]*\)\)/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
}

/** The description of an error response: each code with when it happens. */
export function describeErrors(codes: readonly ErrorCode[]): string {
  return codes.map((code) => `${code}: ${plain(ERRORS[code].when)}.`).join(' ');
}

/**
 * The error responses made so far, by schemas and codes: every app (a namespace's
 * too, one per test session) documents the same routes, and their prose once
 * per app was a third of an opened namespace's memory (0.2 of 0.59 MB, measured).
 */
const MADE = new WeakMap<Schemas, Map<string, Readonly<Record<number, ResponseDoc>>>>();

/** Each list of codes given to {@link errorResponses} as its key's text, made once per list. */
const LIST_TEXT = new WeakMap<readonly ErrorCode[], string>();
function listText(list: readonly ErrorCode[]): string {
  let text = LIST_TEXT.get(list);
  if (text === undefined) {
    text = `[${list.join(' ')}]`;
    LIST_TEXT.set(list, text);
  }
  return text;
}

/**
 * The error responses of an operation that may answer `codes` (lists or single
 * codes, duplicates allowed), one per status, each naming its codes.
 * @example responses: { 201: created, ...errorResponses(schemas, REQUEST_ERRORS, ADMIN_ERRORS, 'NAME_TAKEN') }
 */
export function errorResponses(
  schemas: Schemas,
  ...codes: (ErrorCode | readonly ErrorCode[])[]
): Readonly<Record<number, ResponseDoc>> {
  let made = MADE.get(schemas);
  if (made === undefined) {
    made = new Map();
    MADE.set(schemas, made);
  }
  // Looked up first by the arguments as given (a constant list's text made once): no list is spread per call.
  const given = codes.map((code) => (typeof code === 'string' ? code : listText(code))).join(' ');
  const seen = made.get(given);
  if (seen !== undefined) return seen;
  const unique = [...new Set(codes.flat())];
  const key = unique.join(' ');
  const known = made.get(key);
  if (known !== undefined) {
    made.set(given, known);
    return known;
  }
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of unique) {
    const status = ERROR_STATUS[code];
    if (status === null) throw new Error(`${code} is not answered over HTTP (it has no status)`);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<number, ResponseDoc> = Object.fromEntries(
    [...byStatus]
      .sort(([a], [b]) => a - b)
      .map(([status, list]) => [
        status,
        { description: describeErrors(list), schema: schemas.errorBody, errors: list },
      ]),
  );
  made.set(key, responses);
  made.set(given, responses);
  return responses;
}

/** A route's doc without its method and answers, for {@link readDoc} and {@link clearDoc}. */
type DocHead = Omit<RouteDoc, 'method' | 'admin' | 'responses'>;

/**
 * The doc of a read (`GET`): 200 with `ok`, or what any request and the store
 * may answer, and `also` (e.g. `NOT_FOUND`).
 * @example readDoc(schemas, { path: '/api/endpoints/{name}/queue', summary, tag: 'queue', params }, { description: 'What remains.', schema })
 */
export function readDoc(schemas: Schemas, head: DocHead, ok: ResponseDoc, ...also: ErrorCode[]): RouteDoc {
  return {
    method: 'get',
    ...head,
    responses: { 200: ok, ...errorResponses(schemas, REQUEST_ERRORS, ...also, STORE_ERRORS) },
  };
}

/** The doc of a clear (an admin `DELETE`): 204 described as `done`, or what any request, an admin write and the store may answer. */
export function clearDoc(schemas: Schemas, head: DocHead, done: string): RouteDoc {
  return {
    method: 'delete',
    ...head,
    admin: true,
    responses: { 204: { description: done }, ...errorResponses(schemas, REQUEST_ERRORS, ADMIN_ERRORS, STORE_ERRORS) },
  };
}

/** A write's doc without its answers, for {@link writeDoc}: its method and body given. */
type WriteHead = Omit<RouteDoc, 'method' | 'admin' | 'responses' | 'body'> & {
  method: 'post' | 'put';
  body: NonNullable<RouteDoc['body']>;
};

/**
 * The doc of an admin write with a body: `ok` (its status and doc), or what any request,
 * a body and an admin write may answer, and `also` (e.g. {@link STORE_ERRORS}).
 * @example writeDoc(schemas, { method: 'post', path, summary, tag: 'sockets', params, body }, { 200: counted }, errors)
 */
export function writeDoc(
  schemas: Schemas,
  head: WriteHead,
  ok: Readonly<Record<number, ResponseDoc>>,
  ...also: (ErrorCode | readonly ErrorCode[])[]
): RouteDoc {
  return {
    ...head,
    admin: true,
    responses: { ...ok, ...errorResponses(schemas, REQUEST_ERRORS, BODY_ERRORS, ADMIN_ERRORS, ...also) },
  };
}
