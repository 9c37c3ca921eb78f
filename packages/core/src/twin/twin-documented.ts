/**
 * What the document says a twin's answers are (twin-engine.ts): an operation's example, its id the
 * path's (as stripe-mock reflects it); the fields its object has; the envelope a document twin's
 * answer puts its item in; a new object as a create with nothing sent fills it.
 *
 * @module
 */
import { addedNames } from './twin-additions.js';
import { isRecord } from './twin-answer.js';
import { stamp, type Twin } from './twin-context.js';
import { type DocumentItem, documentItem, membersOf } from './twin-document.js';
import { type ExampleContext, exampleOf, liveOption, type Schema } from './twin-example.js';
import { fitted } from './twin-fit.js';
import type { MatchedOperation } from './twin-operation.js';
import { documentedJson, responseSchema } from './twin-outside.js';
import { keyField } from './twin-stored.js';

/** What an example is made with: the document, the time, the profile's timestamps. */
export function exampleContext(twin: Twin): ExampleContext {
  return { doc: twin.parts.model.doc, now: twin.parts.now(), timestamps: twin.parts.profile.timestamps.format };
}

/**
 * The example object of an operation's answer, its id the path's (as
 * stripe-mock reflects it). A write whose answer the document does not
 * describe (Petstore's `POST /pet`) answers its collection's item.
 */
export function exampleOfOperation(twin: Twin, matched: MatchedOperation): { status: number; value: unknown } {
  const { model } = twin.parts;
  const { status, schema: own } = responseSchema(model.doc, matched.op.operation);
  const resource = matched.op.resource;
  // An answer around the item (`{ status, result }`): the item made from its own schema, wrapped by wrapped().
  const item = itemOf(twin, matched);
  let schema = item === undefined ? own : item.schema;
  if (schema === undefined && resource !== undefined && matched.op.action !== 'delete') {
    const read = model.operations.find((op) => op.action === 'read' && op.resource === resource);
    if (read !== undefined) schema = responseSchema(model.doc, read.operation).schema;
  }
  const ctx = exampleContext(twin);
  // Outside the collections, the document's own example where it gives one (GitHub's `GET /`).
  const documented = resource === undefined ? documentedJson(ctx.doc, matched.op.operation) : undefined;
  const value = documented?.value ?? (schema === undefined ? {} : exampleOf(ctx, liveOption(ctx, schema)));
  const last = matched.op.params.at(-1);
  // The field the path's id names: `id`, or the profile's key of the collection (a label's `name`).
  const field = resource !== undefined && last === resource.idParam ? keyField(twin, resource) : 'id';
  // In a collection, only the item's own path id is written (a create below `/pets/{petName}` names the pet, not the photo).
  const itsOwn = resource === undefined || last === resource.idParam;
  if (last !== undefined && itsOwn && typeof value === 'object' && value !== null && field in value) {
    // The path's id, as the example's type: a number where the document's ids are numbers.
    const record = value as Record<string, unknown>;
    const given = matched.values[last] as string;
    const numeric = typeof record[field] === 'number' && /^-?\d{1,15}$/.test(given);
    // A documented example's id is replaced only by one of its type (an org's number, not its login).
    if (numeric || documented === undefined || typeof record[field] === 'string') {
      record[field] = numeric ? Number(given) : given;
    }
  }
  return { status, value };
}

/**
 * The document's example of an object of the collection at `template`, as its read answers it,
 * under the id `id`.
 */
export function exampleObject(twin: Twin, template: string, id: string): Record<string, unknown> {
  const read = twin.parts.model.operations.find((op) => op.action === 'read' && op.resource?.template === template);
  if (read === undefined) return {};
  const last = read.params.at(-1);
  const { value } = exampleOfOperation(twin, { op: read, values: last === undefined ? {} : { [last]: id } });
  return isRecord(value) ? value : {};
}

/** The example of the operation `method` `template` answers, as the provider's own flows take it (`{}`: none). */
export function operationExample(twin: Twin, method: string, template: string): Record<string, unknown> {
  const op = twin.parts.model.operations.find((one) => one.method === method && one.template === template);
  const value = op === undefined ? undefined : exampleOfOperation(twin, { op, values: {} }).value;
  return isRecord(value) ? value : {};
}

/**
 * The fields the object an operation answers has (`undefined`: its schema does not say), and the
 * parameters the provider takes today beyond its document (twin-additions.ts), kept as sent.
 */
