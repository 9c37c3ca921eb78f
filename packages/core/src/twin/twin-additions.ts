/**
 * Parameters a provider takes today that its shipped OpenAPI document lacks (docs/twins.md, "API
 * versions"): Stripe's document is of 2024-04-10, while stripe-node 23 sends `billing_mode`,
 * `excluded_payment_method_types`, `promotion`, …; `packages/twins/scripts/stripe-params.mjs`
 * derives them from the SDK's types. Merged into the document when it is loaded: each added name
 * becomes a parameter of any value (a body property, or a query parameter of a `GET` / `DELETE`),
 * listed in the operation's `x-mockpoint-added` so a create or update keeps it on the object as
 * sent; a name the SDK no longer declares leaves the operation's `required`.
 *
 * @module
 */
import type { Schema } from './twin-example.js';

/** What one operation takes beyond the document: names it takes, required names it no longer needs. */
export interface TwinAddition {
  added?: readonly string[];
  optional?: readonly string[];
}

/** Additions by `METHOD /path` of the document (`POST /v1/subscriptions`). */
export type TwinAdditions = Readonly<Record<string, TwinAddition>>;

/** The operation's member naming its added parameters. */
const ADDED = 'x-mockpoint-added';

/** Most names one operation takes beyond its document. */
const MAX_ADDED = 200;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The operation's request body schema (form, JSON, or its only other: a file upload's), made when it has none. */
function bodyOf(operation: Schema): Schema {
  const body = isRecord(operation.requestBody) ? operation.requestBody : {};
  const content = isRecord(body.content) ? body.content : {};
  const media =
    content['application/x-www-form-urlencoded'] ?? content['application/json'] ?? Object.values(content)[0];
  if (isRecord(media) && isRecord(media.schema)) return media.schema;
  const schema: Schema = { type: 'object', properties: {}, additionalProperties: false };
  operation.requestBody = { ...body, content: { ...content, 'application/x-www-form-urlencoded': { schema } } };
  return schema;
}

/** Adds `names` to `operation`: body properties of a `POST`, query parameters of another method. */
function addNames(operation: Schema, method: string, names: readonly string[]): void {
  if (method === 'post') {
    const schema = bodyOf(operation);
    const properties = isRecord(schema.properties) ? schema.properties : {};
    for (const name of names) properties[name] ??= {};
    schema.properties = properties;
  } else {
    const params = Array.isArray(operation.parameters) ? operation.parameters : [];
    for (const name of names) params.push({ name, in: 'query', required: false, schema: {} });
    operation.parameters = params;
  }
  operation[ADDED] = [...names];
}

/**
 * `document` with `additions` merged into its operations, in place (a document loaded for the
 * twin alone); an addition of an operation the document lacks is left out.
 */
export function withAdditions(document: Record<string, unknown>, additions: TwinAdditions | undefined): void {
  const paths = isRecord(document.paths) ? document.paths : {};
  for (const [key, addition] of Object.entries(additions ?? {})) {
    const [method = '', path = ''] = key.split(' ', 2);
    const item = paths[path];
    const operation = isRecord(item) ? item[method.toLowerCase()] : undefined;
    if (!isRecord(operation)) continue;
    const added = (addition.added ?? []).slice(0, MAX_ADDED);
    if (added.length > 0) addNames(operation, method.toLowerCase(), added);
    const optional = new Set(addition.optional ?? []);
    if (optional.size === 0) continue;
    const schema = bodyOf(operation);
    if (Array.isArray(schema.required)) schema.required = schema.required.filter((name) => !optional.has(name));
  }
}

/** The names `operation` takes beyond its document (`x-mockpoint-added`). */
export function addedNames(operation: Schema): readonly string[] {
  const added = operation[ADDED];
  return Array.isArray(added) ? added.filter((name): name is string => typeof name === 'string') : [];
}
