/**
 * The endpoint record's schemas, a part of `createSchemas` (schemas.ts): its
 * fields, the add/replace requests and answers, and the list's query and page.
 *
 * @module
 */
import { z } from 'zod';
import {
  DEFAULT_DELAY,
  DEFAULT_STATUS_CODE,
  NAME_PATTERN,
  NAME_RULE,
  PREFIX_PATTERN,
  STATUS_CODE_RANGE,
} from '../registry/rules.js';

/** The record's fields and the endpoint requests and answers, `delay` bounded by `maxDelayMs`. */
export function createEndpointSchemas(maxDelayMs: number) {
  const name = z.string().regex(NAME_PATTERN, NAME_RULE).describe('Endpoint name, the last segment of its URL.');
  // `data` accepts every JSON value; presence is checked separately because a
  // missing key and an explicit `null` must be told apart.
  const data = z.unknown().describe('Any JSON value, answered as the response body.');
  const statusCode = z
    .number()
    .int('statusCode must be an integer')
    .min(STATUS_CODE_RANGE.min, 'statusCode must be an integer from 200 to 599')
    .max(STATUS_CODE_RANGE.max, 'statusCode must be an integer from 200 to 599')
    .describe('HTTP status the endpoint answers with.');
  const delay = z
    .number()
    .int('delay must be a whole number of milliseconds')
    .min(0, `delay must be from 0 to ${maxDelayMs} milliseconds`)
    .max(maxDelayMs, `delay must be from 0 to ${maxDelayMs} milliseconds`)
    .describe('Milliseconds to wait before answering.');

  const record = z
    .object({ name, data, statusCode, delay })
    .meta({ title: 'EndpointRecord', description: 'A stored mock endpoint.' });
  const definition = z.strictObject({
    data,
    statusCode: statusCode.default(DEFAULT_STATUS_CODE),
    delay: delay.default(DEFAULT_DELAY),
  });
  const addRequest = z
    .strictObject({
      name,
      data,
      statusCode: statusCode.default(DEFAULT_STATUS_CODE),
      delay: delay.default(DEFAULT_DELAY),
    })
    .meta({ title: 'AddEndpointRequest' });
  const replaceRequest = definition.meta({ title: 'EndpointDefinition' });
  const addResponse = z
    .object({ success: z.literal(true), name, data, statusCode, delay })
    .meta({ title: 'AddEndpointResponse' });
  const listQuery = z.object({
    limit: z.coerce.number().int().min(1).max(1000).default(100).describe('Page size, 1–1000.'),
    after: z.string().optional().describe('Return names after this one (the `next` of the previous page).'),
    prefix: z
      .string()
      .regex(PREFIX_PATTERN)
      .optional()
      .describe('Only names starting with this (case-sensitive); `total` counts them too.'),
    contains: z
      .string()
      .max(200)
      .optional()
      .describe(
        'Only endpoints whose name or stored data (its JSON text) contains this, ignoring case; `total` counts them. Reads every record.',
      ),
    summary: z
      .enum(['true', 'false'])
      .default('false')
      .describe('With `true`, records come without `data` (name, statusCode and delay only).'),
    requests: z
      .enum(['true', 'false'])
      .default('false')
      .describe(
        'With `true`, each listed name has `requests`: how many requests its journal holds (at most `MOCKPOINT_JOURNAL_SIZE`).',
      ),
  });
  const listedRequests = z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('With `requests=true`: how many requests the journal holds for the name (the newest, up to its size).');
  const listResponse = z
    .object({
      endpoints: z
        .array(
          z.union([
            record.partial({ data: true }).extend({
              routes: z.number().int().min(1).optional().describe('How many routes it has, when it has any.'),
              requests: listedRequests,
            }),
            z
              .object({
                name,
                routes: z.number().int().min(1).describe('How many routes it has.'),
                requests: listedRequests,
              })
              .describe('A name with routes and no record.'),
            z
              .object({
                name,
                graphql: z.literal(true).optional().describe('It holds a GraphQL schema (docs/graphql.md).'),
                grpc: z.literal(true).optional().describe('It holds protobuf definitions (docs/grpc.md).'),
                hosts: z.literal(true).optional().describe('It holds hosts mapped through the API (docs/https.md).'),
                chaos: z.literal(true).optional().describe('It holds chaos (docs/chaos.md).'),
                collections: z.literal(true).optional().describe('It holds collections (docs/state.md).'),
                signature: z.literal(true).optional().describe('It checks signatures (docs/webhooks.md).'),
                state: z.literal(true).optional().describe('It holds state: scenarios put or moved (docs/state.md).'),
                queue: z.literal(true).optional().describe('It holds queued answers (docs/api.md).'),
                requests: listedRequests,
              })
              .describe(
                'A name with neither a record nor routes that holds a GraphQL schema, protobuf definitions, hosts, chaos, collections, a signature check, state or queued answers (each it holds: true).',
              ),
          ]),
        )
        .describe(
          'Records (with `routes`, their route count, when they have routes) and names with routes and no record (`{ name, routes }`), in name order.',
        ),
      next: z
        .string()
        .nullable()
        .describe('Pass as `after` for the next page; null on the last. A page also ends early past 8 MiB.'),
      total: z
        .number()
        .int()
        .describe('How many names there are, with a record or routes (with `prefix`: how many start with it).'),
    })
    .meta({ title: 'EndpointList' });
  return { name, data, statusCode, delay, record, addRequest, replaceRequest, addResponse, listQuery, listResponse };
}
