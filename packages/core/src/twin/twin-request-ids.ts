/**
 * Request ids (docs/twins.md): with the profile's `requestIds`, every answer of the twin carries a
 * new id (Stripe's `Request-Id: req_…`, which stripe-node reads into `lastResponse.requestId` and
 * `err.requestId`), and an error carries the members the provider's flows add about its request
 * (Stripe's `doc_url` and `request_log_url`). An idempotent replay is the kept answer, body and all,
 * under a new id, with `original` naming the request that first used the key: a replay Stripe
 * recorded answers `Request-Id: req_8nO7…` with `Original-Request: req_EOTu…`. GitHub's is
 * `X-GitHub-Request-Id`, in groups of hex digits.
 *
 * @module
 */
import { randomBytes } from '../codec/random-bytes.js';
import type { TwinAnswer } from './twin-answer.js';
import type { TwinFlows } from './twin-flows.js';
import type { TwinProfile } from './twin-profile.js';

type RequestIds = NonNullable<TwinProfile['requestIds']>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A new request id in the profile's form: its `hexGroups` of random upper-case hex digits joined
 * by `:` (GitHub's `C0DE:1A2B:3C4D5E:6F7A8B:65F0A1B2`), else `prefixed` (its `prefix` and `length`).
 */
export function requestId(ids: RequestIds, prefixed: (prefix: string, length: number) => string): string {
  if (ids.hexGroups === undefined) return prefixed(ids.prefix, ids.length);
  const groups = ids.hexGroups.map((length) => {
    const bytes = randomBytes(Math.ceil(length / 2));
    let hex = '';
    for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
    return hex.slice(0, length).toUpperCase();
  });
  return groups.join(':');
}

/** `body` with `members` added to its error object: its `error` member where it has one, else the body. */
export function withErrorMembers(body: string, members: Record<string, unknown>): string {
  const parsed = JSON.parse(body) as Record<string, unknown>;
  Object.assign(isRecord(parsed.error) ? parsed.error : parsed, members);
  return JSON.stringify(parsed);
}

/** The error answer's `code` (Stripe's `error.code`, else a top-level `code`). */
function codeOf(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as unknown;
    const error = isRecord(parsed) && isRecord(parsed.error) ? parsed.error : parsed;
    return isRecord(error) && typeof error.code === 'string' ? error.code : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `answer` as the answer to the request of `id` (`undefined`: the profile gives none): the id in
 * the profile's header and, on an error, the members the flows' `errorMembers` add.
 */
export function stamped(
  answer: TwinAnswer,
  id: string | undefined,
  ids: RequestIds | undefined,
  flows: TwinFlows | undefined,
  now: number,
): TwinAnswer {
  if (id === undefined || ids === undefined) return answer;
  const headers = { ...answer.headers, [ids.header]: id };
  const members =
    answer.status >= 400
      ? flows?.errorMembers?.({ status: answer.status, code: codeOf(answer.body) }, { id, now })
      : undefined;
  if (members === undefined || Object.keys(members).length === 0) return { ...answer, headers };
  return { ...answer, headers, body: withErrorMembers(answer.body, members) };
}

/**
 * The answer to a request of `id` with an idempotency key: the kept answer of the key (its
 * `Idempotent-Replayed`, its body) under `id`, the profile's `original` naming the request that
 * first used the key (on the first request, `id` itself).
 */
export function keyed(answer: TwinAnswer, id: string | undefined, ids: RequestIds | undefined): TwinAnswer {
  if (id === undefined || ids === undefined) return answer;
  const headers = { ...answer.headers, [ids.header]: id };
  // A key kept before the twin gave request ids names none: this request is the first it can name.
  if (ids.original !== undefined) headers[ids.original] = answer.headers[ids.header] ?? id;
  return { ...answer, headers };
}
