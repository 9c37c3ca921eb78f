/**
 * What is checked of a route's JSON Schema when the route is saved, beyond its
 * shape, so that a schema that cannot work is refused once (`400
 * INVALID_VALIDATION`) instead of failing every request: a `pattern` (or a
 * `patternProperties` name) RE2 cannot run, and a `$ref` cycle that applies
 * schemas to the same value forever. References are resolved as the validator
 * resolves them (`@cfworker/json-schema`'s `dereference`: `$id`, anchors, pointers).
 *
 * @module
 */
import { dereference, ignoredKeyword, type Schema, schemaArrayKeyword, schemaMapKeyword } from '@cfworker/json-schema';
import { compilePattern } from '../pattern/schema-pattern.js';

type SchemaObject = Record<string, unknown>;

/** `#/a/b` of a schema's absolute URI (the base, made up by the resolver when there is no `$id`, left out). */
function location(node: SchemaObject): string {
  const uri = String(node.__absolute_uri__ ?? '#');
  const hash = uri.indexOf('#');
  return hash === -1 ? '#' : uri.slice(hash);
}

/** Every schema object in `schema` (itself included), the keywords walked as the resolver walks them. */
function eachSchema(schema: unknown, visit: (node: SchemaObject) => void): void {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return;
  const node = schema as SchemaObject;
  visit(node);
  for (const [key, value] of Object.entries(node)) {
    if (ignoredKeyword[key] === true || value === null || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      if (schemaArrayKeyword[key] === true) for (const item of value) eachSchema(item, visit);
    } else if (schemaMapKeyword[key] === true) {
      for (const item of Object.values(value)) eachSchema(item, visit);
    } else eachSchema(value, visit);
  }
}

/**
 * The schemas a validator applies to the same value as `node` (no property or item
 * stepped into): its `$ref` target and its in-place applicators. A cycle among these
 * recurses without end, whatever the request.
 */
function inPlace(node: SchemaObject, lookup: Record<string, unknown>): unknown[] {
  const out: unknown[] = [];
  for (const key of ['__absolute_ref__', '__absolute_recursive_ref__']) {
    const uri = node[key];
    if (typeof uri === 'string' && lookup[uri] !== undefined) out.push(lookup[uri]);
  }
  for (const key of ['not', 'if', 'then', 'else']) if (node[key] !== undefined) out.push(node[key]);
  for (const key of ['allOf', 'anyOf', 'oneOf']) {
    const list = node[key];
    if (Array.isArray(list)) out.push(...list);
  }
  for (const key of ['dependentSchemas', 'dependencies']) {
    const map = node[key];
    if (map !== null && typeof map === 'object') {
      for (const item of Object.values(map)) if (!Array.isArray(item)) out.push(item);
    }
  }
  return out.filter((item) => item !== null && typeof item === 'object' && !Array.isArray(item));
}

/** The first cycle of in-place schemas, as their locations (`#/$defs/a`, `#/$defs/b`, `#/$defs/a`). */
function inPlaceCycle(schema: SchemaObject, lookup: Record<string, unknown>): string[] | undefined {
  // Depth-first over the in-place edges, with a stack of its own (a chain of $refs may be long).
  const state = new Map<SchemaObject, 'open' | 'done'>();
  const roots: SchemaObject[] = [];
  eachSchema(schema, (node) => roots.push(node));
  for (const root of roots) {
    if (state.has(root)) continue;
    state.set(root, 'open');
    const stack = [{ node: root, next: inPlace(root, lookup), i: 0 }];
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as (typeof stack)[number];
      const child = top.next[top.i++] as SchemaObject | undefined;
      if (child === undefined) {
        state.set(top.node, 'done');
        stack.pop();
      } else if (state.get(child) === 'open') {
        const from = stack.findIndex((frame) => frame.node === child);
        return [...stack.slice(from).map((frame) => frame.node), child].map(location);
      } else if (!state.has(child)) {
        state.set(child, 'open');
        stack.push({ node: child, next: inPlace(child, lookup), i: 0 });
      }
    }
  }
  return undefined;
}

/** The first `pattern` or `patternProperties` name RE2 cannot run, and why. */
function badPattern(schema: unknown): string | undefined {
  let found: string | undefined;
  const check = (source: unknown, where: string) => {
    if (found !== undefined || typeof source !== 'string') return;
    const compiled = compilePattern(source);
    if (typeof compiled === 'string')
      found = `pattern ${JSON.stringify(source)} (${where}) cannot be used: ${compiled}`;
  };
  eachSchema(schema, (node) => {
    check(node.pattern, `${location(node)}/pattern`);
    const names = node.patternProperties;
    if (names !== null && typeof names === 'object') {
      for (const name of Object.keys(names)) check(name, `${location(node)}/patternProperties`);
    }
  });
  return found;
}

/**
 * Why a route's JSON Schema cannot be used, or `undefined`: a pattern RE2 cannot run, a
 * `$ref` cycle at one place of the value (a tree whose nodes hold nodes steps into a
 * property or item between repetitions, and is fine), or a schema the resolver refuses.
 */
export function schemaProblem(schema: unknown): string | undefined {
  if (schema === null || typeof schema !== 'object') return undefined;
  // The resolver marks the schema objects it walks (non-enumerable): it works on a copy.
  const copy = structuredClone(schema) as SchemaObject;
  let lookup: Record<string, unknown>;
  try {
    lookup = dereference(copy as Schema);
  } catch (error) {
    return (error as Error).message.split('\n')[0];
  }
  const pattern = badPattern(copy);
  if (pattern !== undefined) return pattern;
  const cycle = inPlaceCycle(copy, lookup);
  if (cycle !== undefined) {
    return `$ref cycle ${cycle.join(' → ')} applies schemas to the same value without end (a recursive schema must step into a property or item before it repeats)`;
  }
  return undefined;
}
