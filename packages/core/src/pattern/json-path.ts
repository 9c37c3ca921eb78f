/**
 * A bounded JSONPath subset for the request filter's `bodyJsonPaths`: whether
 * an expression selects something in a request's JSON body, as WireMock's
 * `matchesJsonPath` (Jayway JsonPath) decides it.
 *
 * The subset: `$`, then steps `.name`, `['name']`, `[2]` (`[-1]` the last),
 * `.*` / `[*]`, and one filter form `[?(@.a.b)]` (the member is present) or
 * `[?(@.a.b OP literal)]` with `==` (a string, number, `true`, `false` or
 * `null`) or `<`, `<=`, `>`, `>=` (a number). A filter over an array keeps
 * the elements that hold; over an object, the object itself when it holds.
 * A path of names and indexes only selects when it leads to a value that is
 * not `null`, nor an empty object or array; any other path when it selects
 * at least one value. At most {@link MAX_JSON_PATH_LENGTH} characters and
 * {@link MAX_JSON_PATH_STEPS} steps: each step visits each node of the body at
 * most once, so an evaluation is linear in the body.
 *
 * @module
 */

/** The longest expression saved. */
export const MAX_JSON_PATH_LENGTH = 256;
/** The most steps (and names inside a filter) an expression has. */
export const MAX_JSON_PATH_STEPS = 16;

type Literal = string | number | boolean | null;
type Operator = '==' | '<' | '<=' | '>' | '>=';

type Step =
  | { readonly key: string }
  | { readonly index: number }
  | { readonly all: true }
  | { readonly filter: readonly string[]; readonly op?: Operator; readonly value?: Literal };

/** A parsed expression. */
export interface JsonPath {
  readonly steps: readonly Step[];
  /** Names and indexes only: one value or none. */
  readonly definite: boolean;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_-]*/;
