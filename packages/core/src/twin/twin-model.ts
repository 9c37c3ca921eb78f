/**
 * What a twin reads from an OpenAPI document: every operation, matched by its
 * path template, and the **collections** inferred from the paths and verbs — a
 * path `P` whose `P/{id}` exists is a collection: `POST P` creates, `GET P`
 * lists, `GET P/search` searches, `GET P/{id}` reads, the profile's update verb
 * (else the document's `PATCH`, `PUT` or `POST`) on `P/{id}` updates, `DELETE P/{id}` deletes. Every other operation answers
 * from the document's examples (as stripe-mock does).
 *
 * @module
 */
import { checkCollectionName } from '../collections/collection-store.js';
import { MockpointError } from '../registry/errors.js';
import { documentKey, documentUpdate } from './twin-document.js';
import { resolve, type Schema } from './twin-example.js';
import type { MatchedOperation, TwinAction, TwinOperation, TwinResource } from './twin-operation.js';
import type { TwinProfile } from './twin-profile.js';

/** A path key split at its `?`: the path template, and the query pairs it asks for (none: `undefined`). */
function keyedQuery(key: string): { template: string; query?: [string, string][] } {
  const q = key.indexOf('?');
  if (q === -1) return { template: key };
  return { template: key.slice(0, q), query: [...new URLSearchParams(key.slice(q + 1))] };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

function segmentsOf(template: string): (string | null)[] {
  return template
    .split('/')
    .slice(1)
    .map((segment) => (/^\{[^}]+\}$/.test(segment) ? null : segment));
}

function paramsOf(template: string): string[] {
  return [...template.matchAll(/\{([^}]+)\}/g)].map((found) => found[1] as string);
}

/** A collection name for a template that fits the store's rule (`/v1/customers` → `v1-customers`). */
function keyOf(template: string): string {
  const plain = template
    .replace(/\{[^}]+\}/g, '_')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  let hash = 0;
  for (const char of template) hash = (hash * 31 + (char.codePointAt(0) as number)) >>> 0;
  const key = plain.length <= 64 ? plain : `${plain.slice(0, 55)}-${hash.toString(36)}`;
  checkCollectionName(key || 'root');
  return key || 'root';
}

function objectNameOf(doc: Schema, operation: Schema | undefined): string | undefined {
  const content = ((operation?.responses as Schema | undefined)?.['200'] ?? {}) as Schema;
  const json = ((content.content as Schema | undefined)?.['application/json'] as Schema | undefined)?.schema;
  if (json === undefined) return undefined;
  let schema = resolve(doc, json);
  const list = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(list)) schema = resolve(doc, list[0]);
  const object = resolve(doc, (schema.properties as Schema | undefined)?.object);
  if (typeof object.const === 'string') return object.const;
  return Array.isArray(object.enum) ? String(object.enum[0]) : undefined;
}

/**
 * The collections of `paths`: each path with an item path `P/{id}`. Linear in the paths: the item
 * paths are indexed by their parent once (a search of every path for each path made a document
 * of 12,000 paths take 8 s).
 */
function resourcesOf(doc: Schema, paths: Record<string, Schema>, profile: TwinProfile): Map<string, TwinResource> {
  const templates = Object.keys(paths);
  // The first item path of each parent, in the document's order (what a search in that order found).
  const items = new Map<string, string>();
  for (const other of templates) {
    const slash = other.lastIndexOf('/');
    if (slash < 0 || !/^\{[^}/]+\}$/.test(other.slice(slash + 1))) continue;
    const parent = other.slice(0, slash);
    if (!items.has(parent)) items.set(parent, other);
  }
  const resources = new Map<string, TwinResource>();
  for (const template of templates) {
    // A path keyed with a query is an operation of its plain path's collection, not one of its own.
    if (template.includes('?')) continue;
    const last = template.slice(template.lastIndexOf('/') + 1);
    // A profile's alias of '' says a path is no collection (the provider's flows answer it).
    if (last === '' || last.startsWith('{') || profile.aliases[template] === '') continue;
    const item = items.get(template);
    if (item === undefined) continue;
    const idParam = item.slice(template.length + 2, -1);
    const read = (paths[item] as Schema).get as Schema | undefined;
    // A provider's profile states its keys; only a document's twin reads one from the document.
    const keyField = profile.flows === undefined ? documentKey(doc, read, idParam, last) : undefined;
    resources.set(template, {
      key: keyOf(template),
      template,
      idParam,
      prefix: profile.ids.prefixes[last] ?? '',
      objectName: objectNameOf(doc, read),
      ...(keyField === undefined ? {} : { keyField }),
    });
  }
  return resources;
}

