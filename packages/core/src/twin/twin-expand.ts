/**
 * `expand[]` (Stripe): in an answer, the ids at the paths asked for
 * (`customer`, `latest_charge`, `data.customer` through a list's page) are
 * replaced by the objects the twin holds with those ids. An id the twin does
 * not hold stays as it is. Bounded as Stripe bounds it and by size: a path
 * deeper than {@link EXPAND_MAX_DEPTH} levels (`data` of a list counts, as on
 * Stripe: `data.invoice.subscription.default_source` is the deepest) is refused,
 * and so is an answer whose spliced objects would pass
 * {@link EXPAND_MAX_BYTES}: counted object by object before each is copied in,
 * so that an answer too large is never built.
 *
 * @module
 */
import { ParamProblem } from './twin-body.js';

/** Most levels one `expand[]` path has, as Stripe allows. */
export const EXPAND_MAX_DEPTH = 4;
/** Most `expand[]` paths one request asks for (more are ignored). */
export const EXPAND_MAX_PATHS = 20;
/** Most bytes (JSON text) an answer with its expanded objects may reach: 16 MiB, as a collection. */
export const EXPAND_MAX_BYTES = 16 * 1024 * 1024;

/** A stored object found by id, and the size of its JSON text in characters. */
export interface Found {
  object: Record<string, unknown>;
  size: number;
}

/** Finds a stored object by id. */
type Finder = (id: string) => Promise<Found | undefined>;

/** What an expansion has spent: the answer's size so far. */
interface Budget {
  bytes: number;
}

function tooLarge(): ParamProblem {
  return new ParamProblem(
    `The expanded answer would be larger than ${EXPAND_MAX_BYTES} bytes (16 MiB), the most this twin answers: expand fewer fields or ask for a smaller limit.`,
    'expand',
    'expand_too_large',
  );
}

async function splice(id: string, find: Finder, budget: Budget): Promise<Record<string, unknown> | undefined> {
  const found = await find(id);
  if (found === undefined) return undefined;
  budget.bytes += found.size;
  if (budget.bytes > EXPAND_MAX_BYTES) throw tooLarge();
  return structuredClone(found.object);
}

async function expandPath(node: unknown, parts: readonly string[], find: Finder, budget: Budget): Promise<void> {
  if (Array.isArray(node)) {
    for (const member of node) await expandPath(member, parts, find, budget);
    return;
  }
  if (typeof node !== 'object' || node === null || parts.length === 0) return;
  const record = node as Record<string, unknown>;
  const [head, ...rest] = parts as [string, ...string[]];
  if (!Object.hasOwn(record, head)) return;
  const value = record[head];
  if (typeof value === 'string') {
    const found = await splice(value, find, budget);
    if (found === undefined) return;
    record[head] = found;
  }
  if (rest.length > 0) await expandPath(record[head], rest, find, budget);
}

/**
 * The paths of `expand[]` checked: throws a {@link ParamProblem} (Stripe's
 * `400`) for one deeper than {@link EXPAND_MAX_DEPTH} levels.
 */
export function expandPaths(asked: readonly unknown[]): string[][] {
  return asked.slice(0, EXPAND_MAX_PATHS).map((one) => {
    const path = String(one);
    const parts = path.split('.', EXPAND_MAX_DEPTH + 1);
    if (parts.length > EXPAND_MAX_DEPTH) {
      throw new ParamProblem(
        `You cannot expand more than ${EXPAND_MAX_DEPTH} levels of a property. Property: ${path.slice(0, 200)}`,
        'expand',
        'expand_too_deep',
      );
    }
    return parts;
  });
}

/**
 * Expands `paths` (from {@link expandPaths}) in `answer`, in place; `size` is
 * the answer's own JSON size. Throws a {@link ParamProblem} before the answer
 * would pass {@link EXPAND_MAX_BYTES}.
 */
export async function expandAnswer(
  answer: unknown,
  paths: readonly (readonly string[])[],
  find: Finder,
  size: number,
): Promise<void> {
  const budget: Budget = { bytes: size };
  for (const parts of paths) await expandPath(answer, parts, find, budget);
}
