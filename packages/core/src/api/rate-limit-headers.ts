/**
 * The headers an answer that got its rate-limit token carries, in each style
 * (api/rate-limit.ts; the styles' 429s are engine/pipeline/rate-limit-answers.ts):
 * a route's limit (engine/rate-buckets.ts) and a twin's own (GitHub's 5,000 an
 * hour a token, twin/twin-rate-limit.ts) write them here, once.
 *
 * @module
 */
import type { RateLimitStyle } from './rate-limit.js';

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

/** Whole seconds, rounded up. */
function seconds(ms: number): number {
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

/** The headers an answer carries for the take, in `style` (none for the styles that send none while tokens remain). */
export function rateLimitHeaders(
  style: RateLimitStyle,
  take: RateTake,
  bucket: string,
): Record<string, string> | undefined {
  switch (style) {
    case 'ietf':
      return {
        'ratelimit-policy': `"${bucket}";q=${take.limit};w=${Math.max(1, seconds(take.windowMs))}`,
        ratelimit: `"${bucket}";r=${take.remaining};t=${seconds(take.resetMs)}`,
      };
    case 'github':
      return {
        'x-ratelimit-limit': String(take.limit),
        'x-ratelimit-remaining': String(take.remaining),
        'x-ratelimit-reset': String(seconds(take.now + take.resetMs)),
        'x-ratelimit-used': String(take.limit - take.remaining),
        'x-ratelimit-resource': 'core',
      };
    case 'openai':
      return {
        'x-ratelimit-limit-requests': String(take.limit),
        'x-ratelimit-remaining-requests': String(take.remaining),
        'x-ratelimit-reset-requests': openAiDuration(take.resetMs),
      };
    case 'github-secondary':
    case 'stripe':
      return undefined;
  }
}
