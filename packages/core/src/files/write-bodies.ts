/**
 * The admin request bodies that write one endpoint of a mock file: the record
 * (`PUT /api/endpoints/{name}`), the routes (`PUT …/routes`) and the queued
 * answers (`POST …/queue`). `applyMockFile` sends exactly these texts, and
 * `parseMockFile` holds each to the body limit, so `validate`, `apply` and
 * `--config` refuse the same files.
 *
 * @module
 */
import { answerJson } from '../wire/answer-json.js';
import { JsonText, stringifyExact } from '../wire/json-text.js';
import { routesJson } from '../wire/route.js';
import type { MockFileEndpoint } from './parse-mock-file.js';

/** One endpoint's write bodies (absent: that write sends no body). */
export interface WriteBodies {
  record?: string;
  routes: string;
  queue?: string;
}

/** The bodies that make a daemon hold `endpoint`. */
export function writeBodies(endpoint: MockFileEndpoint): WriteBodies {
  const { record } = endpoint;
  const bodies: WriteBodies = { routes: `{"routes":${routesJson(endpoint.routes)}}` };
  if (record) bodies.record = stringifyExact({ data: record.data, statusCode: record.statusCode, delay: record.delay });
  if (endpoint.queue.length > 0) {
    bodies.queue = stringifyExact({ answers: endpoint.queue.map((answer) => new JsonText(answerJson(answer))) });
  }
  return bodies;
}
