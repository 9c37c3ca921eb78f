/**
 * Two JSON values compared by shape, not value (`verify --upstream`): which
 * fields one has and the other lacks, and which changed their JSON type
 * (string, number, boolean, object, array; `null` fits any, for a field may be
 * null in one answer and set in the next). An array's items are compared as
 * one shape: every item's fields merged (up to {@link MAX_ITEMS} items), so a
 * path names them with `*`: `body.items.*.id`. A path listed in `ignore` (or
 * below one) is left out. Bounded: at most {@link MAX_NODES} values read per
 * side and {@link MAX_DEPTH} levels.
 *
 * @module
 */

/** Items of an array read for its shape. */
export const MAX_ITEMS = 100;
/** Values read per side at most; past it, deeper values are not compared. */
export const MAX_NODES = 50_000;
/** Levels compared at most. */
export const MAX_DEPTH = 64;

/** A value's shape: the JSON types seen, and the fields' and items' shapes. */
interface Shape {
  types: Set<string>;
  fields?: Map<string, Shape>;
  items?: Shape;
}

/** One difference: a code, a path, and each side's type (or `absent`). */
export interface ShapeDifference {
  code: 'SHAPE_MISSING_FIELD' | 'SHAPE_EXTRA_FIELD' | 'SHAPE_TYPE_CHANGED';
  path: string;
  mock: string;
  real: string;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' ? 'object' : typeof value;
}

/** Builds (or merges into `into`) the shape of `value`. */
function shapeOf(value: unknown, budget: { nodes: number }, depth = 0, into?: Shape): Shape {
  const shape: Shape = into ?? { types: new Set() };
  if (--budget.nodes < 0) return shape;
  const type = typeOf(value);
  shape.types.add(type);
  if (depth >= MAX_DEPTH) return shape;
  if (type === 'object') {
    shape.fields ??= new Map();
    for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
      shape.fields.set(key, shapeOf(field, budget, depth + 1, shape.fields.get(key)));
    }
  } else if (type === 'array') {
    for (const item of (value as unknown[]).slice(0, MAX_ITEMS)) {
      shape.items = shapeOf(item, budget, depth + 1, shape.items);
    }
  }
  return shape;
}

function named(shape: Shape): string {
  return [...shape.types].sort().join(' or ');
}

/** Whether `path` is one of `ignore` or below one. */
function ignored(path: string, ignore: ReadonlySet<string>): boolean {
  if (ignore.has(path)) return true;
  for (let dot = path.lastIndexOf('.'); dot > 0; dot = path.lastIndexOf('.', dot - 1)) {
    if (ignore.has(path.slice(0, dot))) return true;
  }
  return false;
}

function compare(
  mock: Shape,
  real: Shape,
  path: string,
  ignore: ReadonlySet<string>,
  out: ShapeDifference[],
  depth: number,
): void {
  if (ignored(path, ignore) || depth > MAX_DEPTH) return;
  const mockTypes = [...mock.types].filter((type) => type !== 'null');
  const realTypes = [...real.types].filter((type) => type !== 'null');
  if (mockTypes.length > 0 && realTypes.length > 0 && !mockTypes.some((type) => realTypes.includes(type))) {
    out.push({ code: 'SHAPE_TYPE_CHANGED', path, mock: named(mock), real: named(real) });
    return;
  }
  if (mock.fields !== undefined && real.fields !== undefined) {
    for (const [key, field] of real.fields) {
      const at = `${path}.${key}`;
      const own = mock.fields.get(key);
      if (own === undefined) {
        if (!ignored(at, ignore))
          out.push({ code: 'SHAPE_MISSING_FIELD', path: at, mock: 'absent', real: named(field) });
      } else compare(own, field, at, ignore, out, depth + 1);
    }
    for (const [key, field] of mock.fields) {
      const at = `${path}.${key}`;
      if (!real.fields.has(key) && !ignored(at, ignore)) {
        out.push({ code: 'SHAPE_EXTRA_FIELD', path: at, mock: named(field), real: 'absent' });
      }
    }
  }
  if (mock.items !== undefined && real.items !== undefined)
    compare(mock.items, real.items, `${path}.*`, ignore, out, depth + 1);
}

/** The differences of shape between the mock's value and the real one, under `path` (`body`). */
export function shapeDifferences(
  mock: unknown,
  real: unknown,
  path: string,
  ignore: ReadonlySet<string> = new Set(),
): ShapeDifference[] {
  const out: ShapeDifference[] = [];
  compare(shapeOf(mock, { nodes: MAX_NODES }), shapeOf(real, { nodes: MAX_NODES }), path, ignore, out, 0);
  return out;
}
