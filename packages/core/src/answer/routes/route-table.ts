/**
 * An endpoint's routes compiled once per change: a segment trie over the path
 * patterns (literal, `:param` and trailing `*` edges) gives the routes whose path
 * fits in a few map lookups, however many routes there are; the rest of each
 * candidate's filter is then checked in list order with the one request matcher.
 *
 * @module
 */

import { kindReadsBody } from '../../api/answer-kinds.js';
import type { Route, RouteAnswer } from '../../api/route.js';
import { statesOf } from '../../api/state-json.js';
import { firstMismatch } from '../../journal/graphql-filter.js';
import { type FilterSubject, pathParams, subpathSegments } from '../../journal/request-filter.js';
import {
  explainPathMismatch,
  matchingPrefix,
  matchPathPattern,
  type PathPattern,
  parsePathPattern,
} from '../../pattern/path-pattern.js';
import type { TurnBudget } from '../../turns/turn-budget.js';
import type { RequestView } from '../request-view.js';
import type { CompiledAnswer } from './compile-parts.js';
import { RequestValidator } from './request-validator.js';
import { compileAnswer } from './route-answer.js';

/** One compiled route. */
export interface CompiledRoute {
  readonly index: number;
  readonly id: string;
  readonly route: Route;
  readonly pattern: PathPattern | undefined;
  /** Whether anything besides the path must be checked. */
  readonly filtered: boolean;
  readonly answer: CompiledAnswer;
  /** The route's request validation (its schemas compiled on first use), when it has one. */
  readonly validator: RequestValidator | undefined;
  /** How many requests it has answered in this process (the `{{seq}}` of templates). */
  seq: number;
}

/** A route chosen for a request, with its path parameters. */
export interface RouteHit {
  route: CompiledRoute;
  params: Record<string, string>;
}

/** A route that almost answered, and the first thing that did not match. */
export interface NearMiss {
  id: string;
  /** Its position in the list. */
  index: number;
  reason: string;
}

interface TrieNode {
  literals: Map<string, TrieNode> | undefined;
  param: TrieNode | undefined;
  /** Routes whose pattern ends exactly here. */
  ends: number[];
  /** Routes whose pattern ends here with `*` (any further segments). */
  rest: number[];
}

function node(): TrieNode {
  return { literals: undefined, param: undefined, ends: [], rest: [] };
}

/** A `{{body}}` or `{{body.…}}` placeholder (spaces allowed inside the braces). */
const BODY_PLACEHOLDER = /\{\{\s*body\s*(?:\.|\}\})/;

/** Whether a templated answer reads the request body (in a header, its body or a stream event). */
function readsBodyTemplate(answer: RouteAnswer): boolean {
  return answer.template === true && BODY_PLACEHOLDER.test(JSON.stringify(answer));
}