function actionOf(
  method: string,
  template: string,
  item: Schema,
  resources: Map<string, TwinResource>,
  profile: TwinProfile,
): { action: TwinAction; resource: TwinResource | undefined } {
  const upper = method.toUpperCase();
  const alias = profile.aliases[template];
  const collection = resources.get(alias ?? template);
  if (collection !== undefined) {
    if (upper === 'POST') return { action: 'create', resource: collection };
    if (upper === 'GET') return { action: 'list', resource: collection };
  }
  const slash = template.lastIndexOf('/');
  const parent = resources.get(template.slice(0, slash));
  const tail = template.slice(slash + 1);
  if (parent !== undefined && tail === `{${parent.idParam}}`) {
    if (upper === 'GET') return { action: 'read', resource: parent };
    if (upper === 'DELETE') return { action: 'delete', resource: parent };
    if (upper === (profile.update ?? documentUpdate(item) ?? 'PATCH')) return { action: 'update', resource: parent };
    // With no verb stated, a document's `PUT` beside its `PATCH` updates too (Google's both do).
    if (profile.update === undefined && upper === 'PUT') return { action: 'update', resource: parent };
  }
  if (parent !== undefined && tail === 'search' && upper === 'GET') return { action: 'search', resource: parent };
  return { action: 'other', resource: undefined };
}

/** The operations and collections of one document under one profile. */
export class TwinModel {
  readonly operations: readonly TwinOperation[];
  readonly resources: readonly TwinResource[];
  readonly doc: Schema;

  /** `extra`: twin-only operations of the provider's flows, beside the document's. */
  constructor(doc: Schema, profile: TwinProfile, extra?: Record<string, Schema>) {
    const own = doc.paths as Record<string, Schema> | undefined;
    if (typeof own !== 'object' || own === null || Object.keys(own).length === 0) {
      throw new MockpointError('INVALID_TWIN', 'document: an OpenAPI document with at least one path');
    }
    // A twin-only method of a path the document has (an update it lacks) joins the document's.
    const paths = { ...own };
    for (const [template, item] of Object.entries(extra ?? {})) paths[template] = { ...own[template], ...item };
    this.doc = doc;
    const resources = resourcesOf(doc, paths, profile);
    this.resources = [...resources.values()];
    const operations: TwinOperation[] = [];
    for (const [key, item] of Object.entries(paths)) {
      const { template, query } = keyedQuery(key);
      for (const method of METHODS) {
        const operation = (item as Schema)[method] as Schema | undefined;
        if (operation === undefined) continue;
        const { action, resource } = actionOf(method, template, item as Schema, resources, profile);
        const segments = segmentsOf(template);
        const multi = multiSegmentOf(doc, template, segments, [item as Schema, operation]);
        const choices = pathChoicesOf(doc, [item as Schema, operation]);
        const op: TwinOperation = {
          method: method.toUpperCase(),
          template,
          segments,
          params: paramsOf(template),
          ...(multi === undefined ? {} : { multi }),
          ...(choices === undefined ? {} : { choices }),
          ...(query === undefined ? {} : { query }),
          action,
          resource,
          operation,
        };
        operations.push(op);
        const same = this.#byMethod.get(op.method);
        if (same === undefined) this.#byMethod.set(op.method, [op]);
        else same.push(op);
      }
    }
    this.operations = operations;
  }

  /** The operations of each method, in the document's order: a request looks at its method's only. */
  readonly #byMethod = new Map<string, TwinOperation[]>();

