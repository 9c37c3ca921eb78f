/**
 * References (twin-engine.ts): the objects a request refers to, and the provider's 404 of one the
 * twin does not hold. The object a path is below (`/v1/payment_intents/{intent}/confirm`), an item
 * of a collection `within` another (a pull request as an issue), an object a `GET` outside the
 * collections names, and an object a create's or update's body names by id (`customer=cus_x`, Stripe's
 * `400`; which parameters name which collections read from the document's expandable fields and the
 * profile's `references`); with `unseen: "examples"` nothing is refused and the document's example
 * answers. The values a twin refuses are twin-constraints.ts's.
 *
 * @module
 */

import type { Collections } from '../collections/collection-store.js';
import { jsonAnswer, Refusal, type TwinAnswer } from './twin-answer.js';
import type { Twin } from './twin-context.js';
import { exampleContext, exampleOfOperation } from './twin-documented.js';
import { resolve, type Schema } from './twin-example.js';
import { missing } from './twin-missing.js';
import type { MatchedOperation, TwinOperation, TwinResource } from './twin-operation.js';
import { emptyList, namingParams, responseSchema } from './twin-outside.js';
import { ownHolds } from './twin-own-probe.js';
import { pathIndex } from './twin-path-index.js';
import { hasMembers, memberHolding, memberPicked } from './twin-related.js';
import { type Stored, scopeOf, storedOf, whichOf } from './twin-stored.js';

/** The collection whose item an action's path is below (`/v1/payment_intents/{intent}/confirm`). */
export function ownerOf(twin: Twin, matched: MatchedOperation): TwinResource | undefined {
  const resources = twin.parts.model.resources;
  const named = matched.op.operation['x-mockpoint-owner'];
  if (typeof named === 'string') {
    const found = resources.find((resource) => resource.template === named);
    if (found !== undefined && matched.values[found.idParam] !== undefined) return found;
  }
  const owner = resources.find(
    (resource) =>
      matched.op.template.startsWith(`${resource.template}/{${resource.idParam}}/`) &&
      matched.values[resource.idParam] !== undefined,
  );
  if (owner !== undefined) return owner;
  // The document may name the id otherwise below the object than at it (Stripe's
  // `/v1/subscriptions/{subscription_exposed_id}` and `/v1/subscriptions/{subscription}/resume`):
  // the same object, its id taken under the name the collections keep it by.
  for (const resource of resources) {
    const head = `${resource.template}/{`;
    if (!matched.op.template.startsWith(head)) continue;
    const param = matched.op.template.slice(head.length, matched.op.template.indexOf('}', head.length));
    const id = matched.values[param];
    if (id === undefined || matched.op.template.charAt(head.length + param.length + 1) !== '/') continue;
    matched.values[resource.idParam] ??= id;
    return resource;
  }
  return undefined;
}

/**
 * Refuses with the provider's 404 an operation on or below an object of `owner` the twin does
 * not hold (`POST /v1/payment_intents/pi_x/confirm`, a GitHub issue's lock or comment), as the
 * provider does, where no flow answered it (a test payment method's attach); with `unseen:
 * "examples"` nothing is refused and the document's example answers.
 */
export async function heldOrMissing(
  twin: Twin,
  matched: MatchedOperation,
  owner: TwinResource,
  members = true,
): Promise<void> {
  if (twin.examples || uncreatable(twin, owner)) return;
  const which = whichOf(twin, matched, owner, scopeOf(owner, matched.values));
  // The collections read once for the object and, where it may be one, its member.
  const read = await twin.parts.collections.get(twin.parts.name);
  const held = (await storedOf(twin, owner, read))?.some((item) => which(item) && !item.deleted) === true;
  if (held || (members && memberOf(twin, owner, which, read) !== undefined)) return;
  // One the provider's own flows keep, not the collections (GitHub's branch): held where they answer its read.
  const get = pathIndex(twin.parts.model).reads.get(`${owner.template}/{${owner.idParam}}`);
  if (get !== undefined && (await ownHolds(twin, { op: get, values: matched.values }))) return;
  throw new Refusal(missing(twin, owner, String(matched.values[owner.idParam])));
}

/**
 * Whether a document twin's collection is one its document gives no create (OpenAI's
 * `/organization/users`, made by invites elsewhere): it never holds an item, so what is below one
 * of its ids is answered, not refused as below a missing object. A provider's flows keep theirs.
 */
function uncreatable(twin: Twin, owner: TwinResource): boolean {
  if (twin.parts.flows !== undefined) return false;
  return !twin.parts.model.operations.some((op) => op.resource === owner && op.action === 'create');
}

/**
 * Where a change of an item of `resource` the twin does not hold goes when a collection `within`
 * it holds one of that number (GitHub: a pull request's title, labels or lock changed through
 * `…/issues/{issue_number}`): that collection, the path's values naming its item too, so the
 * change is kept on the pull request and its events are the pull request's.
 */
