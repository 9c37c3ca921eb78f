/**
 * A Hono router whose matcher is built once per route list and shared by every
 * app that registers the same routes in the same order: the namespaces' apps
 * (one per test session) each register the whole API, and building Hono's
 * matcher for it (its regular expressions) was a third of making such an app.
 * Each app keeps its own handlers; the shared matcher answers their positions,
 * which the app turns into its handlers. Matching is Hono's own (SmartRouter:
 * RegExpRouter, else TrieRouter), so an app answers exactly as with a router of
 * its own.
 *
 * @module
 */
import type { ParamIndexMap, ParamStash, Params, Result, Router } from 'hono/router';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { SmartRouter } from 'hono/router/smart-router';
import { TrieRouter } from 'hono/router/trie-router';

/** Route lists kept with their matcher: one per distinct list (a daemon's namespaces share one). */
const MAX_SHAPES = 8;
const SHAPES = new Map<string, Router<number>>();

/** The shared matcher of the route list `key` (each line a method and path), made from `routes` once. */
function matcherOf(key: string, routes: readonly (readonly [string, string])[]): Router<number> {
  const known = SHAPES.get(key);
  if (known !== undefined) return known;
  const matcher = new SmartRouter<number>({ routers: [new RegExpRouter(), new TrieRouter()] });
  for (const [index, [method, path]] of routes.entries()) matcher.add(method, path, index);
  if (SHAPES.size >= MAX_SHAPES) SHAPES.delete(SHAPES.keys().next().value as string);
  SHAPES.set(key, matcher);
  return matcher;
}

/** A Hono router of one app over the matcher shared by every app with its routes. */
export class SharedRouter<T> implements Router<T> {
  readonly name = 'SharedRouter';
  readonly #routes: (readonly [string, string])[] = [];
  readonly #handlers: T[] = [];
  #key = '';
  #matcher: Router<number> | undefined;
  /** The matcher's lists of positions (kept by RegExpRouter per route set) as this app's handlers. */
  readonly #mapped = new WeakMap<object, unknown[]>();

  add(method: string, path: string, handler: T): void {
    this.#routes.push([method, path]);
    this.#handlers.push(handler);
    this.#key += `${method} ${path}\n`;
    this.#matcher = undefined;
  }

  match(method: string, path: string): Result<T> {
    this.#matcher ??= matcherOf(this.#key, this.#routes);
    const found = this.#matcher.match(method, path);
    const list = found[0] as [number, ParamIndexMap | Params][];
    let mine = this.#mapped.get(list) as [T, ParamIndexMap | Params][] | undefined;
    if (mine === undefined) {
      mine = list.map(([index, params]) => [this.#handlers[index] as T, params]);
      this.#mapped.set(list, mine);
    }
    return (found.length === 1 ? [mine] : [mine, found[1] as ParamStash]) as Result<T>;
  }
}

/** How many route lists have a shared matcher now (for tests: every namespace's app shares one). */
export function sharedMatcherCount(): number {
  return SHAPES.size;
}
