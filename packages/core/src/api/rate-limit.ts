/**
 * A route's rate limit as it crosses the wire: `{ limit, per, style?, bucket? }`,
 * a token bucket of `limit` tokens refilled evenly over `per`, answering `429`
 * with `Retry-After` and the headers (and body) of a real API's style once it is
 * empty. The bucket itself is engine/rate-limit/; docs/rate-limits.md for users.
 *
 * @module
 */
import { z } from 'zod';
import { onFirstUse } from '../cache/on-first-use.js';
import { quoted } from '../codec/quoted.js';
import { NAME_PATTERN } from '../registry/rules.js';
import { isRateLimitStyle, rateLimitStyleNames } from './rate-limit-headers.js';

/** A style of headers and bodies a rate limit speaks: one registered (rate-limit-headers.ts), built in or a provider's. */
export type RateLimitStyle = string;

/** The zod schema of a style's name: a registered one. */
export const rateLimitStyleSchema = onFirstUse(() =>
  z.string().refine(isRateLimitStyle, {
    error: (issue) => `${shownStyle(issue.input)} is no rate-limit style; one of ${rateLimitStyleNames()}`,
  }),
);

/** The most tokens a bucket holds (with {@link MAX_RATE_WINDOW_MS}, its arithmetic stays exact in a double). */
export const MAX_RATE_LIMIT = 1_000_000;
/** The longest window: 31 days. */
export const MAX_RATE_WINDOW_MS = 31 * 24 * 60 * 60 * 1000;

/**
 * A route's rate limit: a token bucket of `limit` tokens, refilled evenly over
 * `per` (`limit` requests per `per` on average, `limit` at once at most).
 * @example { limit: 60, per: '1h', style: 'github' }
 */
export interface RouteRateLimit {
  /** Tokens the bucket holds when full: the requests allowed at once, and per window. 1–1,000,000. */
  limit: number;
  /** The window the bucket refills over: a duration (`"1m"`, `"1h30m"`, `"500ms"`; units ms, s, m, h, d) or milliseconds. 1 ms–31 days. */
  per: string | number;
  /** The headers and the 429's body: `ietf` (RateLimit and RateLimit-Policy) or another registered style (docs/rate-limits.md). @default 'ietf' */
  style?: RateLimitStyle;
  /** Routes of the endpoint naming the same bucket share it (a limit on the whole endpoint); same rule as names. @default the route's id */
  bucket?: string;
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const DURATION = /^(?:\d{1,10}(?:ms|s|m|h|d))+$/;
const PART = /(\d+)(ms|s|m|h|d)/g;

/** The milliseconds of a duration (`"1m30s"`) or a number of ms; `undefined` when it is neither. */
export function windowMs(per: string | number): number | undefined {
  if (typeof per === 'number') return Number.isInteger(per) ? per : undefined;
  if (!DURATION.test(per)) return undefined;
  let total = 0;
  for (const [, count, unit] of per.matchAll(PART)) total += Number(count) * (UNIT_MS[unit as string] as number);
  return total;
}

/** What is wrong with a rate limit that passed its schema, or `undefined`. */
export function rateLimitProblem(rateLimit: RouteRateLimit): string | undefined {
  const { limit, per } = rateLimit;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_RATE_LIMIT) {
    return `rateLimit.limit is ${limit}; give a whole number of requests from 1 to ${MAX_RATE_LIMIT}`;
  }
  const ms = windowMs(per);
  if (ms === undefined) {
    return `rateLimit.per is ${typeof per === 'string' ? quoted(per, 100) : JSON.stringify(per)}; give a duration such as "1m", "30s", "1h30m", "500ms" (units ms, s, m, h, d) or whole milliseconds`;
  }
  if (ms < 1 || ms > MAX_RATE_WINDOW_MS) {
    return `rateLimit.per is ${ms} ms; give 1 ms to 31 days`;
  }
  if (rateLimit.bucket !== undefined && !NAME_PATTERN.test(rateLimit.bucket)) {
    return 'rateLimit.bucket must be 1-64 characters of A-Z a-z 0-9 _ -';
  }
  return undefined;
}

/** The zod schema of a route's `rateLimit` (its numbers checked by {@link rateLimitProblem}, for one message). */
export const rateLimitSchema = onFirstUse(() =>
  z
    .strictObject({
      limit: z
        .number()
        .describe(`Tokens the bucket holds when full: requests at once and per window, 1-${MAX_RATE_LIMIT}.`),
      per: z
        .union([z.string(), z.number()])
        .describe(
          'The window the bucket refills over, evenly: "1m", "1h30m", "500ms" (ms, s, m, h, d) or milliseconds; 1 ms to 31 days.',
        ),
      style: rateLimitStyleSchema()
        .optional()
        .describe(
          'The headers and the 429 body: ietf (RateLimit, RateLimit-Policy; default) or another registered style (docs/rate-limits.md).',
        ),
      bucket: z
        .string()
        .optional()
        .describe("Routes of the endpoint naming the same bucket share its tokens; default the route's id."),
    })
    .meta({
      title: 'RouteRateLimit',
      description:
        "A token bucket per route (or per bucket name within the endpoint): the route answers while tokens remain, then 429 with Retry-After and the style's headers (docs/rate-limits.md).",
    }),
);

/** A style that is none, as a message may show it: 40 characters at most, quoted, no line breaks. */
function shownStyle(input: unknown): string {
  const text = JSON.stringify(typeof input === 'string' ? input.slice(0, 40) : input) ?? String(input);
  return text.replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}