export async function memberTarget(
  twin: Twin,
  matched: MatchedOperation,
  resource: TwinResource,
): Promise<{ matched: MatchedOperation; resource: TwinResource } | undefined> {
  if (!hasMembers(twin.related, resource)) return undefined;
  const which = whichOf(twin, matched, resource, scopeOf(resource, matched.values));
  const read = await twin.parts.collections.get(twin.parts.name);
  const held = memberHolding(twin.related, resource, which, read);
  if (held === undefined) return undefined;
  const { member } = held;
  const id = matched.values[resource.idParam] as string;
  // The member's own path parameters, so its scope is read as its own (`owner/repo`).
  const params = [...member.template.matchAll(/\{([^}]+)\}/g)].map((found) => found[1] as string);
  const op = { ...matched.op, params: [...params, member.idParam] };
  return { matched: { ...matched, op, values: { ...matched.values, [member.idParam]: id } }, resource: member };
}

/** The item of a collection `within` `resource` that `which` picks (a pull request as an issue), shown as one of it. */
export function memberOf(
  twin: Twin,
  resource: TwinResource,
  which: (stored: Stored) => boolean,
  read: Collections,
): Record<string, unknown> | undefined {
  return hasMembers(twin.related, resource) ? memberPicked(twin.related, resource, which, read) : undefined;
}

/**
 * A `GET` outside the collections of what the twin never made, with the profile's `implied`
 * and `unseen: "missing"` (twin-outside.ts): below an object the twin does not hold, its 404; a
 * list empty; an object its path names by a parameter not implied the provider's 404 — unless
 * the twin holds the item it is below and no other parameter names it (a hook's `config`);
 * `undefined`: answered from the document.
 */
export async function unseenOutside(
  twin: Twin,
  matched: MatchedOperation,
  owner: TwinResource | undefined,
): Promise<TwinAnswer | undefined> {
  const implied = twin.parts.profile.implied;
  if (implied === undefined || twin.examples || matched.op.method !== 'GET') return undefined;
  // Below an object the twin does not hold, a list too (a runner group's runners): its 404.
  if (owner !== undefined) await heldOrMissing(twin, matched, owner);
  const { status, schema } = responseSchema(twin.parts.model.doc, matched.op.operation);
  const example = () => exampleOfOperation(twin, matched).value;
  const empty = schema === undefined ? undefined : emptyList(exampleContext(twin), schema, example);
  if (empty !== undefined) return jsonAnswer(status, empty);
  const naming = namingParams(matched.op.params, implied);
  if (naming.length === 0) return undefined;
  if (owner !== undefined) {
    const above = [...owner.template.matchAll(/\{([^}]+)\}/g)].map((found) => found[1]);
    const which = whichOf(twin, matched, owner, scopeOf(owner, matched.values));
    const held = (await storedOf(twin, owner))?.some((item) => which(item) && !item.deleted) === true;
    if (held && naming.every((param) => param === owner.idParam || above.includes(param))) return undefined;
  }
  const named = matched.values[naming.at(-1) as string] ?? '';
  throw new Refusal(missing(twin, owner ?? { template: matched.op.template, objectName: undefined }, named));
}

/** The collections each body parameter of an operation names an item of, read once an operation. */
const REFERENCES = new WeakMap<object, ReadonlyMap<string, readonly TwinResource[]>>();

/**
 * The body parameters of `op` that name an object of another collection, by the document: a
 * request property whose namesake in the answer's object may be expanded (Stripe's `anyOf` of an
 * id and the object, with `x-expansionResources`), to the collections of those objects.
 */
export function referencesOf(twin: Twin, op: TwinOperation): ReadonlyMap<string, readonly TwinResource[]> {
  const known = REFERENCES.get(op.operation);
  if (known !== undefined) return known;
  const found = new Map<string, readonly TwinResource[]>();
  const doc = twin.parts.model.doc;
  const sent = (resolve(doc, requestSchema(twin, op)).properties ?? {}) as Record<string, unknown>;
  const answer = resolve(doc, responseSchema(doc, op.operation).schema);
  const shown = (answer.properties ?? {}) as Record<string, unknown>;
  for (const [name, schema] of Object.entries(sent)) {
    // An id is text: a parameter of another type under the name (a charge's old integer `application_fee`) names none.
    if (!admitsText(resolve(doc, schema), doc)) continue;
    const expandable = (shown[name] as Schema | undefined)?.['x-expansionResources'] as Schema | undefined;
    const refs = (expandable?.oneOf ?? []) as Schema[];
    const resources = refs.flatMap((ref) => collectionsOf(twin, resolve(doc, ref)));
    if (resources.length > 0) found.set(name, [...new Set(resources)]);
  }
  REFERENCES.set(op.operation, found);
  return found;
}

