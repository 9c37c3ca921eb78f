/**
 * An answer checked against the response schema its document gives the operation and status
 * (the status's own answer, else `default`): an OpenAPI 3.0 document's JSON `content` schema, or a
 * Swagger 2.0 document's `schema`, with the document's own `$ref`s followed and OpenAPI 3.0's
 * `nullable` read as core's import reads it. Answers the findings in words (none: valid); an
 * answer the document describes no JSON body for must have none.
 *
 * @module
 */
import { Validator } from '@cfworker/json-schema';
import { toJsonSchema } from '@mockpoint/core/internal';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What is wrong with `body` as the answer `status` of `method template` in `doc` (`[]`: nothing). */
export function answerFindings(doc: Json, method: string, template: string, status: number, body: unknown): string[] {
  const where = `${method} ${template} ${status}`;
  const operation = (doc.paths as Record<string, Json>)[template]?.[method.toLowerCase()];
  if (!isObject(operation)) return [`${where}: no such operation in the document`];
  const responses = operation.responses as Record<string, Json>;
  const answer = responses[String(status)] ?? responses.default;
  if (answer === undefined) return [`${where}: the document gives no answer ${status}`];
  const swagger = doc.swagger === '2.0';
  const schema = swagger ? answer.schema : (answer.content as Json | undefined)?.['application/json'];
  const own = swagger ? schema : (schema as Json | undefined)?.schema;
  if (own === undefined) return body === undefined ? [] : [`${where}: a body where the document describes none`];
  const root = toJsonSchema(
    { ...(own as Json), definitions: doc.definitions, components: doc.components },
    !String(doc.openapi ?? '').startsWith('3.1'),
    { of: 'response' },
  );
  const result = new Validator(root as Json, '2020-12', false).validate(body);
  return result.valid ? [] : result.errors.map((error) => `${where}: ${error.instanceLocation} ${error.error}`);
}
