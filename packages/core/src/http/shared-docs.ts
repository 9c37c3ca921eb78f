/**
 * The route documentation every namespace's app shares. Each namespace (a test session) has an
 * app of its own with the same routes, so the same docs: building them (the OpenAPI parts, their
 * zod schemas, the error lists) was most of what registering a namespace's routes cost. The first
 * namespace's app to register its routes builds them; every later one reads those and builds none.
 * They are read for the 405 answer's methods and `GET /api/openapi.json`.
 *
 * @module
 */
import type { AppContext } from './context.js';
import type { RouteDoc } from './openapi.js';

/** The docs of a daemon's namespaces' apps, made once. */
export class SharedDocs {
  #docs: RouteDoc[] | undefined;

  /** Before an app's routes are registered: takes the shared docs, when made, and describes nothing more. */
  lend(ctx: Pick<AppContext, 'docs' | 'describe'>): void {
    if (this.#docs === undefined) return;
    ctx.docs = this.#docs;
    ctx.describe = undefined;
  }

  /** After an app's routes are registered: keeps its docs as the shared ones, when none are yet. */
  keep(ctx: Pick<AppContext, 'docs'>): void {
    this.#docs ??= ctx.docs;
  }
}
