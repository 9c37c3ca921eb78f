/**
 * The service's schemas, a part of `createSchemas` (schemas.ts): the error
 * body, the health answer and the reset query.
 *
 * @module
 */
import { z } from 'zod';
import { LIMIT_NAMES, type LimitName, SETTINGS } from '../registry/settings.js';

/** The error body and the health answer. */
export function createServiceSchemas() {
  const errorBody = z
    .object({
      success: z.literal(false),
      error: z.object({
        code: z.string(),
        message: z.string(),
        details: z
          .record(z.string(), z.unknown())
          .optional()
          .describe(
            'Specifics: `index` of the route at fault; for NO_ROUTE_MATCHED, `nearMisses` (up to three routes, each with the first thing that did not match).',
          ),
      }),
    })
    .meta({ title: 'Error' });
  const health = z
    .object({
      status: z.enum(['ok', 'degraded', 'unavailable']),
      reason: z.string().optional().describe('Why the status is not `ok`.'),
      version: z.string(),
      store: z.string(),
      longPolls: z
        .number()
        .int()
        .describe('Journal long-polls this process holds now (per replica; e.g. to see that a wait has begun).'),
      limits: z
        .object(
          Object.fromEntries(
            LIMIT_NAMES.map((name) => [
              name,
              z.number().int().describe(`${SETTINGS[name].help} (${SETTINGS[name].env})`),
            ]),
          ) as Record<LimitName, z.ZodNumber>,
        )
        .describe("This server's limits (see docs/settings.md), e.g. for a client to check its input against."),
    })
    .meta({ title: 'Health' });
  return { errorBody, health };
}

/** The query of `POST /api/endpoints/{name}/reset` and `POST /api/reset`. */
export function createResetQuery() {
  return z.object({
    journal: z
      .enum(['true', 'false'])
      .optional()
      .describe('true: also forget the requests recorded for this name (default false).'),
  });
}
