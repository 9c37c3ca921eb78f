/**
 * An operation's request schemas for `verify --journal`, made with the code
 * that makes a route's `validate` on `mockpoint import --validate`
 * (openapi/openapi-request.ts) and checked by the request validator
 * (answer/routes/request-validator.ts): readOnly properties not required of a
 * request. The schemas keep their `#/components/…` references; each part's
 * schema carries the components it reaches (and those reach), rewritten for a
 * request, so the validator resolves them as a route's own schema.
 *
 * @module
 */
import { RequestValidator } from '../answer/routes/request-validator.js';
import type { JsonSchema, RouteValidation } from '../api/route-validation.js';
import { requestValidation } from '../openapi/openapi-request.js';
import { toJsonSchema } from '../openapi/openapi-schema.js';
import { followRef, isObject, type OpenApiDocument, pointer } from './openapi-document.js';

type Json = Record<string, unknown>;

/** Components one operation's schemas may reach at most (a bound on the work per operation). */
const MAX_REACHED = 5_000;

/** `#/components/…` references in `node` (not inside `enum`, `const`, `example(s)`, `default`). */
function refsIn(node: unknown, out: string[]): void {
  const stack = [node];
  while (stack.length > 0) {
    const at = stack.pop();
    if (typeof at !== 'object' || at === null) continue;
    if (!Array.isArray(at) && typeof (at as Json).$ref === 'string') {
      const ref = (at as Json).$ref as string;
      if (ref.startsWith('#/components/')) out.push(ref);
    }
    for (const [key, value] of Object.entries(at)) {
      if (['enum', 'const', 'example', 'examples', 'default'].includes(key) && !Array.isArray(at)) continue;
      if (typeof value === 'object' && value !== null) stack.push(value);
    }
  }
}

/** Sets `value` at the `#/components/…` pointer `ref` in `root` (made of fresh objects). */
function place(root: Json, ref: string, value: unknown): void {
  const keys = ref
    .slice(2)
    .split('/')
    .map((raw) => decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~'));
  let node = root;
  for (const key of keys.slice(0, -1)) {
    const next = Object.hasOwn(node, key) ? node[key] : undefined;
    if (!isObject(next)) node[key] = {};
    node = node[key] as Json;
  }
  node[keys.at(-1) as string] = value;
}

/** The request-rewritten components reached from `schemas`, as a `{ components }` tree. */
function reachedComponents(doc: OpenApiDocument, schemas: readonly unknown[]): Json | undefined {
  const pending: string[] = [];
  for (const schema of schemas) refsIn(schema, pending);
  if (pending.length === 0) return undefined;
  const seen = new Set<string>();
  const root: Json = {};
  while (pending.length > 0 && seen.size < MAX_REACHED) {
    const ref = pending.pop() as string;
    if (seen.has(ref)) continue;
    seen.add(ref);
    const raw = pointer(doc.source, ref);
    if (raw === undefined) continue;
    const converted = toJsonSchema(raw, doc.draft4);
    place(root, ref, converted);
    refsIn(converted, pending);
  }
  return root.components as Json | undefined;
}

/** A parameter list with each `$ref` followed. */
function parameters(doc: OpenApiDocument, list: unknown): unknown {
  if (!Array.isArray(list)) return list;
  return list.map((parameter) => followRef(doc.source, parameter) ?? parameter);
}

/** The validator of `method` of the path item `raw` (as written), or `undefined` when it describes nothing to check. */
export function requestValidatorOf(doc: OpenApiDocument, raw: unknown, method: string): RequestValidator | undefined {
  const item = followRef(doc.source, raw);
  const operation = item === undefined ? undefined : item[method.toLowerCase()];
  if (item === undefined || !isObject(operation)) return undefined;
  const body = followRef(doc.source, operation.requestBody);
  const validation = requestValidation(
    { ...item, parameters: parameters(doc, item.parameters) },
    {
      ...operation,
      parameters: parameters(doc, operation.parameters),
      ...(body === undefined ? {} : { requestBody: body }),
    },
    { mode: 'report', swagger2: false, draft4: doc.draft4 },
  );
  if (validation === undefined) return undefined;
  const parts = ['body', 'query', 'params', 'headers'] as const;
  const components = reachedComponents(
    doc,
    parts.map((part) => validation[part]),
  );
  if (components !== undefined) {
    const withComponents: RouteValidation = { ...validation };
    for (const part of parts) {
      const schema = validation[part];
      if (isObject(schema)) withComponents[part] = { ...schema, components } as JsonSchema;
    }
    return new RequestValidator(withComponents);
  }
  return new RequestValidator(validation);
}
