/**
 * What a rate limit says, in each style (api/rate-limit.ts): the headers of
 * an answer that got its token, and the `429` of one that did not — each as
 * its API sends it, so that the API's own client code (Octokit's throttling
 * plugin, the OpenAI and Stripe SDKs' retries) can be tested against it.
 *
 * - `ietf`: `RateLimit-Policy: "b";q=L;w=S` and `RateLimit: "b";r=R;t=T`
 *   (draft-ietf-httpapi-ratelimit-headers-08 to -11: structured fields, the
 *   policy's name a quoted string) on every answer; the 429 is mockpoint's
 *   `RATE_LIMITED` error.
 * - `github`: `x-ratelimit-limit`, `-remaining`, `-reset` (epoch seconds when
 *   the bucket is full again), `-used`, `-resource` on every answer; the 429
 *   has `x-ratelimit-remaining: 0` and GitHub's "API rate limit exceeded".
 * - `github-secondary`: nothing while tokens remain; the 429 has GitHub's
 *   "You have exceeded a secondary rate limit" and `Retry-After` only.
 * - `openai`: `x-ratelimit-limit-requests`, `-remaining-requests`,
 *   `-reset-requests` (a duration: `1s`, `6m0s`, `120ms`) on every answer;
 *   the 429 is OpenAI's `rate_limit_exceeded` error, with `retry-after-ms`
 *   (Azure OpenAI's; the OpenAI SDKs wait exactly that long).
 * - `stripe`: nothing while tokens remain (Stripe sends no such headers); the
 *   429 is Stripe's `rate_limit_error` with `Stripe-Should-Retry: true`.
 *
 * Every 429 has `Retry-After`: whole seconds until the next token, at least 1.
 *
 * @module
 */

import type { RespondAnswer } from '../../answer/endpoint-answer.js';
import { CORS_HEADERS } from '../../answer/read-response.js';
import type { RateLimitStyle } from '../../api/rate-limit.js';
import { openAiDuration, rateLimitHeaders } from '../../api/rate-limit-headers.js';
import { utf8Length } from '../../codec/utf8-length.js';
import type { BucketTake } from '../rate-buckets.js';

/** Whole seconds, rounded up. */
function seconds(ms: number): number {
  return Math.ceil(ms / 1000);
}

/** The body of a 429 in `style`. */
function refusedBody(style: RateLimitStyle, take: BucketTake, route: string): string {
  const wait = seconds(take.retryMs);
  switch (style) {
    case 'ietf':
      return JSON.stringify({
        success: false,
        error: {
          code: 'RATE_LIMITED',
          message: `route ${route} allows ${take.limit} requests per ${take.windowMs} ms; retry in ${wait} s`,
          details: { route, limit: take.limit, windowMs: take.windowMs, retryAfter: wait },
        },
      });
    case 'github':
      return JSON.stringify({
        message: "API rate limit exceeded for this client. (mockpoint: the route's rateLimit bucket is empty.)",
        documentation_url:
          'https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api#exceeding-the-rate-limit',
        status: '429',
      });
    case 'github-secondary':
      return JSON.stringify({
        message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
        documentation_url:
          'https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api#about-secondary-rate-limits',
        status: '429',
      });
    case 'openai':
      return JSON.stringify({
        error: {
          message: `Rate limit reached for requests: Limit ${take.limit}, Used ${take.limit}, Requested 1. Please try again in ${openAiDuration(take.retryMs)}.`,
          type: 'requests',
          param: null,
          code: 'rate_limit_exceeded',
        },
      });
    case 'stripe':
      return JSON.stringify({
        error: {
          code: 'rate_limit',
          doc_url: 'https://stripe.com/docs/error-codes/rate-limit',
          message: 'Too many requests hit the API too quickly. We recommend an exponential backoff of your requests.',
          type: 'rate_limit_error',
        },
      });
  }
}

/** The `429` of an empty bucket, in `style`, with `Retry-After` (no body for HEAD). */
export function refusedAnswer(
  style: RateLimitStyle,
  take: BucketTake,
  bucket: string,
  route: string,
  head: boolean,
): RespondAnswer {
  const body = refusedBody(style, take, route);
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    ...CORS_HEADERS,
    ...rateLimitHeaders(style, take, bucket),
    'retry-after': String(Math.max(1, seconds(take.retryMs))),
    'content-length': String(utf8Length(body)),
  };
  if (style === 'stripe') headers['stripe-should-retry'] = 'true';
  // Azure OpenAI sends it, and the OpenAI SDKs wait exactly that long when it is there.
  if (style === 'openai') headers['retry-after-ms'] = String(take.retryMs);
  return { kind: 'respond', status: 429, headers, body: head ? null : body, delay: 0 };
}