const FILTER =
  /^\[\?\(@((?:\.[A-Za-z_][A-Za-z0-9_-]*)+)(?:\s*(==|<=|>=|<|>)\s*('[^'\\]*'|"[^"\\]*"|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null))?\)\]/;

/** One literal of a filter as its value. */
function literalOf(text: string): Literal {
  if (text.startsWith("'") || text.startsWith('"')) return text.slice(1, -1);
  return JSON.parse(text) as Literal;
}

/** The next step of `rest` and its length, or why there is none. */
function nextStep(rest: string): [Step, number] | string {
  if (rest.startsWith('..')) return 'a deep scan (..) is not in the subset';
  if (rest.startsWith('.*') || rest.startsWith('[*]')) return [{ all: true }, rest.startsWith('.*') ? 2 : 3];
  if (rest.startsWith('.')) {
    const name = NAME.exec(rest.slice(1));
    if (name === null) return 'a name after "." is a letter or _, then letters, digits, _ or -';
    return [{ key: name[0] }, name[0].length + 1];
  }
  const quoted = /^\[(?:'([^'\\]*)'|"([^"\\]*)")\]/.exec(rest);
  if (quoted !== null) return [{ key: quoted[1] ?? (quoted[2] as string) }, quoted[0].length];
  const index = /^\[(-?\d{1,9})\]/.exec(rest);
  if (index !== null) return [{ index: Number(index[1]) }, index[0].length];
  const filter = FILTER.exec(rest);
  if (filter !== null) {
    const names = (filter[1] as string).slice(1).split('.');
    const op = filter[2] as Operator | undefined;
    if (op === undefined) return [{ filter: names }, filter[0].length];
    const value = literalOf(filter[3] as string);
    if (op !== '==' && typeof value !== 'number') return `${op} compares numbers: ${filter[3]} is not one`;
    return [{ filter: names, op, value }, filter[0].length];
  }
  if (rest.startsWith('[?')) {
    return 'a filter is [?(@.a.b)] or [?(@.a.b OP literal)], OP one of == < <= > >= (no &&, ||, functions or !=)';
  }
  return "a step is .name, ['name'], [2], [*] or a filter [?(@.a OP literal)]";
}

/** `expression` parsed, or why it is not in the subset (the message names the place). */
export function parseJsonPath(expression: string): JsonPath | string {
  if (expression.length > MAX_JSON_PATH_LENGTH) {
    return `a JSONPath is at most ${MAX_JSON_PATH_LENGTH} characters (this one has ${expression.length})`;
  }
  if (!expression.startsWith('$')) return 'a JSONPath starts with $';
  const steps: Step[] = [];
  let names = 0;
  for (let at = 1; at < expression.length; ) {
    const next = nextStep(expression.slice(at));
    if (typeof next === 'string') return `at character ${at + 1} of ${JSON.stringify(expression)}: ${next}`;
    steps.push(next[0]);
    names += 'filter' in next[0] ? next[0].filter.length : 1;
    if (names > MAX_JSON_PATH_STEPS) return `a JSONPath has at most ${MAX_JSON_PATH_STEPS} steps and names`;
    at += next[1];
  }
  return { steps, definite: steps.every((step) => 'key' in step || 'index' in step) };
}

/** Why `expression` cannot be saved, or `undefined`. */
export function jsonPathProblem(expression: string): string | undefined {
  const parsed = parseJsonPath(expression);
  return typeof parsed === 'string' ? parsed : undefined;
}

/** Parsed expressions by source, shared by every filter (a bounded memo). */
const parsedPaths = new Map<string, JsonPath | null>();
const MAX_PARSED = 1000;

function compiled(expression: string): JsonPath | null {
  let path = parsedPaths.get(expression);
  if (path === undefined) {
    const parsed = parseJsonPath(expression);
    path = typeof parsed === 'string' ? null : parsed;
    if (parsedPaths.size >= MAX_PARSED) parsedPaths.clear();
    parsedPaths.set(expression, path);
  }
  return path;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether `node` holds a filter's condition. */
function holds(node: unknown, step: Extract<Step, { filter: readonly string[] }>): boolean {
  let value: unknown = node;
  for (const name of step.filter) {
    if (!isObject(value) || !Object.hasOwn(value, name)) return false;
    value = value[name];
  }
  const { op, value: wanted } = step;
  if (op === undefined) return true;
  if (op === '==') return value === wanted;
  if (typeof value !== 'number' || typeof wanted !== 'number') return false;
  if (op === '<') return value < wanted;
  if (op === '<=') return value <= wanted;
  if (op === '>') return value > wanted;
  return value >= wanted;
}

/** The nodes one step selects from `nodes` (each a child of one of them, or one of them). */
function apply(nodes: readonly unknown[], step: Step): unknown[] {
  const out: unknown[] = [];
  for (const node of nodes) {
    if ('key' in step) {
      if (isObject(node) && Object.hasOwn(node, step.key)) out.push(node[step.key]);
    } else if ('index' in step) {
      if (!Array.isArray(node)) continue;
      const at = step.index < 0 ? node.length + step.index : step.index;
      if (at >= 0 && at < node.length) out.push(node[at]);
    } else if ('all' in step) {
      // One push per value: a spread of a long array would pass the engine's argument limit.
      if (Array.isArray(node)) for (const item of node) out.push(item);
      else if (isObject(node)) for (const key of Object.keys(node)) out.push(node[key]);
    } else if (Array.isArray(node)) {
      for (const item of node) if (holds(item, step)) out.push(item);
    } else if (isObject(node) && holds(node, step)) out.push(node);
  }
  return out;
}

/** Whether `value` is something a definite path selects: not null, nor an empty object or array. */
function something(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (Array.isArray(value)) return value.length > 0;
  if (isObject(value)) return Object.keys(value).length > 0;
  return true;
}

/** Whether `expression` selects something in `json` (an expression outside the subset selects nothing). */
export function jsonPathSelects(expression: string, json: unknown): boolean {
  const path = compiled(expression);
  if (path === null) return false;
  let nodes: unknown[] = [json];
  for (const step of path.steps) {
    nodes = apply(nodes, step);
    if (nodes.length === 0) return false;
  }
  return path.definite ? something(nodes[0]) : nodes.length > 0;
}
