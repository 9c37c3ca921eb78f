/**
 * The request filter's schema, a part of `createSchemas` (schemas.ts): which
 * requests a route, a queued answer or a journal read takes.
 *
 * @module
 */
import { z } from 'zod';
import { onFirstUse } from '../cache/on-first-use.js';
import { jsonPathProblem } from '../pattern/json-path.js';
import { valueMatcherProblem } from '../pattern/value-pattern.js';
import { SIGNATURE_STATUSES } from '../signing/signature-settings.js';
import { createGraphqlSchemas } from './graphql-json.js';
import { createGrpcSchemas } from './grpc-json.js';
import { createMcpFilterSchema } from './mcp-json.js';
import { createStateSchemas } from './state-json.js';

/** The state's schemas, one set for the filter, the journal and the API. */
export const stateSchemas = onFirstUse(createStateSchemas);
/** The GraphQL schemas, one set for the filter and the journal. */
export const graphqlSchemas = onFirstUse(createGraphqlSchemas);
const mcpFilter = onFirstUse(createMcpFilterSchema);
const grpcFilter = onFirstUse(() => createGrpcSchemas().filter);

/** A value matcher (a regular expression over a whole value) and the request filter. */
export function createFilterSchemas() {
  const valueMatcher = z
    .union([
      z.strictObject({
        matches: z.string().describe('A regular expression the whole value must match (RE2, Java syntax).'),
      }),
      z.strictObject({ doesNotMatch: z.string().describe('A regular expression the whole value must not match.') }),
    ])
    .superRefine((matcher, context) => {
      const problem = valueMatcherProblem(matcher);
      if (problem !== undefined) {
        // INVALID_MATCH wherever in the filter the pattern is (a header's, a query parameter's).
        context.addIssue({ code: 'custom', message: `pattern refused: ${problem}`, params: { regex: true } });
      }
    })
    .meta({
      title: 'ValueMatcher',
      description:
        'A regular expression over a whole value, run in linear time (RE2): lookaround, backreferences, atomic groups and possessive quantifiers are refused.',
    });
  const absent = z.strictObject({ absent: z.literal(true).describe('The value must not be sent at all.') }).meta({
    title: 'AbsentMatcher',
    description: "A header or query parameter that must not be sent (WireMock's absent).",
  });
  const jsonPath = z.string().superRefine((expression, context) => {
    const problem = jsonPathProblem(expression);
    // INVALID_MATCH, as a refused regular expression.
    if (problem !== undefined) context.addIssue({ code: 'custom', message: problem, params: { regex: true } });
  });
  const requestFilter = z
    .strictObject({
      method: z.string().optional().describe('HTTP method, case-insensitive.'),
      path: z
        .union([z.string(), valueMatcher])
        .optional()
        .describe(
          'A pattern over the subpath (the path below /endpoint/{name}): literal segments, :param segments and a trailing *, e.g. /repos/:owner/:repo/issues; or { matches } / { doesNotMatch }, a regular expression over the whole subpath (its named groups, (?<id>…), are the params).',
        ),
      url: valueMatcher
        .optional()
        .describe(
          'A regular expression ({ matches } / { doesNotMatch }) over the whole subpath and its query string as sent (/users?page=2).',
        ),
      query: z
        .record(z.string(), z.union([z.string(), z.array(z.string()), valueMatcher, absent]))
        .optional()
        .describe(
          'Query parameters with exactly these values (a repeated key is an array), or { matches } / { doesNotMatch } over the first value, or { absent: true }: not sent.',
        ),
      headers: z
        .record(z.string(), z.union([z.string(), valueMatcher, absent]))
        .optional()
        .describe(
          'Headers with exactly these values, or { matches } / { doesNotMatch } over the whole value, or { absent: true }: not sent; names are case-insensitive.',
        ),
      body: z
        .unknown()
        .optional()
        .describe('A JSON subset of the body (arrays match element by element); a string also matches the raw text.'),
      bodyPatterns: z
        .array(valueMatcher)
        .min(1)
        .max(16)
        .optional()
        .describe('Regular expressions ({ matches } / { doesNotMatch }) over the whole body text; all must hold.'),
      bodyEquals: z
        .unknown()
        .optional()
        .describe(
          'The body parsed as JSON equals this value exactly: the same members in any order and no others, arrays in order, numbers by value.',
        ),
      bodyJsonPaths: z
        .array(jsonPath)
        .min(1)
        .max(8)
        .optional()
        .describe(
          "JSONPath expressions that must each select something in the JSON body: $ then .name, ['name'], [2], [*], [?(@.a.b)] or [?(@.a.b OP literal)] (OP one of == < <= > >=); at most 256 characters and 16 steps each.",
        ),
      signature: z
        .enum(SIGNATURE_STATUSES)
        .optional()
        .describe(
          "The outcome of the name's signature check (valid, invalid, missing, stale, replayed); requests to a name without a check never match.",
        ),
      state: stateSchemas()
        .input.optional()
        .describe(
          'The endpoint\'s state: a value of the "default" scenario, or scenario → value (never moved: "started"). Routes match the state as the request finds it; journal reads the state an entry saw before its answer.',
        ),
      websocket: z
        .strictObject({
          direction: z.enum(['in', 'out']).optional().describe('in: from the client; out: from mockpoint.'),
          connection: z.string().optional().describe("The connection's id."),
        })
        .optional()
        .describe('WebSocket messages only (journal entries MESSAGE and CLOSE): their direction and connection.'),
      graphql: graphqlSchemas().filter.optional(),
      mcp: mcpFilter().optional(),
      grpc: grpcFilter().optional(),
    })
    .meta({ title: 'RequestFilter', description: 'Which recorded requests count; all given fields must match.' });
  return { valueMatcher, requestFilter };
}
