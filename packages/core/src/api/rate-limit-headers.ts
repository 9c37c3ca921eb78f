/**
 * What a rate limit says, in each style (api/rate-limit.ts), as one registry: the
 * headers of an answer that got its token, and the body and extra headers of the
 * `429` of one that did not — each as its API sends it, so that the API's own
 * client code (Octokit's throttling plugin, the OpenAI and Stripe SDKs' retries)
 * can be tested against it. A route's limit (engine/rate-buckets.ts,
 * engine/pipeline/rate-limit-answers.ts) and a twin's own (GitHub's 5,000 an hour
 * a token, twin/twin-rate-limit.ts) read it; the engine names no style.
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
 * @module
 */
import type { RateLimitStyle } from './rate-limit.js';

/*
 * The styles above are built in; a provider of twins with a style of its own registers it
 * (twin-provider.ts), and from then on a twin's profile and a route may name it.
 */

/** What a request found of its limit: the numbers its headers say. */
export interface RateTake {
  /** Requests a window allows. */
  readonly limit: number;
  /** The window, in ms. */
  readonly windowMs: number;
  /** Requests left after this one. */
  readonly remaining: number;
  /** Milliseconds until the limit is whole again. */
  readonly resetMs: number;
  /** When it was taken (the clock's ms). */
  readonly now: number;
}

/** A refused request's take: also how long until the next token. */
export interface RefusedTake extends RateTake {
  /** Milliseconds until the next token. */
  readonly retryMs: number;
  /**
   * Why mockpoint refused, when it is not a route's empty bucket (the daemon's budget of expensive
   * work, turns/work-budget.ts): each style says it in its message, after the provider's words.
   */
  readonly note?: string;
}

/** `message` with mockpoint's note of `take`, when it has one. */
function noted(message: string, take: RefusedTake): string {
  return take.note === undefined ? message : `${message} (mockpoint: ${take.note})`;
}

/** One style: what an answer that got its token carries, and the `429` of one that did not. */
export interface RateLimitShape {
  /** The headers of every answer, or none while tokens remain. */
  headers?(take: RateTake, bucket: string): Record<string, string>;
  /** The 429's JSON body; `route` is the route's name, for mockpoint's own message. */
  refused(take: RefusedTake, route: string): unknown;
  /** Headers only the 429 carries, beside `Retry-After`. */
  refusedHeaders?(take: RefusedTake): Record<string, string>;
}

/** Whole seconds, rounded up. */
export function seconds(ms: number): number {
  return Math.ceil(ms / 1000);
}

/** A duration as OpenAI writes one: `120ms`, `1s`, `7.66s`, `6m0s`, `1h2m3s`. */
export function openAiDuration(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  const hours = Math.floor(ms / 3_600_000);
  const minutes = Math.floor((ms % 3_600_000) / 60_000);
  const rest = (ms % 60_000) / 1000;
  const secs = `${Number(rest.toFixed(3))}s`;
  if (hours > 0) return `${hours}h${minutes}m${secs}`;
  if (minutes > 0) return `${minutes}m${secs}`;
  return secs;
}

const GITHUB_LIMITS = 'https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api';