/** A `{{state.…}}` placeholder (spaces allowed inside the braces). */
const STATE_PLACEHOLDER = /\{\{\s*state\s*\./;

/** Whether a templated answer reads the endpoint's state. */
function readsStateTemplate(answer: RouteAnswer): boolean {
  return answer.template === true && STATE_PLACEHOLDER.test(JSON.stringify(answer));
}

const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** A matching route's path parameters: its pattern's, or its regular expression's named groups. */
function routeParams(
  route: CompiledRoute,
  segments: readonly string[],
  subpath: string,
): Record<string, string> | undefined {
  if (route.pattern !== undefined) return matchPathPattern(route.pattern, segments);
  const path = route.route.match?.path;
  return path === undefined ? NO_PARAMS : pathParams(path, subpath);
}

export class RouteTable {
  readonly routes: readonly CompiledRoute[];
  /** Approximate memory cost, for the cache bound. */
  readonly bytes: number;
  readonly #root = node();
  /** Routes without a path: candidates for every request. */
  readonly #anyPath: number[] = [];
  /**
   * Whether a request may need its whole body (not only the journal's first
   * bytes): a proxy route forwards the exact body, a resource route stores it, a validating route checks it,
   * a route matching the body compares it (every route before the answering one
   * is tried), a template reading `{{body…}}` renders it.
   */
  readonly readsWholeBody: boolean;
  /**
   * The scenarios a route's `match.state` looks at (the state a selection
   * depends on: a move is made only from them as they were), and whether any
   * route looks at, moves or renders (`{{state.x}}`) the state at all (then the
   * routes' step reads it first).
   */
  readonly stateScenarios: readonly string[];
  readonly usesState: boolean;

  /** A table for `routes`, their answers compiled a slice per event-loop turn (`budget`): a long list or a large answer. */
  static async inTurns(routes: readonly Route[], budget: TurnBudget): Promise<RouteTable> {
    const answers: CompiledAnswer[] = [];
    for (const route of routes) {
      await budget.pause();
      answers.push(compileAnswer(route.answer));
    }
    await budget.pause();
    return new RouteTable(routes, answers);
  }

  /** Compiles `routes`; `answers`, when given, are their answers compiled already (in order). */
  constructor(routes: readonly Route[], answers?: readonly CompiledAnswer[]) {
    let bytes = 256;
    this.routes = routes.map((route, index) => {
      const { path, ...rest } = route.match ?? {};
      // A regular-expression path (`{ matches }`) is checked with the rest of the filter.
      const regexPath = path !== undefined && typeof path !== 'string';
      let pattern = path === undefined || regexPath ? undefined : parsePathPattern(path);
      // A resource route serves its collection at its path and what is below it (items, nested routes).
      if (pattern !== undefined && route.answer.resource !== undefined && !pattern.wildcard) {
        pattern = { ...pattern, wildcard: true };
      }
      const answer = answers?.[index] ?? compileAnswer(route.answer);
      bytes += answer.bytes + 128 + (typeof path === 'string' ? path.length : 0) * 2;
      if (pattern === undefined) this.#anyPath.push(index);
      else this.#insert(pattern, index);
      const validate = route.validate;
      const validator = validate === undefined || validate.mode === 'off' ? undefined : new RequestValidator(validate);
      if (route.validate !== undefined) bytes += JSON.stringify(route.validate).length * 2;
      const filtered = regexPath || Object.keys(rest).length > 0;
      return { index, id: route.id, route, pattern, filtered, answer, validator, seq: 0 };
    });
    this.bytes = bytes;
    const looked = new Set<string>();
    let reads = false;
    for (const { route } of this.routes) {
      if (route.match?.state !== undefined)
        for (const scenario of Object.keys(statesOf(route.match.state))) looked.add(scenario);
      if (route.answer.setState !== undefined || readsStateTemplate(route.answer)) reads = true;
    }
    this.stateScenarios = [...looked];
    this.usesState = reads || looked.size > 0;
    this.readsWholeBody = this.routes.some(
      (route) =>
        kindReadsBody(route.route.answer) ||
        route.validator?.readsBody === true ||
        (route.route.match !== undefined && Object.hasOwn(route.route.match, 'body')) ||
        route.route.match?.bodyPatterns !== undefined ||
        (route.route.match !== undefined && Object.hasOwn(route.route.match, 'bodyEquals')) ||
        route.route.match?.bodyJsonPaths !== undefined ||
        route.route.match?.graphql !== undefined ||
        route.route.match?.mcp !== undefined ||
        readsBodyTemplate(route.route.answer),
    );
  }

  #insert(pattern: PathPattern, index: number): void {
    let at = this.#root;
    for (const segment of pattern.segments) {
      if ('literal' in segment) {
        at.literals ??= new Map();
        let next = at.literals.get(segment.literal);
        if (next === undefined) {
          next = node();
          at.literals.set(segment.literal, next);
        }
        at = next;
      } else {
        at.param ??= node();
        at = at.param;
      }
    }
    (pattern.wildcard ? at.rest : at.ends).push(index);
  }

  /** The indices of the routes whose path fits `segments`, in list order. */
  #candidates(segments: readonly string[]): number[] {
    const found: number[] = [...this.#anyPath];
    const walk = (at: TrieNode, depth: number): void => {
      if (at.rest.length > 0) found.push(...at.rest);
      if (depth === segments.length) {
        if (at.ends.length > 0) found.push(...at.ends);
        return;
      }
      const next = at.literals?.get(segments[depth] as string);
      if (next !== undefined) walk(next, depth + 1);
      if (at.param !== undefined && segments[depth] !== '') walk(at.param, depth + 1);
    };
    walk(this.#root, 0);
    if (found.length > 1) found.sort((a, b) => a - b);
    return found;
  }

  /**
   * The first route, in list order, whose whole filter holds for `view`;
   * `undefined` when none does. A gRPC call (a view with `grpc`) is answered
   * by routes with a `grpc` answer only, and only calls by them.
   */
  select(view: FilterSubject): RouteHit | undefined {
    const segments = subpathSegments(view.subpath);
    const call = view.grpc !== undefined;
    for (const index of this.#candidates(segments)) {
      const route = this.routes[index] as CompiledRoute;
      if ((route.route.answer.grpc !== undefined) !== call) continue;
      const match = route.route.match;
      if (route.filtered && match !== undefined && firstMismatch(view, match, { skipPath: true }) !== undefined) {
        continue;
      }
      const params = routeParams(route, segments, view.subpath);
      // The trie lets an empty segment reach a :param edge only where the pattern agrees.
      if (params === undefined) continue;
      return { route, params };
    }
    return undefined;
  }

  /**
   * Up to `max` routes nearest to answering `view`, each with the first thing
   * that did not match: routes whose path fits first (by how far their filter
   * got), then by how many leading segments agree. Only on the 404 path.
   */
  nearMisses(view: RequestView, max = 3): NearMiss[] {
    const segments = subpathSegments(view.subpath);
    const ranked = this.routes.map((route) => {
      const pathReason = route.pattern === undefined ? undefined : explainPathMismatch(route.pattern, segments);
      let score: number;
      let reason: string;
      if (pathReason === undefined) {
        const match = route.route.match ?? {};
        reason = firstMismatch(view, match, { explain: true, skipPath: true }) ?? 'matches';
        // Method mismatches rank below a wrong header or body on the right method.
        score = 1000 + (reason.startsWith('method ') ? 0 : 1);
      } else {
        const method = route.route.match?.method;
        const methodOk = method === undefined || method.toUpperCase() === view.method.toUpperCase();
        score = matchingPrefix(route.pattern as PathPattern, segments) * 2 + (methodOk ? 1 : 0);
        reason = pathReason;
      }
      return { score, near: { id: route.id, index: route.index, reason } };
    });
    ranked.sort((a, b) => b.score - a.score || a.near.index - b.near.index);
    return ranked.slice(0, max).map((entry) => entry.near);
  }
}
