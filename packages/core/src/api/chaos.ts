/**
 * Chaos settings of an endpoint, as they cross the wire and are stored: a
 * share of requests (`rate`) answered with an injected fault drawn from
 * `faults`, an optional latency added to every answer, and a `seed` so that
 * the same seed gives the same sequence of decisions. See docs/chaos.md.
 *
 * @module
 */

import { z } from 'zod';
import { type Latency, latencyProblem } from '../random/latency.js';
import { MockpointError } from '../registry/errors.js';

/** What chaos injects: the connection reset, held until the client gives up, or an HTTP error. */
export type ChaosFault = 'reset' | 'timeout' | '500' | '503' | '429';

/** Every chaos fault, in the order the docs list them. */
export const CHAOS_FAULTS: readonly ChaosFault[] = ['reset', 'timeout', '500', '503', '429'];

/**
 * Where a namespace's own chaos (`/api/chaos`: every endpoint of the app that
 * has none of its own) is kept: beside the endpoints' chaos in the store, under
 * this name, which no endpoint can have (names are `A–Z a–z 0–9 _ -`).
 */
export const NAMESPACE_CHAOS_KEY = '*';

/** An endpoint's chaos. */
export interface ChaosSettings {
  /** The share of requests given a fault, 0 … 1. */
  rate: number;
  /** The faults drawn from, each equally likely (at least one). */
  faults: ChaosFault[];
  /** A delay drawn per request and added to every answer (faults included). */
  latency?: Latency;
  /** Bytes per second: the body of every answer that is not a fault sent at that rate. */
  bandwidth?: number;
  /** Seeds the decisions (and the latency): the same seed, the same sequence; absent: random. */
  seed?: number;
}

/** The chaos schemas; `latency` is the routes' latency schema (one instance: the OpenAPI document names it once). */
export function chaosSchemas(latency: z.ZodType) {
  const settings = z
    .strictObject({
      rate: z.number().min(0).max(1).describe('The share of requests given a fault, 0 to 1.'),
      faults: z
        .array(z.enum(CHAOS_FAULTS as [ChaosFault, ...ChaosFault[]]))
        .min(1)
        .max(CHAOS_FAULTS.length)
        .describe(
          'Drawn from, each equally likely: reset (the connection reset), timeout (no answer until the client gives up), 500, 503, 429 (JSON errors, code CHAOS_FAULT; 429 with Retry-After).',
        ),
      latency: latency
        .optional()
        .describe('A delay drawn per request, added to every answer; seeded by the chaos seed.'),
      bandwidth: z
        .int()
        .min(1)
        .max(1_000_000_000)
        .optional()
        .describe('Bytes per second: the body of every answer that is not a fault is sent at that rate.'),
      seed: z
        .int()
        .min(-2147483648)
        .max(4294967295)
        .optional()
        .describe('Seeds the decisions: the same seed, the same sequence; absent: random.'),
    })
    .meta({
      title: 'Chaos',
      description: "An endpoint's chaos: a share of requests answered with an injected fault, a latency, a seed.",
    });
  return { settings };
}

/** The settings of a request body, checked; 400 `INVALID_CHAOS` (or `INVALID_LATENCY`) says why not. */
export function parseChaosInput(body: unknown, schema: z.ZodType, maxDelayMs: number): ChaosSettings {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new MockpointError('INVALID_BODY', 'request body must be a JSON object: { "rate": 0.1, "faults": ["503"] }');
  }
  const result = schema.safeParse(body);
  if (!result.success) {
    const issue = result.error.issues[0];
    if (issue?.code === 'unrecognized_keys' && issue.path.length === 0) {
      throw new MockpointError(
        'UNKNOWN_FIELD',
        `unknown field(s): ${issue.keys.join(', ')}; chaos has rate, faults, latency, bandwidth and seed`,
      );
    }
    const field = issue?.path.map(String).join('.') ?? '';
    const code = field.startsWith('latency') ? 'INVALID_LATENCY' : 'INVALID_CHAOS';
    throw new MockpointError(code, `${field || 'chaos'}: ${issue?.message ?? 'is invalid'}`);
  }
  const settings = result.data as ChaosSettings;
  if (new Set(settings.faults).size !== settings.faults.length) {
    throw new MockpointError('INVALID_CHAOS', 'faults: each fault once');
  }
  if (settings.latency?.seed !== undefined) {
    throw new MockpointError(
      'INVALID_LATENCY',
      'latency.seed: the chaos seed seeds its latency too; give seed beside rate',
    );
  }
  if (settings.latency !== undefined) {
    const problem = latencyProblem(settings.latency, 0, maxDelayMs);
    if (problem !== undefined) throw new MockpointError('INVALID_LATENCY', problem);
  }
  return settings;
}

/** The stored text of settings. */
export function chaosSettingsJson(settings: ChaosSettings): string {
  const { rate, faults, latency, bandwidth, seed } = settings;
  return JSON.stringify({ rate, faults, latency, bandwidth, seed });
}

/** Settings from their stored text; throws on text that is not settings (damaged storage). */
export function decodeChaosSettings(text: string): ChaosSettings {
  const value = JSON.parse(text) as ChaosSettings;
  if (
    typeof value !== 'object' ||
    value === null ||
    typeof value.rate !== 'number' ||
    !Array.isArray(value.faults) ||
    !value.faults.every((fault) => CHAOS_FAULTS.includes(fault))
  ) {
    throw new Error('not chaos settings');
  }
  return value;
}
