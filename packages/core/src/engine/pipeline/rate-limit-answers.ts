/**
 * The `429` of a route whose rate-limit bucket is empty, in its style: the
 * style's body and headers are the table of api/rate-limit-headers.ts (the
 * engine names no style); every 429 has `Retry-After`: whole seconds until the
 * next token, at least 1.
 *
 * @module
 */

import type { RespondAnswer } from '../../answer/endpoint-answer.js';
import { CORS_HEADERS } from '../../answer/read-response.js';
import type { RateLimitStyle } from '../../api/rate-limit.js';
import { type RefusedTake, refusedInStyle, seconds } from '../../api/rate-limit-headers.js';
import { utf8Length } from '../../codec/utf8-length.js';

/** The `429` of an empty bucket (or a full budget, its `note` saying so), in `style`, with `Retry-After` (no body for HEAD). */
export function refusedAnswer(
  style: RateLimitStyle,
  take: RefusedTake,
  bucket: string,
  route: string,
  head: boolean,
): RespondAnswer {
  const refused = refusedInStyle(style, take, bucket, route);
  const { body } = refused;
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    ...CORS_HEADERS,
    ...refused.headers,
    'retry-after': String(Math.max(1, seconds(take.retryMs))),
    'content-length': String(utf8Length(body)),
    ...refused.added,
  };
  return { kind: 'respond', status: 429, headers, body: head ? null : body, delay: 0 };
}