  /**
   * The operation of `method` at `path` with `query`: the one with the most fixed segments matching
   * (one whose segments match one for one before one whose `x-multi-segment` parameter takes more),
   * one whose path is keyed with a query the request holds before the same path without, then the first.
   */
  match(method: string, path: string, query = ''): MatchedOperation | undefined {
    const parts = path.split('/').slice(1);
    let best: MatchedOperation | undefined;
    let bestScore = -1;
    let asked: URLSearchParams | undefined;
    for (const op of this.#byMethod.get(method) ?? []) {
      const extra = parts.length - op.segments.length;
      if (extra < 0 || (extra > 0 && op.multi === undefined)) continue;
      if (op.query !== undefined) {
        asked ??= new URLSearchParams(query);
        const holds = asked;
        if (!op.query.every(([name, value]) => holds.getAll(name).includes(value))) continue;
      }
      const fitted = fit(op, parts, extra);
      if (fitted === undefined) continue;
      // A path keyed with the request's query before the same path without one.
      const score = fitted.fixed * 4 + (extra === 0 ? 2 : 0) + (op.query === undefined ? 0 : 1);
      if (score > bestScore) {
        best = { op, values: fitted.values };
        bestScore = score;
      }
    }
    return best;
  }

  /** Whether any operation answers at `path` with another method (405 rather than 404). */
  hasPath(path: string): boolean {
    return ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].some((method) => this.match(method, path) !== undefined);
  }
}

/**
 * The path's parameters of `op` when `parts` fit its segments (`extra` more parts than segments,
 * taken by its multi-segment parameter, each of them not empty), and how many fixed segments matched.
 */
function fit(
  op: TwinOperation,
  parts: readonly string[],
  extra: number,
): { values: Record<string, string>; fixed: number } | undefined {
  const values: Record<string, string> = {};
  let fixed = 0;
  let param = 0;
  for (let index = 0; index < op.segments.length; index++) {
    const segment = op.segments[index];
    const at = index > (op.multi ?? Number.POSITIVE_INFINITY) ? index + extra : index;
    const part = index === op.multi ? parts.slice(index, index + extra + 1) : [parts[at] as string];
    if (segment === null) {
      if (part.includes('')) return undefined;
      const name = op.params[param++] as string;
      const value = safeDecode(part.join('/'));
      // A value its parameter's `enum` does not list: no path of this operation.
      if (op.choices?.[name]?.includes(value) === false) return undefined;
      values[name] = value;
    } else if (segment === part[0]) fixed++;
    else return undefined;
  }
  return { values, fixed };
}

/**
 * The index in `segments` of the path parameter `x-multi-segment` marks, of the path item's or the
 * operation's `parameters` (`sources`); `undefined`: none, or more than one (each is one segment).
 */
function multiSegmentOf(
  doc: Schema,
  template: string,
  segments: readonly (string | null)[],
  sources: readonly Schema[],
): number | undefined {
  const names = new Set<string>();
  for (const source of sources) {
    const params = Array.isArray(source.parameters) ? source.parameters : [];
    for (const raw of params) {
      const param = resolve(doc, raw);
      if (param.in === 'path' && param['x-multi-segment'] === true) names.add(String(param.name));
    }
  }
  if (names.size !== 1) return undefined;
  const [name] = names;
  const index = template.split('/').slice(1).indexOf(`{${name}}`);
  return index === -1 || segments[index] !== null ? undefined : index;
}

/**
 * The values each path parameter of the path item's or the operation's `parameters` (`sources`)
 * is limited to by its schema's `enum` of strings (GitHub's `{security_product}`); `undefined`: none is.
 */
function pathChoicesOf(doc: Schema, sources: readonly Schema[]): Record<string, readonly string[]> | undefined {
  let choices: Record<string, readonly string[]> | undefined;
  for (const source of sources) {
    const params = Array.isArray(source.parameters) ? source.parameters : [];
    for (const raw of params) {
      const param = resolve(doc, raw);
      if (param.in !== 'path' || typeof param.name !== 'string') continue;
      const schema = resolve(doc, param.schema);
      const listed = schema.enum;
      if (!Array.isArray(listed) || !listed.every((value) => typeof value === 'string')) continue;
      choices = { ...choices, [param.name]: listed as string[] };
    }
  }
  return choices;
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
