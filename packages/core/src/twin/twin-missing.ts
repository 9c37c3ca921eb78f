/**
 * The provider's 404 of an object the twin does not hold, in its words (twin-references.ts,
 * twin-constraints.ts and the reads and writes answer it). Apart from the references, which ask the
 * provider's flows what they hold, so that the constraints need not import them.
 *
 * @module
 */
import type { Twin } from './twin-context.js';
import type { FlowError } from './twin-flows.js';
import type { TwinResource } from './twin-operation.js';

/**
 * The provider's 404 of an id it does not hold: Stripe's `No such customer: 'cus_x'` where its
 * error carries a code, else the HTTP reason (GitHub's `Not Found`); a document's twin names the
 * collection and the id in plain words.
 */
export function missing(twin: Twin, resource: Pick<TwinResource, 'template' | 'objectName'>, id: string): FlowError {
  const what = resource.objectName ?? resource.template.split('/').at(-1) ?? 'object';
  const coded = twin.parts.profile.error.includes('{code}');
  const shown = id.slice(0, 200);
  let message = coded ? `No such ${what}: '${shown}'` : 'Not Found';
  if (twin.parts.flows === undefined) message = `Not found: ${resource.template} holds no item '${shown}'.`;
  return { status: 404, type: 'invalid_request_error', code: 'resource_missing', message, param: 'id' };
}