/** The built-in styles, by name. */
const BUILT_IN: Record<string, RateLimitShape> = {
  ietf: {
    headers: (take, bucket) => ({
      'ratelimit-policy': `"${bucket}";q=${take.limit};w=${Math.max(1, seconds(take.windowMs))}`,
      ratelimit: `"${bucket}";r=${take.remaining};t=${seconds(take.resetMs)}`,
    }),
    refused: (take, route) => {
      const wait = seconds(take.retryMs);
      return {
        success: false,
        error: {
          code: 'RATE_LIMITED',
          message:
            take.note === undefined
              ? `route ${route} allows ${take.limit} requests per ${take.windowMs} ms; retry in ${wait} s`
              : take.note,
          details: { route, limit: take.limit, windowMs: take.windowMs, retryAfter: wait },
        },
      };
    },
  },
  github: {
    headers: (take) => ({
      'x-ratelimit-limit': String(take.limit),
      'x-ratelimit-remaining': String(take.remaining),
      'x-ratelimit-reset': String(seconds(take.now + take.resetMs)),
      'x-ratelimit-used': String(take.limit - take.remaining),
      'x-ratelimit-resource': 'core',
    }),
    refused: (take) => ({
      message:
        take.note === undefined
          ? "API rate limit exceeded for this client. (mockpoint: the route's rateLimit bucket is empty.)"
          : noted('API rate limit exceeded for this client.', take),
      documentation_url: `${GITHUB_LIMITS}#exceeding-the-rate-limit`,
      status: '429',
    }),
  },
  'github-secondary': {
    refused: (take) => ({
      message: noted('You have exceeded a secondary rate limit. Please wait a few minutes before you try again.', take),
      documentation_url: `${GITHUB_LIMITS}#about-secondary-rate-limits`,
      status: '429',
    }),
  },
  openai: {
    headers: (take) => ({
      'x-ratelimit-limit-requests': String(take.limit),
      'x-ratelimit-remaining-requests': String(take.remaining),
      'x-ratelimit-reset-requests': openAiDuration(take.resetMs),
    }),
    refused: (take) => ({
      error: {
        message: noted(
          `Rate limit reached for requests: Limit ${take.limit}, Used ${take.limit}, Requested 1. Please try again in ${openAiDuration(take.retryMs)}.`,
          take,
        ),
        type: 'requests',
        param: null,
        code: 'rate_limit_exceeded',
      },
    }),
    // Azure OpenAI sends it, and the OpenAI SDKs wait exactly that long when it is there.
    refusedHeaders: (take) => ({ 'retry-after-ms': String(take.retryMs) }),
  },
  stripe: {
    refused: (take) => ({
      error: {
        code: 'rate_limit',
        doc_url: 'https://stripe.com/docs/error-codes/rate-limit',
        message: noted(
          'Too many requests hit the API too quickly. We recommend an exponential backoff of your requests.',
          take,
        ),
        type: 'rate_limit_error',
      },
    }),
    refusedHeaders: () => ({ 'stripe-should-retry': 'true' }),
  },
};

/** Every style by name, the built-in ones first. */
const STYLES = new Map<string, RateLimitShape>(Object.entries(BUILT_IN));

/** Adds a style (a later one of the same name replaces it: a provider loaded again). */
export function registerRateLimitStyle(name: string, shape: RateLimitShape): void {
  STYLES.set(name, shape);
}

/** True when a style of that name is registered. */
export function isRateLimitStyle(name: unknown): boolean {
  return typeof name === 'string' && STYLES.has(name);
}

/** The names of the registered styles, as a message lists them. */
export function rateLimitStyleNames(): string {
  return [...STYLES.keys()].join(', ');
}

/** The style of that name; a style no longer registered (never, for a checked one) speaks `ietf`. */
function styleOf(style: RateLimitStyle): RateLimitShape {
  return STYLES.get(style) ?? (BUILT_IN.ietf as RateLimitShape);
}

/** The headers an answer carries for the take, in `style` (none for the styles that send none while tokens remain). */
export function rateLimitHeaders(
  style: RateLimitStyle,
  take: RateTake,
  bucket: string,
): Record<string, string> | undefined {
  return styleOf(style).headers?.(take, bucket);
}

/**
 * The `429` of an empty bucket in `style`: its body's text, the headers every answer of the style
 * carries, and those only the 429 adds (`Retry-After` aside).
 */
export function refusedInStyle(
  style: RateLimitStyle,
  take: RefusedTake,
  bucket: string,
  route: string,
): { body: string; headers: Record<string, string> | undefined; added: Record<string, string> | undefined } {
  const shape = styleOf(style);
  return {
    body: JSON.stringify(shape.refused(take, route)),
    headers: shape.headers?.(take, bucket),
    added: shape.refusedHeaders?.(take),
  };
}