export function fieldsOf(twin: Twin, matched: MatchedOperation): Map<string, Schema> | undefined {
  const item = itemOf(twin, matched);
  const schema = item === undefined ? responseSchema(twin.parts.model.doc, matched.op.operation).schema : item.schema;
  if (schema === undefined) return undefined;
  const ctx = exampleContext(twin);
  const live = liveOption(ctx, schema);
  const properties = live.properties;
  if ((typeof properties !== 'object' || properties === null) && !Array.isArray(live.allOf)) return undefined;
  // Its `allOf` parts' members too (Revert's items: `allOf` of their shared and own fields).
  const fields = new Map<string, Schema>(addedNames(matched.op.operation).map((name) => [name, {}]));
  for (const [name, member] of Object.entries(membersOf(ctx.doc, live))) fields.set(name, member);
  return fields;
}

/**
 * Where a document twin's create, read or update answer holds the item when it is an envelope
 * around it (twin-document.ts), read once an operation; an open member (`result: {}`) holds
 * what the collection's read answers there. `undefined`: the answer is the item.
 */
function itemOf(twin: Twin, matched: MatchedOperation): DocumentItem | undefined {
  const { op } = matched;
  if (twin.parts.flows !== undefined || op.resource === undefined) return undefined;
  if (op.action !== 'create' && op.action !== 'read' && op.action !== 'update') return undefined;
  let found = twin.items.get(op.operation);
  if (found === undefined) {
    const doc = twin.parts.model.doc;
    const own = documentItem(doc, op.operation) ?? null;
    const read = twin.parts.model.operations.find((one) => one.action === 'read' && one.resource === op.resource);
    if (own !== null && own.schema === undefined && read !== undefined && read.operation !== op.operation) {
      const schema = documentItem(doc, read.operation)?.schema ?? responseSchema(doc, read.operation).schema;
      if (schema !== undefined) own.schema = schema;
    }
    found = own;
    twin.items.set(op.operation, found);
  }
  return found ?? undefined;
}

/** `value`, an item, in the envelope the operation's answer puts it in (`{ status: "ok", result }`), else bare. */
export function wrapped(twin: Twin, matched: MatchedOperation, value: unknown): unknown {
  const item = itemOf(twin, matched);
  const { schema } = responseSchema(twin.parts.model.doc, matched.op.operation);
  const ctx = exampleContext(twin);
  // A document twin's item as this operation's schema has it (twin-fit.ts): its create and read may differ.
  const own = twin.parts.flows === undefined ? fitted(ctx, value, item === undefined ? schema : item.schema) : value;
  if (item === undefined) return own;
  const example = schema === undefined ? {} : exampleOf(ctx, liveOption(ctx, schema));
  const envelope: Record<string, unknown> = isRecord(example) ? example : {};
  if (item.list === undefined) {
    envelope[item.member] = own;
    return envelope;
  }
  // A create answering a page of what it made (OpenAI's conversation items): the page of that one item.
  envelope[item.member] = [own];
  const id = isRecord(own) && (typeof own.id === 'string' || typeof own.id === 'number') ? String(own.id) : undefined;
  for (const member of [item.list.firstId, item.list.lastId]) {
    if (member !== undefined && id !== undefined) envelope[member] = id;
  }
  if (item.list.hasMore !== undefined) envelope[item.list.hasMore] = false;
  if (item.list.cursor !== undefined && item.list.cursor in envelope) envelope[item.list.cursor] = null;
  return envelope;
}

/** Each of the profile's `emptyObjects` the object's schema has, `{}` where nothing was sent (Stripe's `metadata`). */
export function filled(twin: Twin, object: Record<string, unknown>, fields: Map<string, Schema> | undefined): void {
  for (const field of twin.parts.profile.emptyObjects) {
    if (fields?.has(field) === true && (object[field] === undefined || object[field] === null)) object[field] = {};
  }
}

/** A new object of the collection at `template`, as a create with nothing sent fills it (no id). */
export function freshObject(twin: Twin, template: string): Record<string, unknown> {
  const create = twin.parts.model.operations.find((op) => op.action === 'create' && op.resource?.template === template);
  if (create === undefined) return {};
  const { value } = exampleOfOperation(twin, { op: create, values: {} });
  const object = isRecord(value) ? value : {};
  filled(twin, object, fieldsOf(twin, { op: create, values: {} }));
  for (const field of twin.parts.profile.timestamps.created)
    if (field in object) object[field] = stamp(twin, object[field]);
  return object;
}