/** Whether a parameter's schema takes text (`type: string`, or one of its `anyOf` does). */
function admitsText(schema: Schema, doc: Schema): boolean {
  if (schema.type === 'string') return true;
  const options = (schema.anyOf ?? schema.oneOf ?? []) as unknown[];
  return options.some((option) => resolve(doc, option).type === 'string');
}

/** The schema of an operation's request body (its first media type's). */
function requestSchema(twin: Twin, op: TwinOperation): unknown {
  const content = (resolve(twin.parts.model.doc, op.operation.requestBody).content ?? {}) as Record<string, Schema>;
  return Object.values(content)[0]?.schema;
}

/** The collections at the top of the paths whose items are objects of `schema` (`customer`). */
function collectionsOf(twin: Twin, schema: Schema): TwinResource[] {
  const named = ((schema.properties as Record<string, Schema> | undefined)?.object?.enum ?? []) as unknown[];
  return twin.parts.model.resources.filter(
    (resource) =>
      resource.objectName !== undefined && named.includes(resource.objectName) && !resource.template.includes('{'),
  );
}

/**
 * Refuses, as the provider does, a body naming an object the twin does not hold (`customer=cus_x`:
 * Stripe's `400` `resource_missing`, `No such customer: 'cus_x'`, its `param` the field), before
 * anything is kept; only the parameters the request sent are read. With `unseen: "examples"`, or
 * an id the provider knows without the twin holding it (the flows' `known`), nothing is refused.
 */
export async function checkReferences(
  twin: Twin,
  matched: MatchedOperation,
  body: Record<string, unknown>,
): Promise<void> {
  if (twin.examples) return;
  const named: [string, string, readonly TwinResource[]][] = [];
  for (const [param, resources] of referencesOf(twin, matched.op)) {
    const id = body[param];
    if (typeof id === 'string') named.push([param, id, resources]);
  }
  const profiled = twin.parts.profile.references;
  if (profiled !== undefined) nested(twin, profiled, body, requestSchema(twin, matched.op), '', 0, named);
  let read: Collections | undefined;
  // Each collection named is read once into the ids it holds: an id sent is then one lookup, however many are sent.
  const held = new Map<TwinResource, ReadonlySet<string>>();
  for (const [param, id, resources] of named) {
    if (id === '' || twin.parts.flows?.known?.(id) === true) continue;
    read ??= await twin.parts.collections.get(twin.parts.name);
    let found = false;
    for (const resource of resources) {
      let ids = held.get(resource);
      if (ids === undefined) {
        const stored = (await storedOf(twin, resource, read)) ?? [];
        ids = new Set(stored.filter((item) => !item.deleted).map((item) => item.id));
        held.set(resource, ids);
      }
      if (ids.has(id)) found = true;
    }
    if (found) continue;
    const refusal = missing(twin, resources[0] as TwinResource, id);
    throw new Refusal({ ...refusal, status: 400, param });
  }
}

/** The options a schema may be (its `anyOf` or `oneOf`, else itself), resolved. */
function optionsOf(doc: Schema, schema: unknown): Schema[] {
  const resolved = resolve(doc, schema);
  const options = (resolved.anyOf ?? resolved.oneOf) as unknown[] | undefined;
  return options === undefined ? [resolved] : options.map((option) => resolve(doc, option));
}

/**
 * The ids in `value` (`items[0][price]`) under a name the profile's `references` gives a
 * collection, with their parameter's path: the body sent, walked once, only where the request's
 * schema declares a property (a free-form map, `metadata[price]`, names nothing).
 */
function nested(
  twin: Twin,
  profiled: Readonly<Record<string, string>>,
  value: unknown,
  schema: unknown,
  path: string,
  depth: number,
  into: [string, string, readonly TwinResource[]][],
): void {
  if (value === null || typeof value !== 'object' || depth > 16) return;
  const doc = twin.parts.model.doc;
  const options = optionsOf(doc, schema);
  for (const [key, inner] of Object.entries(value)) {
    const at = path === '' ? key : `${path}[${key}]`;
    if (Array.isArray(value) || /^\d+$/.test(key)) {
      const items = options.find((option) => option.items !== undefined)?.items;
      if (items !== undefined) nested(twin, profiled, inner, items, at, depth + 1, into);
      continue;
    }
    const declared = options.find((option) => isRecordSchema(option.properties) && key in option.properties);
    if (declared === undefined) continue;
    const property = (declared.properties as Record<string, unknown>)[key];
    const template = Object.hasOwn(profiled, key) ? profiled[key] : undefined;
    if (typeof inner === 'string' && template !== undefined) {
      const resource = twin.parts.model.resources.find((one) => one.template === template);
      if (resource !== undefined) into.push([at, inner, [resource]]);
    } else nested(twin, profiled, inner, property, at, depth + 1, into);
  }
}

function isRecordSchema(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object';
}
