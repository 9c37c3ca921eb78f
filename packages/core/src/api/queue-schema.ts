/**
 * The answer queue's schemas, a part of `createSchemas` (schemas.ts): one
 * queued answer (the one answer shape, plus match and times), the request and the page.
 *
 * @module
 */
import { z } from 'zod';
import { MAX_ANSWER_TIMES, MAX_QUEUED_ANSWERS } from './answer-json.js';
import type { createRouteSchemas } from './route-schema.js';

/** What a queued answer is made of: the record's fields, the fault, the filter and a route's answer. */
export interface QueuedParts<Fault extends z.ZodType, Filter extends z.ZodType> {
  data: z.ZodUnknown;
  statusCode: z.ZodNumber;
  delay: z.ZodNumber;
  fault: Fault;
  requestFilter: Filter;
  routeAnswer: ReturnType<typeof createRouteSchemas>['routeAnswer'];
}

/** The queue request, a queued answer and the queue's page. */
export function createQueueSchemas<Fault extends z.ZodType, Filter extends z.ZodType>(
  parts: QueuedParts<Fault, Filter>,
) {
  const { data, statusCode, delay, fault, requestFilter, routeAnswer } = parts;
  const times = z
    .number()
    .int()
    .min(1)
    .max(MAX_ANSWER_TIMES)
    .describe(`How many requests this answer serves, 1-${MAX_ANSWER_TIMES}.`);
  const { headers, body, bodyBase64, stream, template, setState } = routeAnswer.shape;
  // The kinds' members are typed loosely on the route answer (route-schema.ts): grpc is one of them.
  const grpc = (routeAnswer.shape as unknown as Record<string, z.ZodType>).grpc as z.ZodType;
  /** The one answer shape's fields, as a queued answer has them (absent ones fall back). */
  const queuedFields = {
    match: requestFilter
      .optional()
      .describe(
        'Which requests take this answer; a request that does not match leaves it queued. Default: every request.',
      ),
    grpc: grpc.describe(
      'The answer to a gRPC, gRPC-Web or Connect call: only calls take it, and a call takes no answer without it (docs/grpc.md#queued-answers).',
    ),
    statusCode: statusCode.optional(),
    headers,
    data: data.optional(),
    body,
    bodyBase64,
    stream,
    delay: delay.optional(),
    fault: fault.optional(),
    template,
    setState,
  };
  const queuedAnswerInput = z.strictObject({ ...queuedFields, times: times.default(1) }).meta({
    title: 'QueuedAnswerInput',
    description:
      'One queued answer (the one answer shape, plus match and times); absent fields fall back to what would answer without the queue: the first matching route, else the record at the bare URL. At most one of data, body, bodyBase64, stream.',
  });
  const queueRequest = z
    .strictObject({ answers: z.array(queuedAnswerInput).min(1).max(MAX_QUEUED_ANSWERS) })
    .meta({ title: 'QueueRequest' });
  const queuedAnswer = z
    .object({ ...queuedFields, times: times.describe('How many more requests this answer serves.') })
    .meta({ title: 'QueuedAnswer' });
  const queuePage = z
    .object({ answers: z.array(queuedAnswer).describe('What remains, first answer first.') })
    .meta({ title: 'QueuedAnswers' });
  return { queueRequest, queuedAnswer, queuePage };
}
