/**
 * `expand[]` (Stripe): in an answer, the ids at the paths asked for
 * (`customer`, `latest_charge`, `data.customer` through a list's page) are
 * replaced by the objects the twin holds with those ids. An id the twin does
 * not hold stays as it is.
 *
 * Bounded before anything is built: at most {@link MAX_EXPAND_DEPTH} levels,
 * a list's `data` counted (Stripe's limit), and {@link MAX_EXPAND_PATHS} paths; and
 * the answer, with every object spliced in counted at the size of its stored
 * JSON text (read, not measured again), at most the limit the twin is given
 * (`MOCKPOINT_MAX_COLLECTION_BYTES`, as for a resource route's `_expand`). Past
 * any of them, an {@link ExpandProblem} and nothing built.
 *
 * @module
 */

import { TurnBudget } from '../turns/turn-budget.js';

/** Stripe's limit on the levels one expansion may go down. */
export const MAX_EXPAND_DEPTH = 4;
/** The most `expand[]` paths one request may name. */
export const MAX_EXPAND_PATHS = 20;

/** An expansion refused: too deep, too many paths, or an answer too large; `code` stable. */
export class ExpandProblem extends Error {
  constructor(
    message: string,
    readonly code: 'expand_too_deep' | 'expand_too_large' | 'expand_too_many',
  ) {
    super(message);
  }
}

/** Finds a stored object by id, with the size of its stored JSON text (what the answer's budget counts). */
type Finder = (id: string) => Promise<{ object: Record<string, unknown>; size: number } | undefined>;

/** The sizes of what is spliced in (each its stored text's), against the answer's budget. */
class Budget {
  #left: number;
  /** The event-loop turns the expansion is cut into. */
  readonly turns = new TurnBudget();

  constructor(
    readonly limit: number,
    used: number,
  ) {
    this.#left = limit - used;
  }

  /** The bytes counted so far, the answer's own included. */
  get used(): number {
    return this.limit - this.#left;
  }

  /** Counts one copy of an object of `size` bytes; an {@link ExpandProblem} when the answer would pass the limit. */
  take(size: number): void {
    this.#left -= size;
    if (this.#left < 0) {
      throw new ExpandProblem(
        `The answer with these expansions would be more than ${this.limit} bytes of JSON (MOCKPOINT_MAX_COLLECTION_BYTES): ask for fewer objects (a smaller limit) or fewer expansions.`,
        'expand_too_large',
      );
    }
  }
}

/**
 * Walks `parts` below `node` (at the dotted place `at`), each id found counted against `budget`;
 * `place`: the object put in the id's place (the expansion), else only weighed (what it will
 * cost, before it is built).
 */
async function expandPath(
  node: unknown,
  parts: readonly string[],
  find: Finder,
  budget: Budget,
  place?: Placing,
  at = '',
): Promise<void> {
  if (Array.isArray(node)) {
    for (const member of node) {
      await expandPath(member, parts, find, budget, place, at);
      // A page of 100 objects each cloned several times over is seconds of work: other requests between.
      await budget.turns.pause();
    }
    return;
  }
  if (typeof node !== 'object' || node === null || parts.length === 0) return;
  const record = node as Record<string, unknown>;
  const [head, ...rest] = parts as [string, ...string[]];
  if (!Object.hasOwn(record, head)) return;
  const here = at === '' ? head : `${at}.${head}`;
  let value = record[head];
  if (typeof value === 'string') {
    const found = await find(value);
    if (found === undefined) return;
    budget.take(found.size);
    // The stored object itself where nothing is expanded inside it (it is only read, then written
    // out: no copy of 15 MB of customers to collect); a copy where a path goes on into it.
    value = place?.inside.has(here) ? structuredClone(found.object) : found.object;
    if (place) record[head] = value;
  }
  if (rest.length > 0) await expandPath(value, rest, find, budget, place, here);
}

/** How an expansion places what it finds: `inside`, the places some longer path expands into. */
interface Placing {
  readonly inside: ReadonlySet<string>;
}

/** The places (`data.latest_charge`) below which another of `paths` expands (`data.latest_charge.customer`). */
function placing(paths: readonly string[]): Placing {
  const inside = new Set<string>();
  for (const path of paths) {
    const parts = path.split('.');
    for (let end = 1; end < parts.length; end++) inside.add(parts.slice(0, end).join('.'));
  }
  return { inside };
}

/** Checks `paths` against Stripe's bounds before anything is looked up. */
export function checkExpand(paths: readonly string[]): void {
  if (paths.length > MAX_EXPAND_PATHS) {
    throw new ExpandProblem(
      `At most ${MAX_EXPAND_PATHS} expand[] paths may be asked for in one request.`,
      'expand_too_many',
    );
  }
  for (const path of paths) {
    // Stripe counts a list's `data` as a level (`data.invoice.subscription.default_source` is its deepest).
    if (path.split('.').length > MAX_EXPAND_DEPTH) {
      throw new ExpandProblem(
        `You cannot expand more than ${MAX_EXPAND_DEPTH} levels of a property. Property: ${path.slice(0, 200)}`,
        'expand_too_deep',
      );
    }
  }
}

/**
 * Expands `paths` (dotted) in `answer`, in place; `answerBytes` is the answer's
 * size before, `maxBytes` the most it may reach.
 */
export async function expandAnswer(
  answer: unknown,
  paths: readonly string[],
  find: Finder,
  maxBytes: number,
  answerBytes: number,
): Promise<void> {
  checkExpand(paths);
  const budget = new Budget(maxBytes, answerBytes);
  const place = placing(paths);
  for (const path of paths) await expandPath(answer, path.split('.'), find, budget, place);
}

/**
 * About the bytes `answer` will hold once `paths` are expanded, measured without building
 * anything: what the daemon's budget of expensive work is asked for before the build. At most
 * `maxBytes` (the build refuses past it, {@link expandAnswer}); an object two paths reach is
 * counted twice here, once by the build, so this is never less than what the build makes.
 */
export async function expandedSize(
  answer: unknown,
  paths: readonly string[],
  find: Finder,
  maxBytes: number,
  answerBytes: number,
): Promise<number> {
  checkExpand(paths);
  const budget = new Budget(maxBytes, answerBytes);
  try {
    for (const path of paths) await expandPath(answer, path.split('.'), find, budget);
  } catch (error) {
    if (error instanceof ExpandProblem) return maxBytes;
    throw error;
  }
  return budget.used;
}
