/**
 * The clock as it crosses the network (docs/clock.md): `GET /api/clock`'s
 * view and `PUT /api/clock`'s change.
 *
 * @module
 */
import { z } from 'zod';
import { DURATION_RULE, type Duration, durationMs } from '../codec/duration.js';
import { isoTimeMs } from '../codec/iso-time.js';

/** The clock as `GET /api/clock` shows it. */
export interface ClockJson {
  /** The clock's time, ISO 8601. */
  now: string;
  /** Whether time stands still. */
  frozen: boolean;
  /** The clock's time minus real time, in ms. */
  offsetMs: number;
}

/** A change of the clock (`PUT /api/clock`): at least one member; applied as freeze (or thaw), then set, then advance. */
export interface ClockChange {
  /** Stop time (`true`) or let it run on from where it is (`false`). */
  freeze?: boolean;
  /** The time to show: ISO 8601 (`"2030-01-01T00:00:00Z"`), or ms since the epoch. */
  set?: string | number;
  /** Move time on by a duration: ms, or `"30s"`, `"5m"`, `"2h"`, `"1d"`. */
  advance?: Duration;
}

/** `input` as ms since the epoch, or `undefined` when it is not a time `set` takes. */
export function clockTimeMs(input: unknown): number | undefined {
  if (typeof input === 'number') return Number.isSafeInteger(input) ? input : undefined;
  // An ISO 8601 date, or date and time with a zone: never a local time, never a day the calendar lacks.
  return typeof input === 'string' ? isoTimeMs(input, 'optional') : undefined;
}

export const CLOCK_TIME_RULE =
  'set is an ISO 8601 time with its zone ("2030-01-01T00:00:00Z") on a day the calendar has, or ms since the epoch, from 1970 to 9999';

/** The zod schemas of the clock, for the API's document. */
export function createClockSchemas() {
  const view = z
    .object({
      now: z.string().describe("The clock's time, ISO 8601."),
      frozen: z.boolean().describe('Whether time stands still.'),
      offsetMs: z.number().int().describe("The clock's time minus real time, in ms."),
    })
    .meta({ title: 'Clock', description: "The app's clock: what {{now}} and timed state moves read." });
  const change = z
    .strictObject({
      freeze: z.boolean().optional().describe('Stop time (true) or let it run on from where it is (false).'),
      set: z
        .union([z.string(), z.number().int()])
        .optional()
        .refine((set) => set === undefined || clockTimeMs(set) !== undefined, CLOCK_TIME_RULE)
        .describe('The time to show: ISO 8601 with its zone, or ms since the epoch.'),
      advance: z
        .union([z.string(), z.number().int()])
        .optional()
        .refine((advance) => advance === undefined || durationMs(advance) !== undefined, DURATION_RULE)
        .describe('Move time on: ms, or "30s", "5m", "2h", "1d".'),
    })
    .meta({
      title: 'ClockChange',
      description: 'At least one of freeze, set and advance; applied as freeze (or thaw), then set, then advance.',
    });
  return { view, change };
}
