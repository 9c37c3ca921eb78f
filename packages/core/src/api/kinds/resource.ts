/**
 * The resource kind: serve REST over one of the endpoint's collections below
 * the route's path (see docs/state.md).
 *
 * @module
 */

import { z } from 'zod';
import { onFirstUse } from '../../cache/on-first-use.js';
import { answerKind } from '../answer-kind.js';

/** A resource answer (a collection served as REST). */
function createResourceSchema() {
  return z
    .union([
      z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
      z.strictObject({
        collection: z
          .string()
          .regex(/^[A-Za-z0-9_-]{1,64}$/)
          .describe('The collection served.'),
        idField: z.string().min(1).max(64).optional().describe('The field that holds each item\'s id; default "id".'),
      }),
    ])
    .meta({ title: 'ResourceAnswer', description: RESOURCE_DESCRIPTION });
}

/** What a resource answer is, in the OpenAPI document and the mock-file schema. */
const RESOURCE_DESCRIPTION =
  "Serve REST over one of the endpoint's collections below the route's path, in json-server's conventions (routes only; see docs/state.md).";

const resourceSchema = onFirstUse(() => createResourceSchema());

export const resourceKind = answerKind({
  key: 'resource',
  noun: 'a resource answer',
  schema: () => resourceSchema(),
  describe:
    'Serve a collection as REST below the route\'s path: "users" or { collection, idField }. Beside it only setState, and headers added to its successful answers (with template: true, rendered with {{item.field}}, the item answered).',
  beside: {
    fields: ['setState', 'headers', 'template'],
    says: "the collection's (with headers, template and setState beside it)",
  },
  readsBody: true,
  checkOrder: 1,
  // The Mockoon export writes it as a CRUD route over a data bucket.
  forms: { wiremock: false, mockoon: true },
});
